import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMercadoPagoSimulator, type MercadoPagoSimulator } from './mercadopago-simulator';

// The simulator over HTTP with plain fetch, as the connector will see it.

const ACCESS_TOKEN = 'APP_USR-1234567890123456-112521-0123456789abcdef0123456789abcdef-123456789';
const PUBLIC_KEY = 'APP_USR-0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SECRET = 'b5c1f0a2e9d84f7c9a3e6b1d2c4f8a07';
const OTHER_TOKEN = 'TEST-6543210987654321-112521-fedcba9876543210fedcba9876543210-987654321';
const OTHER_PUBLIC_KEY = 'TEST-ffffffff-eeee-4ddd-8ccc-bbbbbbbbbbbb';

const VISA = '4009175332806176';
const MASTER = '5031755734530604';
const AMEX = '371180303257522';
const DEBIT_MASTER = '5178781622202455';

type Reply = { status: number; body: Record<string, unknown>; headers: Headers; text: string };
type Call = { token?: string | null; body?: unknown; key?: string | null; query?: string };

let sim: MercadoPagoSimulator;
let receiver: Server;
let receiverUrl: string;
type Received = { url: string; headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
let receiverFailures = 0;

async function api(method: string, path: string, call: Call = {}): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = call.token === undefined ? ACCESS_TOKEN : call.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const key = call.key === undefined && method === 'POST' ? randomUUID() : call.key;
  if (key) headers['x-idempotency-key'] = key;
  const response = await fetch(`${sim.url}${path}${call.query ?? ''}`, {
    method,
    headers,
    ...(call.body === undefined ? {} : { body: typeof call.body === 'string' ? call.body : JSON.stringify(call.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    headers: response.headers,
    text,
  };
}

async function cardToken(name: string, card: { number?: string; cvv?: string; token?: string } = {}): Promise<string> {
  const reply = await api('POST', '/v1/card_tokens', {
    token: card.token ?? ACCESS_TOKEN,
    body: {
      card_number: card.number ?? VISA,
      expiration_month: 11,
      expiration_year: 2030,
      security_code: card.cvv ?? '123',
      cardholder: { name, identification: { type: 'DNI', number: '12345678' } },
    },
  });
  expect(reply.status).toBe(201);
  return reply.body.id as string;
}

function paymentBody(token: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_amount: 150.5,
    token,
    description: 'Order 1234',
    installments: 1,
    payment_method_id: 'visa',
    payer: { email: 'buyer@example.com', identification: { type: 'DNI', number: '12345678' } },
    ...extra,
  };
}

async function pay(name: string, extra: Record<string, unknown> = {}, number = VISA): Promise<Reply> {
  return api('POST', '/v1/payments', { body: paymentBody(await cardToken(name, { number }), extra) });
}

async function yapeToken(phoneNumber: string, publicKey = PUBLIC_KEY): Promise<Reply> {
  return api('POST', '/platforms/pci/yape/v1/payment', {
    token: null,
    query: `?public_key=${publicKey}`,
    body: { phoneNumber, otp: '123456', requestId: randomUUID() },
  });
}

function causeCode(reply: Reply): unknown {
  return (reply.body.cause as { code: unknown }[])[0]?.code;
}

/** The receiver's check, written from the Webhooks page, not from the simulator's code. */
function signatureValid(secret: string, delivery: Received): boolean {
  const dataId = new URL(delivery.url, 'http://receiver').searchParams.get('data.id');
  const requestId = delivery.headers['x-request-id'];
  const signature = delivery.headers['x-signature'];
  if (typeof signature !== 'string' || typeof requestId !== 'string' || dataId === null) return false;
  const parts = Object.fromEntries(signature.split(',').map((part) => part.trim().split('=') as [string, string]));
  const manifest = `id:${dataId};request-id:${requestId};ts:${parts.ts};`;
  const expected = Buffer.from(createHmac('sha256', secret).update(manifest).digest('hex'));
  const given = Buffer.from(parts.v1 ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

beforeAll(async () => {
  sim = await startMercadoPagoSimulator();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (receiverFailures > 0) {
        receiverFailures -= 1;
        response.writeHead(500).end();
      } else response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/mercadopago`;
  const registered = await fetch(`${sim.url}/__simulator/accounts`, {
    method: 'POST',
    body: JSON.stringify({ access_token: ACCESS_TOKEN, public_key: PUBLIC_KEY, webhook_secret: SECRET }),
  });
  expect(registered.status).toBe(201);
  sim.addAccount({ accessToken: OTHER_TOKEN, publicKey: OTHER_PUBLIC_KEY, userId: 555 });
});

afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(async () => {
  await fetch(`${sim.url}/__simulator/reset`, { method: 'POST' });
  received.length = 0;
  receiverFailures = 0;
});

describe('control API', () => {
  it('registers accounts (upsert by access token) and refuses malformed credentials', async () => {
    const post = (body: unknown) => fetch(`${sim.url}/__simulator/accounts`, { method: 'POST', body: JSON.stringify(body) });
    const created = await post({ access_token: ACCESS_TOKEN, public_key: PUBLIC_KEY, webhook_secret: SECRET });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ access_token: ACCESS_TOKEN, public_key: PUBLIC_KEY, user_id: 123456789 });
    expect((await post({ access_token: 'sk_test_nope', public_key: PUBLIC_KEY })).status).toBe(400);
    expect((await post({ access_token: ACCESS_TOKEN, public_key: 'pk_test' })).status).toBe(400);
    expect(() => sim.addAccount({ accessToken: 'APP_USR-1', publicKey: PUBLIC_KEY })).toThrow();
  });

  it('logs whole requests, lists payments without card data, and reset keeps the accounts', async () => {
    const key = randomUUID();
    const reply = await api('POST', '/v1/payments', { body: paymentBody(await cardToken('APRO')), key });
    expect(reply.status).toBe(201);
    const log = (await (await fetch(`${sim.url}/__simulator/requests`)).json()) as Record<string, unknown>[];
    expect(log.at(-1)).toMatchObject({ method: 'POST', path: '/v1/payments', credential: 'APP_USR-1234', idempotencyKey: key });
    expect((log.at(-1) as { body: string }).body).toContain('"transaction_amount"');
    // The card number is in the card token's request, and in no other.
    expect(log.filter((each) => JSON.stringify(each).includes(VISA)).map((each) => each.path)).toEqual(['/v1/card_tokens']);
    const listed = JSON.stringify(sim.payments());
    expect(listed).toContain('"last_four_digits":"6176"');
    expect(listed).not.toContain(VISA);
    await fetch(`${sim.url}/__simulator/reset`, { method: 'POST' });
    expect(sim.payments()).toHaveLength(0);
    expect((await api('GET', `/v1/payments/${String(reply.body.id)}`)).status).toBe(404);
    expect((await api('GET', '/v1/payment_methods')).status).toBe(200);
  });
});

describe('authentication and catalogue', () => {
  it('answers 401 to an unknown or missing access token', async () => {
    const unknown = await api('GET', '/v1/payments/search', { token: OTHER_TOKEN.replace('TEST', 'APP_USR') });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'invalid access token', error: 'unauthorized', status: 401, cause: [] });
    const missing = await api('GET', '/v1/payments/search', { token: null });
    expect(missing.status).toBe(401);
    expect(causeCode(missing)).toBe(5);
    const badKey = await api('POST', '/v1/card_tokens', {
      token: null,
      query: '?public_key=APP_USR-00000000-0000-0000-0000-000000000000',
      body: {},
    });
    expect(badKey.status).toBe(400);
    expect(causeCode(badKey)).toBe(1001);
  });

  it('lists Peru payment methods', async () => {
    const reply = await api('GET', '/v1/payment_methods');
    expect(reply.status).toBe(200);
    const methods = reply.body as unknown as { id: string; payment_type_id: string; deferred_capture: string }[];
    expect(methods.map((method) => method.id)).toEqual(['visa', 'master', 'amex', 'diners', 'debvisa', 'debmaster', 'yape']);
    expect(methods.find((method) => method.id === 'yape')).toMatchObject({
      payment_type_id: 'debit_card',
      deferred_capture: 'unsupported',
    });
  });
});

describe('card tokens', () => {
  it('tokenizes with the access token or the public key and shows only first six and last four', async () => {
    const reply = await api('POST', '/v1/card_tokens', {
      body: {
        card_number: VISA,
        expiration_month: 11,
        expiration_year: 2030,
        security_code: '123',
        cardholder: { name: 'APRO' },
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      first_six_digits: '400917',
      last_four_digits: '6176',
      status: 'active',
      live_mode: false,
      luhn_validation: true,
      card_number_length: 16,
      security_code_length: 3,
      expiration_month: 11,
      expiration_year: 2030,
      public_key: null,
      cardholder: { name: 'APRO', identification: { type: null, number: null } },
    });
    expect(reply.body.id).toMatch(/^[0-9a-f]{32}$/);
    const due = Date.parse(reply.body.date_due as string) - Date.parse(reply.body.date_created as string);
    expect(due).toBe(7 * 86_400_000);
    expect(reply.body.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-04:00$/);
    expect(reply.text).not.toContain(VISA);
    expect(reply.text).not.toContain('"123"');

    const browser = await api('POST', '/v1/card_tokens', {
      token: null,
      query: `?public_key=${PUBLIC_KEY}`,
      body: {
        card_number: AMEX,
        expiration_month: '11',
        expiration_year: '2030',
        security_code: '1234',
        cardholder: { name: 'APRO' },
      },
    });
    expect(browser.status).toBe(201);
    expect(browser.body).toMatchObject({ public_key: PUBLIC_KEY, first_six_digits: '371180', security_code_length: 4 });
  });

  it('refuses invalid card data with the documented causes', async () => {
    const base = {
      card_number: VISA,
      expiration_month: 11,
      expiration_year: 2030,
      security_code: '123',
      cardholder: { name: 'APRO' },
    };
    const cases: [Record<string, unknown>, number][] = [
      [{ card_number: '4009175332806177' }, 3016],
      [{ card_number: '40091753328061' }, 3015],
      [{ expiration_month: 13 }, 3029],
      [{ expiration_month: undefined }, 3018],
      [{ expiration_year: 'next' }, 3030],
      [{ expiration_year: 2020 }, 7523],
      [{ security_code: '12' }, 3032],
      [{ card_number: AMEX, security_code: '123' }, 3032],
      [{ security_code: undefined }, 3013],
      [{ cardholder: {} }, 3020],
    ];
    for (const [change, code] of cases) {
      const reply = await api('POST', '/v1/card_tokens', { body: { ...base, ...change } });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body).toMatchObject({ error: 'bad_request', status: 400 });
      expect(causeCode(reply), JSON.stringify(change)).toBe(code);
    }
  });
});

describe('card payments', () => {
  it('approves APRO with the full payment object, and GET answers the same', async () => {
    const reply = await pay('APRO', {
      external_reference: 'ord_1',
      metadata: { order_id: 'ord_1' },
      statement_descriptor: 'MYSHOP',
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      status: 'approved',
      status_detail: 'accredited',
      currency_id: 'PEN',
      transaction_amount: 150.5,
      transaction_amount_refunded: 0,
      payment_method_id: 'visa',
      payment_type_id: 'credit_card',
      installments: 1,
      captured: true,
      binary_mode: false,
      live_mode: false,
      external_reference: 'ord_1',
      metadata: { order_id: 'ord_1' },
      refunds: [],
      collector_id: 123456789,
      payer: { email: 'buyer@example.com', identification: { type: 'DNI', number: '12345678' } },
      card: {
        first_six_digits: '400917',
        last_four_digits: '6176',
        expiration_month: 11,
        expiration_year: 2030,
        cardholder: { name: 'APRO' },
      },
    });
    expect(typeof reply.body.id).toBe('number');
    expect(reply.body.authorization_code).toMatch(/^\d{6}$/);
    expect(reply.body.date_approved).toMatch(/-04:00$/);
    const fetched = await api('GET', `/v1/payments/${String(reply.body.id)}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(reply.body);
    const foreign = await api('GET', `/v1/payments/${String(reply.body.id)}`, { token: OTHER_TOKEN });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ message: 'Payment not found', error: 'not_found', status: 404 });
    expect(causeCode(foreign)).toBe(2000);
  });

  it('declines each test cardholder name with its status_detail, as a stored payment', async () => {
    const declines: Record<string, string> = {
      OTHE: 'cc_rejected_other_reason',
      CALL: 'cc_rejected_call_for_authorize',
      FUND: 'cc_rejected_insufficient_amount',
      SECU: 'cc_rejected_bad_filled_security_code',
      EXPI: 'cc_rejected_bad_filled_date',
      FORM: 'cc_rejected_bad_filled_other',
      CARD: 'cc_rejected_bad_filled_card_number',
      INST: 'cc_rejected_invalid_installments',
      DUPL: 'cc_rejected_duplicated_payment',
      LOCK: 'cc_rejected_card_disabled',
      CTNA: 'cc_rejected_card_type_not_allowed',
      ATTE: 'cc_rejected_max_attempts',
      BLAC: 'cc_rejected_blacklist',
      UNSU: 'cc_unsupported_unsupported',
    };
    for (const [name, detail] of Object.entries(declines)) {
      const reply = await pay(name);
      expect(reply.status, name).toBe(201);
      expect(reply.body, name).toMatchObject({ status: 'rejected', status_detail: detail, authorization_code: null });
      // The payer's e-mail is only shown for approved, refunded or charged back payments.
      expect((reply.body.payer as Record<string, unknown>).email).toBeNull();
      expect((await api('GET', `/v1/payments/${String(reply.body.id)}`)).status).toBe(200);
    }
    expect((await pay('Juan Perez')).body.status).toBe('approved');
  });

  it('leaves CONT in process, or rejects it in binary mode', async () => {
    expect((await pay('CONT')).body).toMatchObject({ status: 'in_process', status_detail: 'pending_contingency' });
    expect((await pay('CONT', { binary_mode: true })).body).toMatchObject({
      status: 'rejected',
      status_detail: 'cc_rejected_other_reason',
      binary_mode: true,
    });
  });

  it('authorizes without capture and captures with PUT, partially when asked', async () => {
    const reply = await pay('APRO', { capture: false, payment_method_id: 'master' }, MASTER);
    expect(reply.body).toMatchObject({
      status: 'authorized',
      status_detail: 'pending_capture',
      captured: false,
      date_approved: null,
    });
    expect(reply.body.authorization_code).toMatch(/^\d{6}$/);
    const tooMuch = await api('PUT', `/v1/payments/${String(reply.body.id)}`, {
      body: { capture: true, transaction_amount: 200 },
    });
    expect(tooMuch.status).toBe(400);
    const captured = await api('PUT', `/v1/payments/${String(reply.body.id)}`, {
      body: { capture: true, transaction_amount: 100 },
    });
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({
      status: 'approved',
      status_detail: 'accredited',
      captured: true,
      transaction_amount: 100,
    });
    const again = await api('PUT', `/v1/payments/${String(reply.body.id)}`, { body: { capture: true } });
    expect(causeCode(again)).toBe(2018);
  });

  it('validates the body with the documented causes', async () => {
    const token = await cardToken('APRO');
    const cases: [Record<string, unknown>, number][] = [
      [{ payment_type_id: 'credit_card' }, 8],
      [{ transaction_amount: undefined }, 4002],
      [{ transaction_amount: '150.50' }, 4003],
      [{ transaction_amount: 10.001 }, 4037],
      [{ transaction_amount: -1 }, 4037],
      [{ installments: undefined }, 4004],
      [{ installments: '1' }, 4005],
      [{ installments: 0 }, 4033],
      [{ token: undefined }, 4000],
      [{ token: 'ff8080814c11e237014c1ff593b57b4d' }, 2006],
      [{ payer: { email: 'not-an-email' } }, 4050],
      [{ payer: 'buyer@example.com' }, 4006],
      [{ payment_method_id: 'master' }, 3028],
      [{ payment_method_id: 'yape' }, 3028],
      [{ notification_url: 'not a url' }, 4020],
      // Mercado Pago takes only https URLs of hosts it can reach (research §4.1, §6).
      [{ notification_url: 'http://shop.example/webhooks/mercadopago' }, 4020],
      [{ notification_url: 'https://localhost/webhooks/mercadopago' }, 4020],
      [{ notification_url: 'https://127.0.0.1:3000/webhooks/mercadopago' }, 4020],
      [{ notification_url: 'https://192.168.1.10/webhooks/mercadopago' }, 4020],
      [{ notification_url: 'https://10.0.0.5/webhooks/mercadopago' }, 4020],
      [{ notification_url: 'https://[::1]/webhooks/mercadopago' }, 4020],
      [{ notification_url: `https://shop.example/${'x'.repeat(500)}` }, 4021],
      [{ metadata: 'order' }, 4022],
      [{ capture: 'no' }, 2078],
      [{ date_of_expiration: 'tomorrow' }, 23],
    ];
    for (const [change, code] of cases) {
      const reply = await api('POST', '/v1/payments', { body: paymentBody(token, change) });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(causeCode(reply), JSON.stringify(change)).toBe(code);
    }
    const wrongName = await api('POST', '/v1/payments', { body: paymentBody(token, { payer_email: 'x@y.z' }) });
    expect(wrongName.body.message).toBe('The name of the following parameters is wrong : [payer_email]');
    // None of those used the token; without payment_method_id the brand is inferred from the BIN.
    const inferred = await api('POST', '/v1/payments', { body: paymentBody(token, { payment_method_id: undefined }) });
    expect(inferred.body).toMatchObject({ status: 'approved', payment_method_id: 'visa' });
    const reused = await api('POST', '/v1/payments', { body: paymentBody(token) });
    expect(causeCode(reused)).toBe(3003);
    const foreign = await api('POST', '/v1/payments', { token: OTHER_TOKEN, body: paymentBody(await cardToken('APRO')) });
    expect(causeCode(foreign)).toBe(2006);
    const debit = await api('POST', '/v1/payments', {
      body: paymentBody(await cardToken('APRO', { number: DEBIT_MASTER }), { payment_method_id: 'debmaster', installments: 3 }),
    });
    expect(causeCode(debit)).toBe(4033);
    const debitOk = await api('POST', '/v1/payments', {
      body: paymentBody(await cardToken('APRO', { number: DEBIT_MASTER }), { payment_method_id: 'debmaster' }),
    });
    expect(debitOk.body).toMatchObject({ status: 'approved', payment_type_id: 'debit_card' });
  });
});

describe('customers and saved cards', () => {
  async function customerWithCard(email = `buyer-${randomUUID()}@example.com`) {
    const customer = await api('POST', '/v1/customers', { body: { email, first_name: 'Ana' } });
    expect(customer.status).toBe(201);
    const id = customer.body.id as string;
    const card = await api('POST', `/v1/customers/${id}/cards`, { body: { token: await cardToken('APRO') } });
    expect(card.status).toBe(201);
    return { customerId: id, cardId: card.body.id as string, email };
  }

  it('keeps one customer per email: a second is 101, the search finds the first', async () => {
    const { customerId, email } = await customerWithCard();
    const again = await api('POST', '/v1/customers', { body: { email } });
    expect(again.status).toBe(400);
    expect(causeCode(again)).toBe(101);
    const found = await api('GET', '/v1/customers/search', { query: `?email=${encodeURIComponent(email)}` });
    expect((found.body.results as { id: string }[]).map((each) => each.id)).toEqual([customerId]);
  });

  it('pays a saved card only with its security code captured again (3031 without), naming its customer', async () => {
    const { customerId, cardId } = await customerWithCard();
    const withoutCode = await api('POST', '/v1/card_tokens', { body: { card_id: cardId } });
    expect(withoutCode.status).toBe(400);
    expect(causeCode(withoutCode)).toBe(3031);
    const token = await api('POST', '/v1/card_tokens', { body: { card_id: cardId, security_code: '123' } });
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ card_id: cardId, first_six_digits: VISA.slice(0, 6) });
    const paid = await api('POST', '/v1/payments', {
      body: paymentBody(token.body.id as string, { payer: { email: 'buyer@example.com', type: 'customer', id: customerId } }),
    });
    expect(paid.status).toBe(201);
    expect(paid.body.status).toBe('approved');
    // Another customer's card token is refused.
    const other = await customerWithCard();
    const stray = await api('POST', '/v1/card_tokens', { body: { card_id: cardId, security_code: '123' } });
    const refused = await api('POST', '/v1/payments', {
      body: paymentBody(stray.body.id as string, {
        payer: { email: 'buyer@example.com', type: 'customer', id: other.customerId },
      }),
    });
    expect(refused.status).toBe(400);
    expect(causeCode(refused)).toBe(2062);
  });

  it('deletes a card: then 404, and no token can be made of it', async () => {
    const { customerId, cardId } = await customerWithCard();
    expect((await api('DELETE', `/v1/customers/${customerId}/cards/${cardId}`)).status).toBe(200);
    expect((await api('DELETE', `/v1/customers/${customerId}/cards/${cardId}`)).status).toBe(404);
    const token = await api('POST', '/v1/card_tokens', { body: { card_id: cardId, security_code: '123' } });
    expect(token.status).toBe(400);
  });
});

