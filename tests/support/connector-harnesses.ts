import { randomUUID } from 'node:crypto';
import { culqiKeys, mercadoPagoKeys } from '../simulators/test-keys';
import {
  createRegistry,
  processorConnector,
  PROCESSOR_INTEGRATIONS,
  type PaymentInstrument,
  type ConnectorContext,
  type DeclineClass,
  type PaymentConnector,
  type Processor,
  type ProcessorAccountConfig,
  type ProcessorEndpoints,
} from '@/server/payments';
import type { PaymentMethod } from '@/server/core/domain/states';
import { instrumentFromRequest } from './connector-context';
import { memorySandboxStore } from './memory-sandbox-store';
import { startCulqiSimulator, type CulqiSimulator } from '../simulators/culqi/culqi-simulator';
import type { RecordedRequest } from '../simulators/simulator-http';
import { startMercadoPagoSimulator, type MercadoPagoSimulator } from '../simulators/mercadopago/mercadopago-simulator';

// What the connectors' contract battery (src/server/payments/connector-contract.test.ts) needs of
// each connector, sandbox or real: a fresh connector (a sandbox one on a store of its own; a real
// one on a new account at its processor's simulator), the faults its processor can show, valid
// requests of each method it carries, and its processor's documented declines. The battery itself
// knows no processor.

/** A fault the processor shows to one connector: `outage` never answers, `slow` answers after the timeout having done the work. */
export type Fault = 'normal' | 'outage' | 'slow';

export type Harnessed = {
  connector: PaymentConnector;
  setFault(fault: Fault): Promise<void>;
  /**
   * What the processor has returned of a payment (by its id), in cents, as its own API reports
   * it. The sandbox processors keep no such sum: the service's refunds are their record.
   */
  refunded?: (processorReference: string) => Promise<bigint>;
};

