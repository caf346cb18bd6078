import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIzipaySimulator, type IzipaySimulator } from './izipay-simulator';
import { ipnBody, krHash } from './izipay-ipn';
import { LYRA_DEMO_SHOP, LYRA_SIMULATED_IPN_ANSWER, LYRA_SIMULATED_IPN_HASH } from './lyra-simulated-ipn';

// The simulator over HTTP with plain fetch, as the connector sees it (README.md).

const SHOP = { shopId: '51447378', password: 'testpassword_SimulatorTestPassword0123' };
const OTHER = { shopId: '69876357', password: 'testpassword_AnotherShopPassword456' };
const VISA_OK = '4970100000000055';
const AMEX_FRICTIONLESS = '375900000010007';

/** The members of an answer these tests read (the rest is `unknown`). */
type Answer = Record<string, unknown> & {
  errorCode?: string;
  uuid?: string;
  detailedStatus?: string;
  transactions?: Answer[];
  transactionDetails?: { cardDetails: { captureResponse: { refundAmount: number | null } } };
};
type Envelope = { status: 'SUCCESS' | 'ERROR'; mode: string; webService: string; answer: Answer; _type: string };

let sim: IzipaySimulator;
let later: IzipaySimulator;
let receiver: Server;
let receiverUrl: string;
let receiverStatus = 200;
const received: { contentType: string; body: string }[] = [];

async function ws(
  webService: string,
  body: unknown,
  options: { shop?: { shopId: string; password: string } | null; simulator?: IzipaySimulator } = {},
): Promise<Envelope> {
  const shop = options.shop === undefined ? SHOP : options.shop;
  const response = await fetch(`${(options.simulator ?? sim).url}/api-payment/V4/${webService}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(shop ? { authorization: `Basic ${Buffer.from(`${shop.shopId}:${shop.password}`).toString('base64')}` } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Envelope;
}

function payment(pan: string, extra: Record<string, unknown> = {}, form: Record<string, unknown> = {}) {
  return {
    amount: 15000,
    currency: 'PEN',
    orderId: `order-${Math.random().toString(36).slice(2)}`,
    paymentForms: [{ paymentMethodType: 'CARD', pan, expiryMonth: '12', expiryYear: '30', securityCode: '123', ...form }],
    ...extra,
  };
}

async function paid(extra: Record<string, unknown> = {}, simulator?: IzipaySimulator) {
  const reply = await ws('Charge/CreatePayment', payment(VISA_OK, extra), { simulator });
  expect(reply.status).toBe('SUCCESS');
  return reply.answer.transactions![0]! as Answer & { uuid: string };
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ contentType: request.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiverStatus).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ipn`;
  sim = await startIzipaySimulator({ ipnRetryDelayMs: 10 });
  sim.addAccount(SHOP);
  sim.addAccount(OTHER);
  later = await startIzipaySimulator({ captureDelayMs: 60_000 });
  later.addAccount(SHOP);
});