describe('idempotency', () => {
  it('replays the same key and body, refuses another body, requires the key', async () => {
    const key = randomUUID();
    const body = paymentBody(await cardToken('APRO'), { external_reference: 'idem-1' });
    const first = await api('POST', '/v1/payments', { body, key });
    // Same request with its keys in another order is still the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const second = await api('POST', '/v1/payments', { body: reordered, key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(sim.payments().filter((payment) => payment.external_reference === 'idem-1')).toHaveLength(1);

    const conflict = await api('POST', '/v1/payments', { body: { ...body, transaction_amount: 99 }, key });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ error: 'idempotency_key_already_used', status: 409 });

    const missing = await api('POST', '/v1/payments', { body, key: null });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("Header X-Idempotency-Key can't be null");
    expect(causeCode(missing)).toBe(4292);
  });

  it('does not keep refused requests, so the corrected request goes through under the same key', async () => {
    const key = randomUUID();
    const token = await cardToken('FUND');
    expect((await api('POST', '/v1/payments', { body: paymentBody(token, { installments: undefined }), key })).status).toBe(400);
    const fixed = await api('POST', '/v1/payments', { body: paymentBody(token), key });
    expect(fixed.status).toBe(201);
    const replay = await api('POST', '/v1/payments', { body: paymentBody(token), key });
    expect(replay.body).toEqual(fixed.body);
    expect(replay.body.status).toBe('rejected');
  });
});