/** A simulator's own record of a payment, read with the account's secret key. */
async function readAt(url: string, secretKey: string): Promise<Record<string, unknown>> {
  const answer = await fetch(url, { headers: { authorization: `Bearer ${secretKey}` } });
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}`);
  return (await answer.json()) as Record<string, unknown>;
}

export type DocumentedDecline = {
  name: string;
  method: PaymentMethod;
  request: PaymentInstrument;
  context?: Partial<ConnectorContext>;
  code: string;
  declineClass: DeclineClass;
};

/** What a processor's documentation says of the connector's requests, checked against its simulator's log of whole requests. */
export type Wire = {
  /** Every request the simulator received, whole. */
  requests(): RecordedRequest[];
  /** The one host and path a card number may go to (the processor's tokenization), and fields its body carries. */
  cardData: { host: string; path: string; fields: Record<string, unknown> };
  /** How the create-payment request carries 150.00: its path, field (a dotted path: `order.amount`) and value (units). */
  amount: { path: string; field: string; value: number };
  /** Headers every request to the API host carries. */
  headers: Record<string, string>;
};

export type Harness = {
  name: string;
  /** Real processors' connectors: what their requests must look like on the wire. */
  wire?: Wire;
  /** The connector's timeout in the battery: short, so late answers cost little. */
  timeoutMs: number;
  open(): Promise<Harnessed>;
  /** A valid request of each method, approved (or left pending, for methods the payer completes later). */
  approved: Partial<Record<PaymentMethod, PaymentInstrument>>;
  declines: DocumentedDecline[];
  /** Its processor sends notifications (webhooks) the connector verifies. */
  notifies: boolean;
  close(): Promise<void>;
};

const parseRequest = instrumentFromRequest;

const URLS = { redirect_url: 'https://shop.test/return', callback_url: 'https://shop.test/cb' };
/** A card request as an integrator sends it (expiry 12/30). */
export const card = (pan: string, securityCode = '123', holder?: string) =>
  parseRequest({
    method_name: 'CARD',
    method_details: {
      pan,
      expiry_date: '1230',
      security_code: securityCode,
      ...(holder ? { card_holder: { first_name: holder } } : {}),
    },
  });
export const yape = (subscriber: string, otp: string) =>
  parseRequest({ method_name: 'YAPE', method_details: { phone: { country_code: '+51', subscriber }, otp } });
export const pending = (method: 'BANK_TRANSFER' | 'CUOTEALO' | 'PAGOEFECTIVO' | 'QR') =>
  parseRequest({ method_name: method, method_details: method === 'QR' ? {} : URLS });

/** The connectors' timeout in the battery: short, so late answers cost little. */
export const TIMEOUT_MS = 300;

/** A valid request of every method, for a connector to refuse the ones it does not carry. */
export const ANY_METHOD_REQUEST: Record<PaymentMethod, PaymentInstrument> = {
  CARD: card('4111111111111111'),
  YAPE: yape('987654321', '123456'),
  BANK_TRANSFER: pending('BANK_TRANSFER'),
  CUOTEALO: pending('CUOTEALO'),
  PAGOEFECTIVO: pending('PAGOEFECTIVO'),
  QR: pending('QR'),
};

/** Endpoints where every processor but the one under test is unreachable. */
export function endpointsOf(overrides: Partial<ProcessorEndpoints>): ProcessorEndpoints {
  const nowhere = 'http://127.0.0.1:9';
  return {
    culqiApi: nowhere,
    culqiSecure: nowhere,
    mercadoPagoApi: nowhere,
    niubizApi: { test: nowhere, live: nowhere },
    izipayApi: nowhere,
    timeoutMs: TIMEOUT_MS,
    ...overrides,
  };
}

/** Each sandbox connector on a store of its own. */
export function sandboxHarnesses(): Harness[] {
  const connectors = createRegistry(memorySandboxStore(), { timeoutMs: TIMEOUT_MS }).connectors;
  return connectors.map(({ id, methods }) => ({
    name: id,
    timeoutMs: TIMEOUT_MS,
    async open() {
      const store = memorySandboxStore();
      const connector = createRegistry(store, { timeoutMs: TIMEOUT_MS }).byId(id)!;
      return { connector, setFault: (fault) => store.setMode(id, fault) };
    },
    approved: {
      CARD: card('4111111111111111'),
      YAPE: yape('987654321', '123456'),
      BANK_TRANSFER: pending('BANK_TRANSFER'),
      CUOTEALO: pending('CUOTEALO'),
      PAGOEFECTIVO: pending('PAGOEFECTIVO'),
      QR: pending('QR'),
    },
    declines: SANDBOX_DECLINES.filter((decline) => methods.includes(decline.method)),
    notifies: false,
    close: async () => undefined,
  }));
}

const SANDBOX_DECLINES: DocumentedDecline[] = [
  { name: 'do not honour', method: 'CARD', request: card('4000000000000002'), code: '05', declineClass: 'soft' },
  { name: 'insufficient funds', method: 'CARD', request: card('4000000000009995'), code: '51', declineClass: 'soft' },
  { name: 'bad security code', method: 'CARD', request: card('4000000000000127'), code: 'N7', declineClass: 'hard' },
  {
    name: 'issuer wants 3-D Secure',
    method: 'CARD',
    request: card('4000000000003261'),
    code: '65',
    declineClass: 'sca_required',
  },
  { name: 'invalid one-time code', method: 'YAPE', request: yape('987654321', '000000'), code: 'Y1', declineClass: 'hard' },
  {
    name: 'over the Yape limit',
    method: 'YAPE',
    request: yape('987654321', '123456'),
    context: { amount: 350_001n },
    code: '61',
    declineClass: 'soft',
  },
];

/** A new test account at a processor's simulator, carrying every method the processor does. */
export function testAccount(
  processor: Processor,
  simulatorUrl: string,
  keys: { publicKey: string; secretKey: string; apiUser?: string; taxId?: string },
): ProcessorAccountConfig {
  const accountId = randomUUID();
  return {
    accountId,
    connectorId: `${processor}-${accountId.slice(0, 8)}`,
    name: 'Battery',
    processor,
    environment: 'test',
    methods: PROCESSOR_INTEGRATIONS[processor].methods,
    apiUser: null,
    taxId: null,
    ...keys,
    webhook: { username: null, secret: null },
    notificationUrl: `${simulatorUrl}/unused-notifications/${accountId}`,
  };
}

/** Culqi's connector on new accounts at one Culqi simulator. */
export async function culqiHarness(): Promise<Harness> {
  const simulator: CulqiSimulator = await startCulqiSimulator();
  const endpoints = endpointsOf({ culqiApi: simulator.url, culqiSecure: simulator.secureUrl });
  return {
    name: 'culqi',
    timeoutMs: TIMEOUT_MS,
    // Culqi's official libraries: card data to secure.culqi.com/v2/tokens only, amounts in
    // céntimos, x-culqi-env and x-api-version on every request (research §1, §2, §3).
    wire: {
      requests: () => simulator.requests,
      cardData: { host: 'secure', path: '/v2/tokens', fields: { expiration_month: '12', expiration_year: '2030' } },
      amount: { path: '/v2/charges', field: 'amount', value: 15000 },
      headers: { 'x-culqi-env': 'test', 'x-api-version': '2' },
    },
    async open() {
      const keys = culqiKeys();
      simulator.addAccount(keys);
      const connector = processorConnector(testAccount('culqi', simulator.url, keys), endpoints);
      return {
        connector,
        setFault: async (fault) => simulator.setMode(fault, { key: keys.secretKey, delayMs: TIMEOUT_MS * 2 }),
        refunded: async (id) =>
          BigInt((await readAt(`${simulator.url}/v2/charges/${id}`, keys.secretKey)).amount_refunded as number),
      };
    },
    // Test data: docs.culqi.com/es/documentacion/pagos-online/tarjetas-de-prueba.
    approved: {
      CARD: card('4111111111111111'),
      YAPE: yape('900000001', '425251'),
      PAGOEFECTIVO: pending('PAGOEFECTIVO'),
      CUOTEALO: pending('CUOTEALO'),
    },
    declines: [
      {
        name: 'stolen card',
        method: 'CARD',
        request: card('4000020000000000', '354'),
        code: 'stolen_card',
        declineClass: 'hard',
      },
      {
        name: 'insufficient funds',
        method: 'CARD',
        request: card('4000040000000008', '295'),
        code: 'insufficient_funds',
        declineClass: 'soft',
      },
      {
        name: 'issuer not available',
        method: 'CARD',
        request: card('370001000000000', '2511'),
        code: 'issuer_not_available',
        declineClass: 'technical',
      },
      {
        name: '3-D Secure required (REVIEW)',
        method: 'CARD',
        request: card('4456530000001096', '111'),
        context: {
          order: {
            merchantOperationNumber: 'op-review',
            merchantName: 'Shop TEST',
            description: 'Shop TEST op-review',
            payer: { email: 'review@culqi.com', firstName: 'Ana', lastName: 'Quispe', phone: null },
          },
        },
        code: 'REVIEW',
        declineClass: 'sca_required',
      },
      {
        name: 'over the Yape daily limit',
        method: 'YAPE',
        request: yape('900000001', '425251'),
        context: { amount: 50_001n },
        code: 'insufficient_funds',
        declineClass: 'soft',
      },
    ],
    notifies: true,
    close: () => simulator.close(),
  };
}

/** Mercado Pago's connector on new accounts at one Mercado Pago simulator. */
export async function mercadoPagoHarness(): Promise<Harness> {
  const simulator: MercadoPagoSimulator = await startMercadoPagoSimulator();
  const endpoints = endpointsOf({ mercadoPagoApi: simulator.url });
  return {
    name: 'mercadopago',
    timeoutMs: TIMEOUT_MS,
    // Mercado Pago's reference: card data to /v1/card_tokens only, amounts in soles (research §2, §4).
    wire: {
      requests: () => simulator.requests,
      cardData: { host: 'api', path: '/v1/card_tokens', fields: { expiration_month: '12', expiration_year: '2030' } },
      amount: { path: '/v1/payments', field: 'transaction_amount', value: 150 },
      headers: {},
    },
    async open() {
      const keys = mercadoPagoKeys();
      simulator.addAccount({ accessToken: keys.secretKey, publicKey: keys.publicKey });
      const connector = processorConnector(testAccount('mercadopago', simulator.url, keys), endpoints);
      return {
        connector,
        setFault: async (fault) => simulator.setMode(fault, { key: keys.secretKey, delayMs: TIMEOUT_MS * 2 }),
        refunded: async (id) => {
          const payment = await readAt(`${simulator.url}/v1/payments/${id}`, keys.secretKey);
          return BigInt(Math.round((payment.transaction_amount_refunded as number) * 100));
        },
      };
    },
    // Test data: mercadopago.com.pe/developers/en/docs/your-integrations/test/cards (the cardholder
    // name decides) and …/checkout-api/integration-configuration/yape.
    approved: { CARD: card('4009175332806176', '123', 'APRO'), YAPE: yape('111111111', '123456') },
    declines: [
      {
        name: 'insufficient amount (FUND)',
        method: 'CARD',
        request: card('4009175332806176', '123', 'FUND'),
        code: 'cc_rejected_insufficient_amount',
        declineClass: 'soft',
      },
      {
        name: 'bad security code (SECU)',
        method: 'CARD',
        request: card('4009175332806176', '123', 'SECU'),
        code: 'cc_rejected_bad_filled_security_code',
        declineClass: 'hard',
      },
      {
        name: 'call for authorization (CALL)',
        method: 'CARD',
        request: card('4009175332806176', '123', 'CALL'),
        code: 'cc_rejected_call_for_authorize',
        declineClass: 'soft',
      },
      {
        name: 'Yape test phone 111111112 (call for authorization)',
        method: 'YAPE',
        request: yape('111111112', '123456'),
        code: 'cc_rejected_call_for_authorize',
        declineClass: 'soft',
      },
      {
        name: 'over the Yape limit (test phone 111111113)',
        method: 'YAPE',
        request: yape('111111113', '123456'),
        code: 'cc_amount_rate_limit_exceeded',
        declineClass: 'soft',
      },
    ],
    notifies: true,
    close: () => simulator.close(),
  };
}