afterAll(async () => {
  await sim.close();
  await later.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('authentication and envelope (research §1.1, §8.1)', () => {
  it('answers bad or missing credentials with HTTP 200 and INT_905', async () => {
    for (const shop of [
      null,
      { shopId: SHOP.shopId, password: 'testpassword_wrong12345' },
      { shopId: '12345678', password: SHOP.password },
    ]) {
      const reply = await ws('Order/Get', { orderId: 'x' }, { shop });
      expect(reply).toMatchObject({ status: 'ERROR', answer: { errorCode: 'INT_905' }, _type: 'V4/WebService/Response' });
    }
  });

  it('wraps answers in the V4 envelope, echoes the mode, and refuses what it does not know', async () => {
    const reply = await ws('Order/Get', { orderId: 'none' });
    expect(reply).toMatchObject({ webService: 'Order/Get', status: 'ERROR', mode: 'TEST', answer: { errorCode: 'PSP_010' } });
    expect((await ws('Charge/CreateSubscription', {})).answer.errorCode).toBe('INT_901');
    expect((await ws('Order/Get', 'not json')).answer.errorCode).toBe('INT_902');
    expect((await fetch(`${sim.url}/api-payment/V4/Order/Get`)).status).toBe(405);
  });

  it('registers shops as the Back Office would: 8-digit shop id, testpassword_/prodpassword_', async () => {
    expect(() => sim.addAccount({ shopId: '1234', password: SHOP.password })).toThrow('8 digits');
    expect(() => sim.addAccount({ shopId: '12345678', password: 'secret' })).toThrow('testpassword_');
    const created = await fetch(`${sim.url}/__simulator/accounts`, {
      method: 'POST',
      body: JSON.stringify({ shop_id: '22223333', password: 'prodpassword_LiveShopPassword1' }),
    });
    expect(created.status).toBe(201);
    const reply = await ws(
      'Order/Get',
      { orderId: 'none' },
      { shop: { shopId: '22223333', password: 'prodpassword_LiveShopPassword1' } },
    );
    expect(reply.mode).toBe('PRODUCTION');
  });
});

describe('Charge/CreatePayment with card data (research §2.2, §10, §11)', () => {
  it('authorizes a documented card: V4/Payment PAID, AUTHORISED, integer amount, masked card only', async () => {
    const reply = await ws('Charge/CreatePayment', payment(VISA_OK, { customer: { email: 'ana@example.pe' } }));
    expect(reply.status).toBe('SUCCESS');
    expect(reply.answer).toMatchObject({
      _type: 'V4/Payment',
      orderStatus: 'PAID',
      orderDetails: { orderTotalAmount: 15000, orderCurrency: 'PEN', mode: 'TEST' },
    });
    const transaction = reply.answer.transactions![0]!;
    expect(transaction).toMatchObject({
      amount: 15000,
      status: 'PAID',
      detailedStatus: 'AUTHORISED',
      operationType: 'DEBIT',
      transactionDetails: {
        cardDetails: {
          pan: '497010XXXXXX0055',
          manualValidation: 'NO',
          authorizationResponse: { authorizationNumber: expect.stringMatching(/^\d{6}$/) as string },
        },
      },
    });
    expect(transaction.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(reply)).not.toContain(VISA_OK);
    // Remitted at Izipay's batch (here at once): read again, it is CAPTURED.
    expect((await ws('Transaction/Get', { uuid: transaction.uuid })).answer.detailedStatus).toBe('CAPTURED');
  });

  it('takes the amount as an integer or digit string, never a decimal', async () => {
    expect((await ws('Charge/CreatePayment', payment(VISA_OK, { amount: '990' }))).status).toBe('SUCCESS');
    for (const amount of [150.5, '150.50', 0, -1, null]) {
      expect((await ws('Charge/CreatePayment', payment(VISA_OK, { amount }))).answer.errorCode).toBe('INT_009');
    }
  });

  it('refuses inputs as Izipay does', async () => {
    const error = async (body: unknown) => (await ws('Charge/CreatePayment', body)).answer.errorCode as string;
    expect(await error(payment(VISA_OK, { currency: 'EUR' }))).toBe('INT_010');
    expect(await error(payment(VISA_OK, { orderId: 'pedido-ñ' }))).toBe('INT_013');
    expect(await error(payment(VISA_OK, { ipnTargetUrl: 'ftp://shop' }))).toBe('INT_014');
    expect(await error(payment(VISA_OK, { customer: { email: 'not-an-email' } }))).toBe('INT_015');
    expect(await error(payment(VISA_OK, { transactionOptions: { cardOptions: { manualValidation: 'MAYBE' } } }))).toBe('INT_005');
    expect(await error(payment(VISA_OK, { captureNow: true }))).toBe('INT_900');
    expect(await error(payment('4970100000000056'))).toBe('INT_040');
    expect(await error(payment(VISA_OK, {}, { expiryMonth: '13' }))).toBe('INT_041');
    expect(await error(payment(VISA_OK, {}, { expiryYear: '2030' }))).toBe('INT_042');
    expect(await error(payment(VISA_OK, {}, { expiryMonth: '01', expiryYear: '20' }))).toBe('INT_045');
    expect(await error(payment(VISA_OK, {}, { securityCode: '12' }))).toBe('INT_043');
    expect(await error(payment(AMEX_FRICTIONLESS, {}, { securityCode: '123' }))).toBe('INT_043');
    expect((await ws('Charge/CreatePayment', payment(AMEX_FRICTIONLESS, {}, { securityCode: '1234' }))).status).toBe('SUCCESS');
  });

  it.each([
    ['4003331978380689', '51'],
    ['5102546179105000', '41'],
    ['4008069640361357', '54'],
    ['5114803122406407', '61'],
    ['4019138210019096', '14'],
    ['5112929646850374', '63'],
  ])('refuses the sandbox decline card %s: UNPAID, REFUSED, ACQ_001 with detailedErrorCode %s', async (pan, code) => {
    const reply = await ws('Charge/CreatePayment', payment(pan));
    expect(reply.status).toBe('SUCCESS');
    expect(reply.answer.orderStatus).toBe('UNPAID');
    expect(reply.answer.transactions![0]!).toMatchObject({
      status: 'UNPAID',
      detailedStatus: 'REFUSED',
      errorCode: 'ACQ_001',
      detailedErrorCode: code,
    });
  });

  it('refuses a card outside the documented list (assumption 3) and a 3DS2 rejection', async () => {
    expect((await ws('Charge/CreatePayment', payment('4111111111111111'))).answer.transactions![0]!).toMatchObject({
      detailedStatus: 'REFUSED',
      errorCode: 'PSP_003',
    });
    expect((await ws('Charge/CreatePayment', payment('4970110000000401'))).answer.transactions![0]!).toMatchObject({
      detailedStatus: 'REFUSED',
      errorCode: 'PSP_707',
    });
  });

  it('asks for the payer on a 3-D Secure challenge card (RedirectRequest), making no transaction', async () => {
    const body = payment('4970110000001003');
    const reply = await ws('Charge/CreatePayment', body);
    expect(reply.answer).toMatchObject({
      _type: 'V4/Charge/RedirectRequest',
      redirectUrl: expect.stringMatching(/^https:\/\/api\.micuentaweb\.pe\//) as string,
    });
    expect((await ws('Order/Get', { orderId: body.orderId })).answer.errorCode).toBe('PSP_010');
  });

  it('keeps orders to their shop', async () => {
    const transaction = await paid();
    expect((await ws('Transaction/Get', { uuid: transaction.uuid }, { shop: OTHER })).answer.errorCode).toBe('PSP_010');
  });
});

describe('saved cards: REGISTER_PAY, SILENT, Charge/CreateToken, Token/Cancel (Lyra tokens)', () => {
  type Registered = Answer & {
    paymentMethodToken?: string | null;
    transactionDetails?: {
      creationContext?: string;
      cardDetails: { initialIssuerTransactionIdentifier?: string | null; paymentMethodSource?: string };
    };
  };
  const first = (reply: Envelope) => (reply.answer.transactions?.[0] ?? {}) as Registered;

  it('registers the card of an approved REGISTER_PAY payment and charges its token SILENT, as often as asked', async () => {
    const registered = first(await ws('Charge/CreatePayment', payment('4970100000000055', { formAction: 'REGISTER_PAY' })));
    expect(registered.detailedStatus).toBe('AUTHORISED');
    expect(registered.paymentMethodToken).toMatch(/^[0-9a-f]{32}$/);
    const iti = registered.transactionDetails!.cardDetails.initialIssuerTransactionIdentifier;
    expect(iti).toMatch(/^\d{16}$/);
    for (const _ of [1, 2]) {
      const { paymentForms: _forms, ...withoutCard } = payment('4970100000000055');
      const silent = await ws('Charge/CreatePayment', {
        ...withoutCard,
        formAction: 'SILENT',
        paymentMethodToken: registered.paymentMethodToken,
        transactionOptions: { cardOptions: { initialIssuerTransactionIdentifier: iti } },
      });
      expect(silent.status).toBe('SUCCESS');
      expect(first(silent)).toMatchObject({ detailedStatus: 'AUTHORISED', paymentMethodToken: registered.paymentMethodToken });
      expect(first(silent).transactionDetails!.cardDetails.paymentMethodSource).toBe('TOKEN');
    }
  });

  it('registers nothing for a plain payment nor a refused one, and refuses a token sent with a card or not SILENT', async () => {
    expect(first(await ws('Charge/CreatePayment', payment('4970100000000055'))).paymentMethodToken).toBeNull();
    const refused = first(await ws('Charge/CreatePayment', payment('5103225852930567', { formAction: 'REGISTER_PAY' })));
    expect(refused.detailedStatus).toBe('REFUSED');
    expect(refused.paymentMethodToken).toBeNull();
    const token = first(
      await ws('Charge/CreatePayment', payment('4970100000000055', { formAction: 'REGISTER_PAY' })),
    ).paymentMethodToken;
    expect(
      (await ws('Charge/CreatePayment', payment('4970100000000055', { formAction: 'SILENT', paymentMethodToken: token }))).answer
        .errorCode,
    ).toBe('INT_902');
  });

  it("takes a card without its security code only with the first approval's issuer id (an MIT)", async () => {
    const withoutCode = payment('4970100000000055', {}, { securityCode: undefined });
    expect((await ws('Charge/CreatePayment', withoutCode)).answer.errorCode).toBe('INT_043');
    const mit = await ws('Charge/CreatePayment', {
      ...withoutCode,
      transactionOptions: { cardOptions: { initialIssuerTransactionIdentifier: '4575676657929351' } },
    });
    expect(first(mit).detailedStatus).toBe('AUTHORISED');
  });

  it('verifies a card for no amount with Charge/CreateToken, registering it, and refuses or challenges as a payment would', async () => {
    const { amount: _amount, ...body } = payment('4970100000000055');
    const verified = first(await ws('Charge/CreateToken', body));
    expect(verified).toMatchObject({ amount: 0, detailedStatus: 'ACCEPTED' });
    expect(verified.transactionDetails!.creationContext).toBe('VERIFICATION');
    expect(verified.paymentMethodToken).toMatch(/^[0-9a-f]{32}$/);
    const { amount: _a, ...declining } = payment('5103225852930567');
    expect(first(await ws('Charge/CreateToken', declining))).toMatchObject({
      detailedStatus: 'REFUSED',
      paymentMethodToken: null,
    });
    const { amount: _b, ...challenging } = payment('4970100000000022');
    expect((await ws('Charge/CreateToken', challenging)).answer._type).toBe('V4/Charge/RedirectRequest');
  });

  it('cancels a token: SUCCESS once, then INT_030, and a SILENT payment of it is refused', async () => {
    const token = first(
      await ws('Charge/CreatePayment', payment('4970100000000055', { formAction: 'REGISTER_PAY' })),
    ).paymentMethodToken;
    const cancelled = await ws('Token/Cancel', { paymentMethodToken: token });
    expect(cancelled).toMatchObject({ status: 'SUCCESS', answer: { responseCode: 0, _type: 'V4/Common/ResponseCodeAnswer' } });
    expect((await ws('Token/Cancel', { paymentMethodToken: token })).answer.errorCode).toBe('INT_030');
    const { paymentForms: _forms, ...withoutCard } = payment('4970100000000055');
    expect(
      (await ws('Charge/CreatePayment', { ...withoutCard, formAction: 'SILENT', paymentMethodToken: token })).answer.errorCode,
    ).toBe('INT_030');
  });
});

describe('capture later, cancel, refund (research §3.1, §4.1, §5.1)', () => {
  const manual = { transactionOptions: { cardOptions: { manualValidation: 'YES' } } };

  it('holds a manual-validation authorization, lowers it, validates it once', async () => {
    const transaction = await paid(manual);
    expect(transaction.detailedStatus).toBe('AUTHORISED_TO_VALIDATE');
    const { uuid } = transaction;
    expect((await ws('Transaction/Update', { uuid, cardUpdate: { amount: 15001, currency: 'PEN' } })).answer.errorCode).toBe(
      'PSP_546',
    );
    expect((await ws('Transaction/Update', { uuid, cardUpdate: { amount: 9000, currency: 'USD' } })).answer.errorCode).toBe(
      'PSP_545',
    );
    expect((await ws('Transaction/Update', { uuid, cardUpdate: { amount: 9000, currency: 'PEN' } })).answer).toMatchObject({
      amount: 9000,
    });
    expect((await ws('Transaction/Validate', { uuid })).answer).toMatchObject({ detailedStatus: 'AUTHORISED', amount: 9000 });
    expect((await ws('Transaction/Validate', { uuid })).answer.errorCode).toBe('PSP_011');
    expect((await ws('Transaction/Update', { uuid, cardUpdate: { amount: 100 } })).answer.errorCode).toBe('PSP_011');
  });

  it('cancels what is not remitted, never partly; refuses a refund before remittance (PSP_076)', async () => {
    const { uuid } = await paid({}, later);
    const call = (name: string, body: unknown) => ws(name, body, { simulator: later });
    expect(
      (await call('Transaction/CancelOrRefund', { uuid, resolutionMode: 'REFUND_ONLY', amount: 100 })).answer.errorCode,
    ).toBe('PSP_076');
    expect(
      (await call('Transaction/CancelOrRefund', { uuid, resolutionMode: 'CANCELLATION_ONLY', amount: 100 })).answer.errorCode,
    ).toBe('PSP_103');
    expect((await call('Transaction/CancelOrRefund', { uuid, resolutionMode: 'CANCELLATION_ONLY' })).answer).toMatchObject({
      status: 'UNPAID',
      detailedStatus: 'CANCELLED',
    });
    expect((await call('Transaction/CancelOrRefund', { uuid, resolutionMode: 'CANCELLATION_ONLY' })).answer.errorCode).toBe(
      'PSP_105',
    );
    expect((await call('Transaction/Validate', { uuid })).answer.errorCode).toBe('PSP_011');
    const other = await paid({}, later);
    expect((await call('Transaction/Cancel', { uuid: other.uuid })).answer.detailedStatus).toBe('CANCELLED');
  });

  it('refunds a remitted payment in parts as CREDIT transactions, never past its amount', async () => {
    const { uuid } = await paid();
    expect((await ws('Transaction/CancelOrRefund', { uuid, resolutionMode: 'CANCELLATION_ONLY' })).answer.errorCode).toBe(
      'PSP_075',
    );
    const first = await ws('Transaction/CancelOrRefund', { uuid, amount: 5000, currency: 'PEN', resolutionMode: 'REFUND_ONLY' });
    expect(first.answer).toMatchObject({
      operationType: 'CREDIT',
      amount: 5000,
      status: 'PAID',
      transactionDetails: { parentTransactionUuid: uuid },
    });
    expect(
      (await ws('Transaction/CancelOrRefund', { uuid, amount: 15001, resolutionMode: 'REFUND_ONLY' })).answer.errorCode,
    ).toBe('PSP_510');
    expect(
      (await ws('Transaction/CancelOrRefund', { uuid, amount: 10001, resolutionMode: 'REFUND_ONLY' })).answer.errorCode,
    ).toBe('PSP_511');
    expect((await ws('Transaction/CancelOrRefund', { uuid, amount: 10000, resolutionMode: 'REFUND_ONLY' })).status).toBe(
      'SUCCESS',
    );
    expect((await ws('Transaction/CancelOrRefund', { uuid, amount: 1, resolutionMode: 'REFUND_ONLY' })).answer.errorCode).toBe(
      'PSP_104',
    );
    const debit = (await ws('Transaction/Get', { uuid })).answer;
    expect(debit.transactionDetails!.cardDetails.captureResponse.refundAmount).toBe(15000);
  });

  it('lists an order’s payment and refunds with Order/Get, filtered by operationType', async () => {
    const body = payment(VISA_OK);
    const created = await ws('Charge/CreatePayment', body);
    const uuid = created.answer.transactions![0]!.uuid!;
    await ws('Transaction/CancelOrRefund', { uuid, amount: 2500, resolutionMode: 'REFUND_ONLY' });
    const all = (await ws('Order/Get', { orderId: body.orderId })).answer.transactions!;
    expect(all.map((each) => each.operationType)).toEqual(['DEBIT', 'CREDIT']);
    const debits = (await ws('Order/Get', { orderId: body.orderId, operationType: 'DEBIT' })).answer.transactions;
    expect(debits).toHaveLength(1);
    expect((await ws('Transaction/CancelOrRefund', { uuid: 'f'.repeat(32) })).answer.errorCode).toBe('PSP_010');
  });
});

describe('IPN (research §7.1)', () => {
  /** The receiver's check, written from the IPN page ([MCW-ipn]), not from the simulator's code. */
  function verified(body: string, password: string): boolean {
    const form = new URLSearchParams(body);
    const expected = createHmac('sha256', password)
      .update(form.get('kr-answer') ?? '')
      .digest();
    const given = Buffer.from(form.get('kr-hash') ?? '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  it('signs as Lyra’s published IPN is signed', () => {
    expect(krHash(LYRA_DEMO_SHOP.password, LYRA_SIMULATED_IPN_ANSWER)).toBe(LYRA_SIMULATED_IPN_HASH);
  });

  it('sends no IPN for a web-service payment, but sends one when asked, to ipnTargetUrl, form-encoded and signed', async () => {
    received.length = 0;
    const transaction = await paid({ ipnTargetUrl: receiverUrl });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual([]);
    const deliveries = await sim.sendIpn(transaction.uuid);
    expect(deliveries).toMatchObject([{ attempt: 1, status: 200, url: receiverUrl, replay: false }]);
    expect(received[0]!.contentType).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(received[0]!.body);
    expect(form.get('kr-hash-algorithm')).toBe('sha256_hmac');
    expect(form.get('kr-hash-key')).toBe('password');
    expect(form.get('kr-answer-type')).toBe('V4/Payment');
    expect(JSON.parse(form.get('kr-answer')!)).toMatchObject({ shopId: SHOP.shopId, transactions: [{ uuid: transaction.uuid }] });
    expect(verified(received[0]!.body, SHOP.password)).toBe(true);
    expect(verified(received[0]!.body, OTHER.password)).toBe(false);
    expect(received[0]!.body).toBe(ipnBody(SHOP.password, form.get('kr-answer')!));
  });

  it('retries an IPN its receiver did not take, and replays one byte for byte', async () => {
    received.length = 0;
    receiverStatus = 500;
    const transaction = await paid({ ipnTargetUrl: receiverUrl });
    const deliveries = await sim.sendIpn(transaction.uuid);
    receiverStatus = 200;
    expect(deliveries.map((each) => each.status)).toEqual([500, 500, 500]);
    const replay = await fetch(`${sim.url}/__simulator/ipns/${deliveries[0]!.ipn_id}/replay`, { method: 'POST' });
    expect(await replay.json()).toMatchObject({ status: 200, replay: true, attempt: 4 });
    expect(new Set(received.map((each) => each.body)).size).toBe(1);
    const log = (await (await fetch(`${sim.url}/__simulator/ipns`)).json()) as unknown[];
    expect(log.length).toBeGreaterThanOrEqual(4);
  });

  it('sends through the control API to the shop’s Back Office URL when the payment named none', async () => {
    sim.addAccount({ ...SHOP, ipnUrl: receiverUrl });
    received.length = 0;
    const transaction = await paid();
    const answer = await fetch(`${sim.url}/__simulator/transactions/${transaction.uuid}/ipn`, { method: 'POST' });
    expect(answer.status).toBe(200);
    expect(received).toHaveLength(1);
    sim.addAccount(SHOP);
    const none = await paid();
    expect((await fetch(`${sim.url}/__simulator/transactions/${none.uuid}/ipn`, { method: 'POST' })).status).toBe(409);
  });
});

describe('modes and the request log (tests/simulators/README.md)', () => {
  it('keeps whole requests: host, path, headers, body; the shop id as the credential', async () => {
    const from = sim.requests.length;
    await paid();
    const [request] = sim.requests.slice(from);
    expect(request).toMatchObject({
      host: 'api',
      method: 'POST',
      path: '/api-payment/V4/Charge/CreatePayment',
      credential: SHOP.shopId,
    });
    expect(request!.headers.authorization).toMatch(/^Basic /);
    expect(JSON.parse(request!.body)).toMatchObject({ amount: 15000 });
  });

  it('drops, delays or fails one shop’s requests by its mode', async () => {
    sim.setMode('outage', { key: OTHER.shopId });
    await expect(ws('Order/Get', { orderId: 'x' }, { shop: OTHER })).rejects.toThrow();
    expect((await ws('Order/Get', { orderId: 'x' })).answer.errorCode).toBe('PSP_010');
    sim.setMode('errors', { key: OTHER.shopId });
    const failed = await fetch(`${sim.url}/api-payment/V4/Order/Get`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${OTHER.shopId}:${OTHER.password}`).toString('base64')}` },
      body: '{}',
    });
    expect(failed.status).toBe(500);
    sim.setMode('rate_limited', { key: OTHER.shopId });
    expect((await ws('Order/Get', { orderId: 'x' }, { shop: OTHER })).answer.errorCode).toBe('PSP_106');
    sim.setMode('slow', { key: OTHER.shopId, delayMs: 150 });
    const started = Date.now();
    await ws('Order/Get', { orderId: 'x' }, { shop: OTHER });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    sim.setMode('normal', { key: OTHER.shopId });
  });
});