describe('Yape', () => {
  it('tokenizes with the public key and pays by test phone', async () => {
    const token = await yapeToken('111111111');
    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({
      status: 'active',
      site_id: 'MPE',
      public_key: PUBLIC_KEY,
      security_code_length: 6,
      first_six_digits: '111111',
      live_mode: false,
    });
    expect(token.body.id).toMatch(/^[0-9a-f]{32}$/);
    const approved = await api('POST', '/v1/payments', {
      body: {
        token: token.body.id,
        transaction_amount: 50,
        description: 'Yape',
        installments: 1,
        payment_method_id: 'yape',
        payer: { email: 'buyer@example.com' },
      },
    });
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({
      status: 'approved',
      status_detail: 'accredited',
      payment_method_id: 'yape',
      payment_type_id: 'debit_card',
    });

    const phones: Record<string, string> = {
      '111111112': 'cc_rejected_call_for_authorize',
      '111111113': 'cc_amount_rate_limit_exceeded',
      '111111114': 'cc_unsupported_unsupported',
      '111111115': 'cc_rejected_card_type_not_allowed',
      '111111116': 'cc_rejected_max_attempts',
      '111111117': 'cc_rejected_bad_filled_security_code',
      '111111118': 'cc_rejected_form_error',
      '987654321': 'accredited',
    };
    for (const [phone, detail] of Object.entries(phones)) {
      const id = (await yapeToken(phone)).body.id;
      const reply = await api('POST', '/v1/payments', {
        body: {
          token: id,
          transaction_amount: 20,
          installments: 1,
          payment_method_id: 'yape',
          payer: { email: 'buyer@example.com' },
        },
      });
      expect(reply.body.status_detail, phone).toBe(detail);
      expect(reply.body.status, phone).toBe(detail === 'accredited' ? 'approved' : 'rejected');
    }
  });

  it('lets only the test phone decide (not the amount), refuses installments and deferred capture, validates the token request', async () => {
    const pay = async (extra: Record<string, unknown>) =>
      api('POST', '/v1/payments', {
        body: {
          token: (await yapeToken('111111111')).body.id,
          installments: 1,
          payment_method_id: 'yape',
          transaction_amount: 20,
          payer: { email: 'buyer@example.com' },
          ...extra,
        },
      });
    // The Yape page's own examples pay 5000; its test phone 111111113 is the limit's rejection.
    expect((await pay({ transaction_amount: 5000 })).body).toMatchObject({ status: 'approved', status_detail: 'accredited' });
    expect(causeCode(await pay({ installments: 2 }))).toBe(4033);
    expect(causeCode(await pay({ capture: false }))).toBe(2077);
    const badOtp = await api('POST', '/platforms/pci/yape/v1/payment', {
      token: null,
      query: `?public_key=${PUBLIC_KEY}`,
      body: { phoneNumber: '111111111', otp: '12', requestId: randomUUID() },
    });
    expect(badOtp.status).toBe(400);
    expect(badOtp.body).toMatchObject({ error: 'bad_request', status: 400 });
    const noRequestId = await api('POST', '/platforms/pci/yape/v1/payment', {
      token: null,
      query: `?public_key=${PUBLIC_KEY}`,
      body: { phoneNumber: '111111111', otp: '123456' },
    });
    expect(noRequestId.status).toBe(400);
  });
});

