import type { ConnectorCapabilities } from '@/server/core/domain/capabilities';
import type { CurrencyCode } from '@/server/core/domain/money';
import type { PaymentMethod } from '@/server/core/domain/states';
import { notSupported, type PaymentConnector } from './connector';

// A merchant's own account at a processor (docs/processors/README.md), as its connector needs it:
// the keys opened from their seal, where the processor's API is, and where the processor's
// notifications about this account reach the service.

export const PROCESSORS = ['culqi', 'mercadopago', 'niubiz', 'izipay'] as const;
export type Processor = (typeof PROCESSORS)[number];

export type ProcessorAccountConfig = {
  accountId: string;
  /** How routes and records name this account's connector (`culqi-3f9a2c1d`). */
  connectorId: string;
  name: string;
  processor: Processor;
  environment: 'test' | 'live';
  /** The methods the merchant carries through this account. */
  methods: readonly PaymentMethod[];
  /**
   * Culqi's public key; Mercado Pago's public key; Niubiz's merchant code (`merchantId`, up to
   * nine digits); Izipay's shop id (eight digits, the user of its REST API).
   */
  publicKey: string;
  /** Culqi's secret key; Mercado Pago's access token; Niubiz's API password; Izipay's REST password. */
  secretKey: string;
  /** Niubiz's API user (the email its security API takes with the password); null for the others. */
  apiUser: string | null;
  /** The merchant's RUC (11 digits), which Niubiz's refunds carry; null when not given. */
  taxId: string | null;
  /**
   * What proves a notification is the processor's: Culqi's HTTP Basic credentials (the user name
   * and password the merchant set on the webhook in CulqiPanel), Mercado Pago's webhook secret.
   * Izipay signs its IPN with the REST password (`secretKey`); Niubiz signs nothing (its
   * notifications are verified by asking Niubiz).
   */
  webhook: { username: string | null; secret: string | null };
  /** Where the processor's notifications about this account reach the service. */
  notificationUrl: string;
};

/** Sent where a payer gave no email: Culqi and Mercado Pago require one on every payment. */
export const PAYER_WITHOUT_EMAIL = 'sin-correo@pagos.pe';

/** Where each processor's API is (configuration: the real hosts, or a simulator's in tests). */
export type ProcessorEndpoints = {
  culqiApi: string;
  culqiSecure: string;
  mercadoPagoApi: string;
  /** Niubiz has one host per environment (apitestenv.vnforapps.com, apiprod.vnforapps.com). */
  niubizApi: { test: string; live: string };
  /** Izipay's REST API V4 host (api.micuentaweb.pe), the same for test and live: the password says which. */
  izipayApi: string;
  timeoutMs: number;
};

/** A connection test's verdict, in words for the console. */
export type AccountCheck = { ok: boolean; message: string };

/** A connector's flows, as an integration makes them over its client for one account: an authorization per method it carries. */
export type ConnectorFlows = Pick<PaymentConnector, 'reverse' | 'refund' | 'capture' | 'status' | 'notification'> & {
  authorize: Partial<Record<PaymentMethod, PaymentConnector['authorize']>>;
  /** Where its capabilities declare `savedCards.zeroAmountVerify`. */
  verifyCard?: PaymentConnector['verifyCard'];
  /** Where its tokens are made after an approval rather than by the authorization itself. */
  provisionCardToken?: PaymentConnector['provisionCardToken'];
  /** Where it cannot authorize a card without its security code but can hold one for a 3-D Secure challenge. */
  holdCard?: PaymentConnector['holdCard'];
  /** Where its capabilities declare `savedCards.deleteToken`. */
  deleteCardToken?: PaymentConnector['deleteCardToken'];
};

/**
 * A processor merchants connect their own accounts to, declared once in its connector file (the
 * registry lists them): its name, what every account of it carries, its HTTP client, its flows
 * over that client, and how an account's keys are checked. A new processor is its integration,
 * its mapping and its codes table.
 */
export type ProcessorIntegration<Client> = {
  name: string;
  methods: readonly PaymentMethod[];
  currencies: readonly CurrencyCode[];
  capabilities: ConnectorCapabilities;
  client: (account: ProcessorAccountConfig, endpoints: ProcessorEndpoints) => Client;
  flows: (client: Client, account: ProcessorAccountConfig) => ConnectorFlows;
  check: (account: ProcessorAccountConfig, endpoints: ProcessorEndpoints) => Promise<AccountCheck>;
};

/** An integration as the registry holds it, whatever its client. */
export type Integration = Omit<ProcessorIntegration<unknown>, 'client' | 'flows'> & {
  flowsFor: (account: ProcessorAccountConfig, endpoints: ProcessorEndpoints) => ConnectorFlows;
};

export function integration<Client>({ client, flows, ...facts }: ProcessorIntegration<Client>): Integration {
  return { ...facts, flowsFor: (account, endpoints) => flows(client(account, endpoints), account) };
}

/**
 * The connector of one account: its id and name, the methods it carries of those the merchant
 * chose, the processor's currencies and capabilities, the configured timeout; a flow asked about
 * a payment of a method the processor does not carry is not supported, before any call.
 */
export function accountConnector(
  integration: Integration,
  account: ProcessorAccountConfig,
  endpoints: ProcessorEndpoints,
): PaymentConnector {
  const flows = integration.flowsFor(account, endpoints);
  const carries = (method: PaymentMethod) => integration.methods.includes(method);
  return {
    id: account.connectorId,
    name: `${integration.name} · ${account.name}`,
    methods: account.methods.filter(carries),
    currencies: integration.currencies,
    capabilities: integration.capabilities,
    timeoutMs: endpoints.timeoutMs,
    async authorize(instrument, context) {
      const authorize = carries(instrument.method) ? flows.authorize[instrument.method] : undefined;
      if (!authorize) throw new Error(`The ${integration.name} connector cannot authorize a ${instrument.method} request`);
      return authorize(instrument, context);
    },
    reverse: (transaction) =>
      carries(transaction.method) ? flows.reverse(transaction) : Promise.resolve(notSupported('reverse')),
    refund: (request) => (carries(request.method) ? flows.refund(request) : Promise.resolve(notSupported('refund'))),
    capture: (request) => (carries(request.method) ? flows.capture(request) : Promise.resolve(notSupported('capture'))),
    status: (transaction) => (carries(transaction.method) ? flows.status(transaction) : Promise.resolve(notSupported('status'))),
    notification: flows.notification,
    verifyCard: (instrument, context) =>
      flows.verifyCard && carries('CARD') ? flows.verifyCard(instrument, context) : Promise.resolve(notSupported('verify')),
    provisionCardToken: (instrument, context) =>
      flows.provisionCardToken && carries('CARD')
        ? flows.provisionCardToken(instrument, context)
        : Promise.resolve(notSupported('provision_token')),
    holdCard: (instrument, context) =>
      flows.holdCard && carries('CARD') ? flows.holdCard(instrument, context) : Promise.resolve(notSupported('hold_card')),
    deleteCardToken: (token) =>
      flows.deleteCardToken ? flows.deleteCardToken(token) : Promise.resolve(notSupported('delete_token')),
  };
}