describe('search', () => {
  it('finds by external_reference and status, sorts, pages, and stays within the account', async () => {
    const ids: number[] = [];
    for (const name of ['APRO', 'OTHE', 'APRO'])
      ids.push((await pay(name, { external_reference: 'ord_search' })).body.id as number);
    await pay('APRO', { external_reference: 'ord_other' });
    await api('POST', '/v1/payments', {
      token: OTHER_TOKEN,
      body: paymentBody(await cardToken('APRO', { token: OTHER_TOKEN }), { external_reference: 'ord_search' }),
    });

    const all = await api('GET', '/v1/payments/search', { query: '?external_reference=ord_search' });
    expect(all.status).toBe(200);
    expect(all.body.paging).toEqual({ total: 3, limit: 30, offset: 0 });
    expect((all.body.results as { id: number }[]).map((payment) => payment.id)).toEqual(ids);

    const desc = await api('GET', '/v1/payments/search', {
      query: '?external_reference=ord_search&sort=date_created&criteria=desc&limit=2&offset=0',
    });
    expect((desc.body.results as { id: number }[]).map((payment) => payment.id)).toEqual([ids[2], ids[1]]);
    expect(desc.body.paging).toEqual({ total: 3, limit: 2, offset: 0 });

    const approved = await api('GET', '/v1/payments/search', {
      query: '?external_reference=ord_search&status=approved&begin_date=NOW-1DAYS&end_date=NOW',
    });
    expect(approved.body.paging).toMatchObject({ total: 2 });
    const future = await api('GET', '/v1/payments/search', {
      query: `?external_reference=ord_search&begin_date=${new Date(Date.now() + 3_600_000).toISOString()}`,
    });
    expect(future.body.paging).toMatchObject({ total: 0 });
    expect((await api('GET', '/v1/payments/search', { query: '?sort=amount' })).status).toBe(400);
  });
});

describe('refunds', () => {
  it('refunds partially then fully, updating the payment', async () => {
    const payment = await pay('APRO', { transaction_amount: 100 });
    const id = String(payment.body.id);
    const partial = await api('POST', `/v1/payments/${id}/refunds`, { body: { amount: 30 } });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({
      payment_id: payment.body.id,
      amount: 30,
      metadata: {},
      source: { id: '123456789', type: 'collector' },
      unique_sequence_number: null,
      refund_mode: 'standard',
      adjustment_amount: 0,
      status: 'approved',
      reason: null,
    });
    expect(typeof partial.body.id).toBe('number');
    expect((await api('GET', `/v1/payments/${id}`)).body).toMatchObject({
      status: 'approved',
      status_detail: 'partially_refunded',
      transaction_amount_refunded: 30,
    });
    const tooMuch = await api('POST', `/v1/payments/${id}/refunds`, { body: { amount: 80 } });
    expect(tooMuch.status).toBe(400);
    const rest = await api('POST', `/v1/payments/${id}/refunds`, { body: {} });
    expect(rest.body.amount).toBe(70);
    const refunded = await api('GET', `/v1/payments/${id}`);
    expect(refunded.body).toMatchObject({ status: 'refunded', status_detail: 'refunded', transaction_amount_refunded: 100 });
    expect(refunded.body.refunds).toHaveLength(2);
    const list = await api('GET', `/v1/payments/${id}/refunds`);
    expect((list.body as unknown as { id: number }[]).map((refund) => refund.id)).toEqual([partial.body.id, rest.body.id]);
    expect((await api('GET', `/v1/payments/${id}/refunds/${String(partial.body.id)}`)).body).toEqual(partial.body);
    expect(causeCode(await api('GET', `/v1/payments/${id}/refunds/1`))).toBe(2032);
    expect(causeCode(await api('POST', `/v1/payments/${id}/refunds`, { body: {} }))).toBe(2063);
  });

  it('is idempotent by key, requires the key, and refunds only approved payments', async () => {
    const payment = await pay('APRO');
    const id = String(payment.body.id);
    const key = randomUUID();
    const first = await api('POST', `/v1/payments/${id}/refunds`, { key, body: '' });
    const second = await api('POST', `/v1/payments/${id}/refunds`, { key, body: {} });
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await api('GET', `/v1/payments/${id}/refunds`)).body).toHaveLength(1);
    expect(causeCode(await api('POST', `/v1/payments/${id}/refunds`, { key: null, body: {} }))).toBe(4292);
    const rejected = await pay('OTHE');
    expect(causeCode(await api('POST', `/v1/payments/${String(rejected.body.id)}/refunds`, { body: {} }))).toBe(2063);
    expect(causeCode(await api('POST', '/v1/payments/123/refunds', { body: {} }))).toBe(2000);
  });
});

describe('cancellation', () => {
  it('cancels pending, in process and authorized payments only', async () => {
    const cancel = (id: unknown) => api('PUT', `/v1/payments/${String(id)}`, { body: { status: 'cancelled' } });
    const inProcess = await pay('CONT');
    expect((await cancel(inProcess.body.id)).body).toMatchObject({ status: 'cancelled', status_detail: 'by_collector' });
    const authorized = await pay('APRO', { capture: false });
    const cancelled = await cancel(authorized.body.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', status_detail: 'by_collector', captured: false });
    for (const id of [authorized.body.id, (await pay('APRO')).body.id, (await pay('FUND')).body.id]) {
      const refused = await cancel(id);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('The action requested is not valid for the current payment state');
      expect(causeCode(refused)).toBe(2018);
    }
    expect(
      causeCode(await api('PUT', `/v1/payments/${String(inProcess.body.id)}`, { body: { status: 'cancelled', foo: 1 } })),
    ).toBe(8);
    expect(
      (await api('PUT', `/v1/payments/${String(inProcess.body.id)}`, { token: OTHER_TOKEN, body: { status: 'cancelled' } }))
        .status,
    ).toBe(404);
  });
});

describe('notifications', () => {
  const setWebhook = (body: Record<string, unknown>) =>
    fetch(`${sim.url}/__simulator/webhooks`, { method: 'POST', body: JSON.stringify(body) });
  const notify = (id: unknown, action?: string) =>
    fetch(`${sim.url}/__simulator/payments/${String(id)}/notify`, {
      method: 'POST',
      body: JSON.stringify(action ? { action } : {}),
    });

  it('sends none by itself for test payments (Webhooks page), whatever the URLs', async () => {
    expect((await setWebhook({ access_token: ACCESS_TOKEN, url: receiverUrl })).status).toBe(200);
    const reply = await pay('APRO', { notification_url: 'https://shop.example/webhooks/mercadopago' });
    expect(reply.status).toBe(201);
    expect(reply.body.notification_url).toBe('https://shop.example/webhooks/mercadopago');
    await pay('APRO');
    await api('POST', `/v1/payments/${String(reply.body.id)}/refunds`, { body: {} });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toEqual([]);
    expect(sim.notifications()).toEqual([]);
  });

  it("notify (the panel's Simular) posts to the application's Webhooks URL with a valid x-signature", async () => {
    const set = await setWebhook({ key: PUBLIC_KEY, url: `${receiverUrl}?source_news=webhooks` });
    expect(await set.json()).toMatchObject({ access_token: ACCESS_TOKEN, url: `${receiverUrl}?source_news=webhooks` });
    const reply = await pay('APRO');
    const id = String(reply.body.id);
    const answer = await notify(id, 'payment.created');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { deliveries: { status: number }[] }).deliveries.map((each) => each.status)).toEqual([200]);
    expect(received).toHaveLength(1);
    const created = received[0]!;
    const url = new URL(created.url, 'http://receiver');
    expect(url.pathname).toBe('/webhooks/mercadopago');
    expect(Object.fromEntries(url.searchParams)).toEqual({ source_news: 'webhooks', 'data.id': id, type: 'payment' });
    const body = JSON.parse(created.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      live_mode: false,
      type: 'payment',
      user_id: 123456789,
      api_version: 'v1',
      action: 'payment.created',
      data: { id },
    });
    expect(typeof body.id).toBe('number');
    expect(created.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.headers['x-signature']).toMatch(/^ts=\d{10},v1=[0-9a-f]{64}$/);
    expect(signatureValid(SECRET, created)).toBe(true);
    expect(signatureValid('another-secret', created)).toBe(false);

    await api('POST', `/v1/payments/${id}/refunds`, { body: {} });
    expect((await notify(id)).status).toBe(200);
    expect(JSON.parse(received[1]!.body)).toMatchObject({ action: 'payment.updated', data: { id } });
    expect(signatureValid(SECRET, received[1]!)).toBe(true);
    expect(sim.notifications().map((delivery) => [delivery.action, delivery.status, delivery.attempt])).toEqual([
      ['payment.created', 200, 1],
      ['payment.updated', 200, 1],
    ]);
  });

  it("sends to the payment's own notification_url before the application's (Webhooks page)", async () => {
    sim.setWebhook(ACCESS_TOKEN, receiverUrl);
    const reply = await pay('APRO', { notification_url: 'https://receiver.invalid/webhooks/mercadopago' });
    const deliveries = await sim.notifyPayment(reply.body.id as number);
    expect(deliveries.every((delivery) => delivery.url.startsWith('https://receiver.invalid/webhooks/mercadopago?'))).toBe(true);
    expect(received).toEqual([]);
  });

  it('retries a failing receiver, 3 attempts in all', async () => {
    sim.setWebhook(ACCESS_TOKEN, receiverUrl);
    receiverFailures = 2;
    const reply = await pay('APRO');
    await sim.notifyPayment(reply.body.id as number);
    const log = sim.notifications();
    expect(log.map((delivery) => [delivery.attempt, delivery.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(new Set(log.map((delivery) => delivery.notification_id)).size).toBe(1);
    expect(new Set(received.map((delivery) => delivery.body)).size).toBe(1);
    expect(received.every((delivery) => signatureValid(SECRET, delivery))).toBe(true);
  });

  it('sends a fresh notification and replays one byte for byte through the control API', async () => {
    sim.setWebhook(ACCESS_TOKEN, receiverUrl);
    const reply = await pay('APRO');
    expect((await notify(reply.body.id, 'payment.created')).status).toBe(200);
    const fresh = await notify(reply.body.id, 'payment.updated');
    expect(fresh.status).toBe(200);
    const answer = (await fresh.json()) as { notification_id: number; deliveries: { status: number }[] };
    expect(answer.deliveries.map((delivery) => delivery.status)).toEqual([200]);
    expect(received).toHaveLength(2);
    expect(received[1]!.headers['x-request-id']).not.toBe(received[0]!.headers['x-request-id']);

    const replay = await fetch(`${sim.url}/__simulator/notifications/${answer.notification_id}/resend`, { method: 'POST' });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ notification_id: answer.notification_id, status: 200, replay: true, attempt: 2 });
    const [original, replayed] = [received[1]!, received[2]!];
    expect(replayed.body).toBe(original.body);
    expect(replayed.url).toBe(original.url);
    expect(replayed.headers['x-request-id']).toBe(original.headers['x-request-id']);
    expect(replayed.headers['x-signature']).toBe(original.headers['x-signature']);

    const log = (await (await fetch(`${sim.url}/__simulator/notifications`)).json()) as { replay: boolean }[];
    expect(log.map((delivery) => delivery.replay)).toEqual([false, false, true]);
    expect((await fetch(`${sim.url}/__simulator/notifications/1/resend`, { method: 'POST' })).status).toBe(404);
    expect((await sim.notifyPayment(reply.body.id as number)).map((delivery) => delivery.status)).toEqual([200]);
  });

  it('sends no x-signature for an account without a webhook secret', async () => {
    sim.setWebhook(OTHER_PUBLIC_KEY, receiverUrl);
    const reply = await api('POST', '/v1/payments', {
      token: OTHER_TOKEN,
      body: paymentBody(await cardToken('APRO', { token: OTHER_TOKEN })),
    });
    await sim.notifyPayment(reply.body.id as number);
    expect(received[0]!.headers['x-signature']).toBeUndefined();
    expect(JSON.parse(received[0]!.body)).toMatchObject({ user_id: 555, data: { id: String(reply.body.id) } });
  });

  it('refuses a notify with nowhere to send it, and a panel URL for no account or of no http(s) URL', async () => {
    expect((await setWebhook({ access_token: ACCESS_TOKEN, url: null })).status).toBe(200);
    const reply = await pay('APRO');
    expect((await notify(reply.body.id)).status).toBe(409);
    expect((await notify(99)).status).toBe(404);
    expect(
      (await setWebhook({ access_token: 'APP_USR-0-000000-00000000000000000000000000000000-0', url: receiverUrl })).status,
    ).toBe(404);
    expect((await setWebhook({ access_token: ACCESS_TOKEN, url: 'ftp://shop.example/hook' })).status).toBe(400);
    expect((await setWebhook({ access_token: ACCESS_TOKEN })).status).toBe(400);
  });
});

describe('modes', () => {
  const setMode = (body: Record<string, unknown>) =>
    fetch(`${sim.url}/__simulator/mode`, { method: 'POST', body: JSON.stringify(body) });

  it('answers errors and rate limits in Mercado Pago shape', async () => {
    await setMode({ mode: 'errors' });
    const error = await api('GET', '/v1/payments/search');
    expect(error.status).toBe(500);
    expect(error.body).toEqual({ message: 'internal_error', error: 'internal_server_error', status: 500, cause: [] });
    await setMode({ mode: 'rate_limited' });
    const limited = await api('GET', '/v1/payments/search');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({ message: 'Too many requests', error: 'too_many_requests', status: 429, cause: [] });
  });

  it('drops connections in outage and delays in slow mode', async () => {
    await setMode({ mode: 'outage' });
    await expect(api('GET', '/v1/payment_methods')).rejects.toThrow();
    await setMode({ mode: 'slow', delay_ms: 300 });
    const started = Date.now();
    expect((await api('GET', '/v1/payment_methods')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('keys a mode by access token or public key, for the whole account only', async () => {
    await setMode({ mode: 'errors', key: PUBLIC_KEY });
    expect((await api('GET', '/v1/payment_methods')).status).toBe(500);
    expect((await api('GET', '/v1/payment_methods', { token: null, query: `?public_key=${PUBLIC_KEY}` })).status).toBe(500);
    expect((await api('GET', '/v1/payment_methods', { token: OTHER_TOKEN })).status).toBe(200);
    sim.setMode('normal', { key: ACCESS_TOKEN });
    expect((await api('GET', '/v1/payment_methods')).status).toBe(200);
    sim.setMode('rate_limited', { key: OTHER_PUBLIC_KEY });
    expect((await api('GET', '/v1/payment_methods', { token: OTHER_TOKEN })).status).toBe(429);
  });
});
