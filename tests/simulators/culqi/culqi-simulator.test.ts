import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startCulqiSimulator,
  type CulqiCharge,
  type CulqiEvent,
  type CulqiOrder,
  type CulqiRefund,
  type CulqiSimulator,
  type CulqiToken,
  type EventOutcome,
} from './culqi-simulator';
import { DECLINE_CARDS, DECLINE_MESSAGES } from './culqi-test-data';

// Drives the simulator over HTTP with plain fetch, as the connector would (README.md).

const PK = 'pk_test_90667d0a57d45c48';
const SK = 'sk_test_1573b0e8079863ff';
const OTHER_PK = 'pk_test_OtherAccount000001';
const OTHER_SK = 'sk_test_OtherAccount000001';
const LIVE_PK = 'pk_live_LiveAccount0000001';
const LIVE_SK = 'sk_live_LiveAccount0000001';
const LIST_PK = 'pk_test_ListAccount0000001';
const LIST_SK = 'sk_test_ListAccount0000001';
const WEBHOOK_USER = 'culqi-hook';
const WEBHOOK_PASSWORD = 'hook-pass-123';

type ErrorBody = {
  object: 'error';
  type: string;
  code?: string;
  param?: string;
  decline_code?: string;
  charge_id?: string;
  merchant_message: string;
  user_message?: string;
};
type Reply<T> = { status: number; body: T; text: string; headers: Headers };
type Received = { authorization: string | undefined; body: string };

let sim: CulqiSimulator;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Statuses the receiver answers next (then 200). */
const receiverAnswers: number[] = [];
const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((name) =>
  vi.spyOn(console, name).mockImplementation(() => undefined),
);

async function call<T = unknown>(method: string, path: string, key: string | null, body?: unknown): Promise<Reply<T>> {
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed as T, text, headers: response.headers };
}

const CARD = { cvv: '123', expiration_month: '12', expiration_year: '2030', email: 'richard@piedpiper.com' };

async function cardToken(cardNumber: string, key = PK, extra: Record<string, unknown> = {}): Promise<CulqiToken> {
  const reply = await call<CulqiToken>('POST', '/v2/tokens', key, { ...CARD, card_number: cardNumber, ...extra });
  expect(reply.status).toBe(201);
  return reply.body;
}

async function charge<T = CulqiCharge>(sourceId: string, extra: Record<string, unknown> = {}, key = SK): Promise<Reply<T>> {
  return call<T>('POST', '/v2/charges', key, {
    amount: 1000,
    currency_code: 'PEN',
    email: 'richard@piedpiper.com',
    source_id: sourceId,
    ...extra,
  });
}

async function approvedCharge(extra: Record<string, unknown> = {}, key = SK, pk = PK): Promise<CulqiCharge> {
  const token = await cardToken('4111111111111111', pk);
  const reply = await charge(token.id, extra, key);
  expect(reply.status).toBe(201);
  return reply.body;
}

async function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let orderCounter = 0;
function orderBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  orderCounter += 1;
  return {
    amount: 1000,
    currency_code: 'PEN',
    description: 'Venta de prueba',
    order_number: `pedido-${orderCounter}-${Date.now()}`,
    client_details: {
      first_name: 'Richard',
      last_name: 'Hendricks',
      email: 'richard@piedpiper.com',
      phone_number: '+51945145288',
    },
    expiration_date: Math.floor(Date.now() / 1000) + 3600,
    ...extra,
  };
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ authorization: request.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiverAnswers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/culqi`;
  sim = await startCulqiSimulator({ webhookRetryDelayMs: 50 });
  sim.addAccount({
    publicKey: PK,
    secretKey: SK,
    webhook: { url: receiverUrl, username: WEBHOOK_USER, password: WEBHOOK_PASSWORD },
  });
  sim.addAccount({ publicKey: OTHER_PK, secretKey: OTHER_SK });
  const live = await call('POST', '/__simulator/accounts', null, { public_key: LIVE_PK, secret_key: LIVE_SK });
  expect(live.status).toBe(201);
});

afterAll(async () => {
  await sim.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('authentication', () => {
  it('answers 401 invalid_key for an unknown key, no key, or the wrong kind of key', async () => {
    const replies = [
      await call<ErrorBody>('GET', '/v2/charges', 'sk_test_NotRegistered00000'),
      await call<ErrorBody>('GET', '/v2/charges', null),
      await call<ErrorBody>('GET', '/v2/charges', PK),
      await call<ErrorBody>('POST', '/v2/tokens', SK, { ...CARD, card_number: '4111111111111111' }),
      await call<ErrorBody>('POST', '/v2/orders/confirm', SK, { order_id: 'ord_test_x', order_types: ['cip'] }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ object: 'error', type: 'authentication_error', code: 'invalid_key' });
      expect(reply.body.merchant_message).toEqual(expect.any(String));
    }
  });

  it('answers 400 invalid_request_error for a body that is not JSON', async () => {
    const reply = await call<ErrorBody>('POST', '/v2/charges', SK, '{"amount": 1000,');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ object: 'error', type: 'invalid_request_error' });
  });

  it('validates accounts registered through the control API and upserts by secret key', async () => {
    const bad = [
      { public_key: 'pk_test_short', secret_key: 'sk_test_1234567890123456' },
      { public_key: 'pk_test_1234567890123456', secret_key: 'sk_live_1234567890123456' },
      { public_key: 'pk_test_1234567890123456', secret_key: 'sk_test_1234567890123456', webhook: { url: 'ftp://x' } },
    ];
    for (const body of bad) expect((await call('POST', '/__simulator/accounts', null, body)).status).toBe(400);
    const taken = await call('POST', '/__simulator/accounts', null, { public_key: PK, secret_key: 'sk_test_1234567890123456' });
    expect(taken.status).toBe(409);
    const first = await call('POST', '/__simulator/accounts', null, {
      public_key: 'pk_test_AAAAAAAAAAAAAAAA',
      secret_key: 'sk_test_BBBBBBBBBBBBBBBB',
    });
    const again = await call('POST', '/__simulator/accounts', null, {
      public_key: 'pk_test_CCCCCCCCCCCCCCCC',
      secret_key: 'sk_test_BBBBBBBBBBBBBBBB',
    });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(
      (await call('POST', '/v2/tokens', 'pk_test_AAAAAAAAAAAAAAAA', { ...CARD, card_number: '4111111111111111' })).status,
    ).toBe(401);
    expect(
      (await call('POST', '/v2/tokens', 'pk_test_CCCCCCCCCCCCCCCC', { ...CARD, card_number: '4111111111111111' })).status,
    ).toBe(201);
  });
});

describe('tokens', () => {
  it('creates a card token shaped as Culqi records it', async () => {
    const before = Date.now();
    const reply = await call<CulqiToken>('POST', '/v2/tokens', PK, {
      ...CARD,
      card_number: '4111111111111111',
      metadata: { dni: '5831543' },
    });
    expect(reply.status).toBe(201);
    expect(reply.text).not.toContain('4111111111111111');
    expect(reply.body).toMatchObject({
      object: 'token',
      type: 'card',
      email: 'richard@piedpiper.com',
      card_number: '411111******1111',
      last_four: '1111',
      active: true,
      iin: {
        object: 'iin',
        bin: '411111',
        card_brand: 'Visa',
        card_type: 'credito',
        issuer: { name: 'BBVA', country_code: 'PE' },
        installments_allowed: [2, 4, 6, 8, 10, 12, 3, 5, 7, 9, 24, 48],
      },
      client: { ip_country_code: 'PE', device_type: 'Escritorio' },
      metadata: { dni: '5831543' },
    });
    expect(reply.body.id).toMatch(/^tkn_test_[A-Za-z0-9]{16}$/);
    expect(reply.body.creation_date).toBeGreaterThanOrEqual(before);
  });

  it('knows the brand of each test card and masks it as Culqi does', async () => {
    const amex = await cardToken('371212121212122', PK, { cvv: '2841' });
    const diners = await cardToken('36001212121210');
    const mastercard = await cardToken('5111111111111118');
    expect(amex).toMatchObject({ card_number: '371212*****2122', iin: { card_brand: 'Amex', installments_allowed: [] } });
    expect(diners).toMatchObject({ card_number: '360012****1210', iin: { card_brand: 'Diners', installments_allowed: [] } });
    expect(mastercard.type === 'card' && mastercard.iin.card_brand).toBe('MasterCard');
    expect((await cardToken('4111111111111111', LIVE_PK)).id).toMatch(/^tkn_live_/);
  });

  it('answers 422 parameter_error naming the bad field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ card_number: '4111111111111112' }, 'card_number'],
      [{ card_number: '411111111111' }, 'card_number'],
      [{ card_number: '6011111111111117' }, 'card_number'],
      [{ cvv: '12' }, 'cvv'],
      [{ expiration_month: '13' }, 'expiration_month'],
      [{ expiration_year: '2020' }, 'expiration_year'],
      [{ expiration_year: '30' }, 'expiration_year'],
      [{ email: 'not-an-email' }, 'email'],
    ];
    for (const [change, param] of cases) {
      const reply = await call<ErrorBody>('POST', '/v2/tokens', PK, { ...CARD, card_number: '4111111111111111', ...change });
      expect(reply.status, param).toBe(422);
      expect(reply.body).toMatchObject({ object: 'error', type: 'parameter_error', param });
      expect(reply.text).not.toContain('4111111111111112');
    }
  });

  it('creates Yape tokens and validates their fields', async () => {
    const reply = await call<CulqiToken>('POST', '/v2/tokens/yape', PK, {
      number_phone: '900000001',
      otp: '425251',
      amount: 700,
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ object: 'token', type: 'yape', amount: 700 });
    expect(reply.body.id).toMatch(/^ype_test_[A-Za-z0-9]{16}$/);
    const cases: [Record<string, unknown>, string][] = [
      [{ number_phone: '90000001' }, 'number_phone'],
      [{ otp: '42525' }, 'otp'],
      [{ amount: 0 }, 'amount'],
      [{ amount: 10.5 }, 'amount'],
    ];
    for (const [change, param] of cases) {
      const bad = await call<ErrorBody>('POST', '/v2/tokens/yape', PK, {
        number_phone: '900000001',
        otp: '425251',
        amount: 700,
        ...change,
      });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({ type: 'parameter_error', param });
    }
  });
});

describe('charges', () => {
  it('approves a success card with the recorded charge shape', async () => {
    const token = await cardToken('4111111111111111');
    const reply = await charge(token.id, {
      capture: false,
      installments: 0,
      description: 'Venta de prueba',
      metadata: { order_id: 'COD00001' },
    });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('x-culqi-environment')).toBe('test');
    const body = reply.body;
    expect(body).toMatchObject({
      duplicated: false,
      object: 'charge',
      amount: 1000,
      amount_refunded: 0,
      current_amount: 1000,
      installments: 1,
      installments_amount: 1000,
      currency_code: 'PEN',
      email: 'richard@piedpiper.com',
      description: 'Venta de prueba',
      outcome: {
        type: 'venta_exitosa',
        code: 'AUT0000',
        merchant_message: 'La operación de venta ha sido autorizada exitosamente',
      },
      capture: false,
      metadata: { order_id: 'COD00001' },
      total_fee: 47,
      total_fee_taxes: 7,
      transfer_amount: 953,
      paid: false,
    });
    expect(body.id).toMatch(/^chr_test_[A-Za-z0-9]{16}$/);
    expect(body.reference_code).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(body.authorization_code).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(body.source).toEqual(token);
    const fetched = await call<CulqiCharge & { operations: unknown[] }>('GET', `/v2/charges/${body.id}`, SK);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ ...body, operations: [] });
    expect((await cardToken('4242424242424242')).id).toMatch(/^tkn_test_/);
  });

  it.each(Object.entries(DECLINE_CARDS))(
    'declines %s with 402 %s and keeps the declined charge',
    async (cardNumber, declineCode) => {
      const token = await cardToken(cardNumber);
      const reply = await charge<ErrorBody>(token.id);
      expect(reply.status).toBe(402);
      const messages = DECLINE_MESSAGES[declineCode];
      expect(reply.body).toEqual({
        object: 'error',
        type: 'card_error',
        charge_id: expect.stringMatching(/^chr_test_[A-Za-z0-9]{16}$/) as string,
        code: 'card_declined',
        decline_code: declineCode,
        merchant_message: messages.merchant_message,
        user_message: messages.user_message,
      });
      const stored = await call<CulqiCharge>('GET', `/v2/charges/${reply.body.charge_id}`, SK);
      expect(stored.body.outcome).toEqual({
        type: 'venta_denegada',
        code: 'card_declined',
        decline_code: declineCode,
        ...messages,
      });
      expect(reply.text + stored.text).not.toContain(cardNumber);
    },
  );

  it('uses a token once, even when the charge was declined', async () => {
    const token = await cardToken('4111111111111111');
    expect((await charge(token.id)).status).toBe(201);
    const again = await charge<ErrorBody>(token.id);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ type: 'resource_error' });
    expect(again.body.merchant_message).toContain('ya fue utilizado');
    const declined = await cardToken('4000040000000008');
    expect((await charge(declined.id)).status).toBe(402);
    expect((await charge(declined.id)).status).toBe(404);
  });

  it('refuses a token past its lifetime', async () => {
    const short = await startCulqiSimulator({ tokenTtlMs: 50 });
    try {
      short.addAccount({ publicKey: PK, secretKey: SK });
      const post = (path: string, key: string, body: unknown) =>
        fetch(`${short.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
      const token = (await (await post('/v2/tokens', PK, { ...CARD, card_number: '4111111111111111' })).json()) as CulqiToken;
      await new Promise((resolve) => setTimeout(resolve, 80));
      const reply = await post('/v2/charges', SK, { amount: 1000, currency_code: 'PEN', email: 'a@b.pe', source_id: token.id });
      expect(reply.status).toBe(404);
      expect(((await reply.json()) as ErrorBody).merchant_message).toContain('expirado');
    } finally {
      await short.close();
    }
  });

  it("keeps each account's objects to itself", async () => {
    const token = await cardToken('4111111111111111');
    expect((await charge(token.id, {}, OTHER_SK)).status).toBe(404);
    const mine = await charge(token.id);
    expect((await call('GET', `/v2/charges/${mine.body.id}`, OTHER_SK)).status).toBe(404);
    expect((await call('GET', '/v2/charges/chr_test_DoesNotExist0000', SK)).status).toBe(404);
  });

  it('validates the charge request with 422 parameter_error', async () => {
    const visa = await cardToken('4111111111111111');
    const amex = await cardToken('371212121212122');
    const cases: [string, Record<string, unknown>, string][] = [
      [visa.id, { amount: 99 }, 'amount'],
      [visa.id, { amount: 1000000 }, 'amount'],
      [visa.id, { amount: 10.5 }, 'amount'],
      [visa.id, { currency_code: 'EUR' }, 'currency_code'],
      [visa.id, { email: 'x' }, 'email'],
      [visa.id, { source_id: 'abc_test_123' }, 'source_id'],
      [visa.id, { description: 'abc' }, 'description'],
      [visa.id, { installments: 11 }, 'installments'],
      [amex.id, { installments: 3 }, 'installments'],
      [visa.id, { metadata: { nested: { no: 1 } } }, 'metadata'],
    ];
    for (const [source, change, param] of cases) {
      const reply = await charge<ErrorBody>(source, change);
      expect(reply.status, param).toBe(422);
      expect(reply.body).toMatchObject({ object: 'error', type: 'parameter_error', param });
    }
    // A refused request does not use the token up.
    expect((await charge(visa.id, { installments: 3 })).body.installments).toBe(3);
  });

  it('asks for 3-D Secure (200 REVIEW) and approves the retry with authentication_3DS', async () => {
    const authentication = { eci: '05', xid: 'xid', cavv: 'cavv', protocolVersion: '2.1.0', directoryServerTransactionId: 'ds' };
    for (const cardNumber of ['4456530000001096', '4456530000001005']) {
      const token = await cardToken(cardNumber, PK, { cvv: '111', email: 'review@culqi.com' });
      const count = sim.charges().length;
      const review = await charge(token.id, { email: 'review@culqi.com' });
      expect(review.status).toBe(200);
      expect(review.body).toEqual({ action_code: 'REVIEW', user_message: expect.any(String) as string });
      expect(sim.charges()).toHaveLength(count);
      const retry = await charge(token.id, { email: 'review@culqi.com', authentication_3DS: authentication });
      expect(retry.status).toBe(201);
      expect(retry.body.outcome.type).toBe('venta_exitosa');
    }
    const failures: [string, string][] = [
      ['4456530000001070', 'issuer_not_available'],
      ['4456530000001013', 'issuer_decline_operation'],
    ];
    for (const [cardNumber, declineCode] of failures) {
      const token = await cardToken(cardNumber, PK, { cvv: '111' });
      expect((await charge(token.id, { email: 'Review@Culqi.com' })).status).toBe(200);
      const retry = await charge<ErrorBody>(token.id, { email: 'review@culqi.com', authentication_3DS: authentication });
      expect(retry.status).toBe(402);
      expect(retry.body).toMatchObject({ type: 'card_error', decline_code: declineCode });
    }
    // Only the documented address asks for it: another email, even review2@culqi.com, is charged.
    const noReview = await cardToken('4456530000001096');
    expect((await charge(noReview.id)).status).toBe(201);
    const otherReview = await cardToken('4456530000001005', PK, { cvv: '111' });
    expect((await charge(otherReview.id, { email: 'review2@culqi.com' })).status).toBe(201);
  });

  it('captures an authorized charge once', async () => {
    const authorized = await approvedCharge({ capture: false });
    const captured = await call<CulqiCharge>('POST', `/v2/charges/${authorized.id}/capture`, SK);
    expect(captured.status).toBe(201);
    expect(captured.body).toMatchObject({ id: authorized.id, capture: true, operations: [] });
    expect((await call<ErrorBody>('POST', `/v2/charges/${authorized.id}/capture`, SK)).body.type).toBe('resource_error');
  });

  it('charges Yape tokens: approval, amount mismatch, PEN only, the S/ 500 limit', async () => {
    const yape = async (amount: number) =>
      (await call<CulqiToken>('POST', '/v2/tokens/yape', PK, { number_phone: '900000001', otp: '123456', amount })).body.id;
    const approved = await charge(await yape(700), { amount: 700 });
    expect(approved.status).toBe(201);
    expect(approved.body.source).toMatchObject({ type: 'yape', amount: 700 });
    const mismatch = await charge<ErrorBody>(await yape(700), { amount: 800 });
    expect([mismatch.status, mismatch.body.param]).toEqual([422, 'amount']);
    const dollars = await charge<ErrorBody>(await yape(700), { amount: 700, currency_code: 'USD' });
    expect([dollars.status, dollars.body.param]).toEqual([422, 'currency_code']);
    const over = await charge<ErrorBody>(await yape(60000), { amount: 60000 });
    expect(over.status).toBe(402);
    expect(over.body).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds' });
  });
});

const CUSTOMER = {
  first_name: 'Richard',
  last_name: 'Piedpiper',
  email: 'richard@piedpiper.com',
  address: 'Avenida Lima 123213',
  address_city: 'LIMA',
  country_code: 'PE',
  phone_number: '998989789',
};

describe('customers and saved cards', () => {
  async function savedCard(cardNumber = '4111111111111111') {
    const customer = await call<{ id: string }>('POST', '/v2/customers', SK, CUSTOMER);
    expect(customer.status).toBe(201);
    const token = await cardToken(cardNumber);
    return call<{ object: string; id: string; customer_id: string }>('POST', '/v2/cards', SK, {
      customer_id: customer.body.id,
      token_id: token.id,
    });
  }

  it('makes a customer with what Culqi requires, and refuses one without an address', async () => {
    const made = await call<{ object: string; id: string; antifraud_details: { phone: string } }>(
      'POST',
      '/v2/customers',
      SK,
      CUSTOMER,
    );
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'customer', antifraud_details: { phone: '+51998989789' } });
    expect(made.body.id).toMatch(/^cus_test_[A-Za-z0-9]{16}$/);
    const { address: _address, ...withoutAddress } = CUSTOMER;
    const refused = await call<ErrorBody>('POST', '/v2/customers', SK, withoutAddress);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ type: 'parameter_error', param: 'address' });
  });

  it('makes a card of a customer and a token, which a charge names as often as asked, and which spends the token', async () => {
    const card = await savedCard();
    expect(card.status).toBe(201);
    expect(card.body.id).toMatch(/^crd_test_[A-Za-z0-9]{16}$/);
    expect(card.text).not.toContain('4111111111111111');
    for (const _ of [1, 2]) {
      const charged = await charge(card.body.id);
      expect(charged.status).toBe(201);
      expect(charged.body.source).toMatchObject({ object: 'card', id: card.body.id });
    }
    expect(sim.cards().map((each) => each.id)).toContain(card.body.id);
  });

  it('validates the card as it makes it: a declining card is 400 card_error and no card', async () => {
    const stolen = Object.entries(DECLINE_CARDS).find(([, code]) => code === 'stolen_card')![0];
    const before = sim.cards().length;
    const refused = await savedCard(stolen);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'stolen_card' });
    expect(sim.cards()).toHaveLength(before);
  });

  it('deletes a card: 200 deleted, then 404, and a charge of it is refused', async () => {
    const card = await savedCard();
    const deleted = await call<{ deleted: boolean }>('DELETE', `/v2/cards/${card.body.id}`, SK);
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    expect((await call('DELETE', `/v2/cards/${card.body.id}`, SK)).status).toBe(404);
    const refused = await charge<ErrorBody>(card.body.id);
    expect(refused.status).toBe(404);
    expect(refused.body.type).toBe('resource_error');
  });

  it("keeps a card to its account: another account's key finds nothing", async () => {
    const card = await savedCard();
    expect((await charge(card.body.id, {}, OTHER_SK)).status).toBe(404);
    expect((await call('DELETE', `/v2/cards/${card.body.id}`, OTHER_SK)).status).toBe(404);
  });
});

describe('refunds', () => {
  it('refunds in parts until nothing is left', async () => {
    const paid = await approvedCharge({ amount: 5000 });
    const refund = await call<CulqiRefund>('POST', '/v2/refunds', SK, {
      amount: 2000,
      charge_id: paid.id,
      reason: 'solicitud_comprador',
    });
    expect(refund.status).toBe(201);
    expect(refund.body).toMatchObject({
      object: 'refund',
      charge_id: paid.id,
      amount: 2000,
      reason: 'Devolución solicitada por el comercio',
      metadata: {},
    });
    expect(refund.body.id).toMatch(/^ref_test_[A-Za-z0-9]{16}$/);
    expect((await call('GET', `/v2/refunds/${refund.body.id}`, SK)).body).toEqual(refund.body);
    expect((await call('GET', `/v2/refunds/${refund.body.id}`, OTHER_SK)).status).toBe(404);
    const after = (await call<CulqiCharge>('GET', `/v2/charges/${paid.id}`, SK)).body;
    expect([after.amount_refunded, after.current_amount]).toEqual([2000, 3000]);
    const tooMuch = await call<ErrorBody>('POST', '/v2/refunds', SK, { amount: 3001, charge_id: paid.id, reason: 'duplicado' });
    expect([tooMuch.status, tooMuch.body.param]).toEqual([422, 'amount']);
    const rest = await call<CulqiRefund>('POST', '/v2/refunds', SK, { amount: 3000, charge_id: paid.id, reason: 'fraudulento' });
    expect(rest.status).toBe(201);
    expect(rest.body.reason).toEqual(expect.any(String));
    expect((await call('POST', '/v2/refunds', SK, { amount: 1, charge_id: paid.id, reason: 'duplicado' })).status).toBe(422);
  });

  it("lists the account's refunds newest first, by creation date, with their metadata", async () => {
    const paid = await approvedCharge({ amount: 5000 });
    const since = Date.now();
    const made: string[] = [];
    for (const name of ['first', 'second']) {
      const refund = await call<CulqiRefund>('POST', '/v2/refunds', SK, {
        amount: 1000,
        charge_id: paid.id,
        reason: 'solicitud_comprador',
        metadata: { refund_id: name },
      });
      made.push(refund.body.id);
    }
    type Page = { data: CulqiRefund[]; paging: { remaining_items: number } };
    const seconds = (ms: number) => String(Math.floor(ms / 1000));
    const page = await call<Page>('GET', `/v2/refunds?creation_date_from=${seconds(since)}&limit=100`, SK);
    expect(page.status).toBe(200);
    const ours = page.body.data.filter((each) => made.includes(each.id));
    expect(ours.map((each) => each.metadata.refund_id)).toEqual(['second', 'first']);
    const before = await call<Page>('GET', `/v2/refunds?creation_date_to=${seconds(since - 60_000)}&limit=100`, SK);
    expect(before.body.data.filter((each) => made.includes(each.id))).toEqual([]);
    const other = await call<Page>('GET', '/v2/refunds?limit=100', OTHER_SK);
    expect(other.body.data.filter((each) => made.includes(each.id))).toEqual([]);
  });

  it('refuses a declined charge, an unknown reason and an unknown charge', async () => {
    const token = await cardToken('4000020000000000');
    const declined = await charge<ErrorBody>(token.id);
    const onDeclined = await call<ErrorBody>('POST', '/v2/refunds', SK, {
      amount: 100,
      charge_id: declined.body.charge_id,
      reason: 'duplicado',
    });
    expect([onDeclined.status, onDeclined.body.param]).toEqual([422, 'amount']);
    const paid = await approvedCharge();
    const badReason = await call<ErrorBody>('POST', '/v2/refunds', SK, { amount: 100, charge_id: paid.id, reason: 'otro' });
    expect([badReason.status, badReason.body.param]).toEqual([422, 'reason']);
    const unknown = await call<ErrorBody>('POST', '/v2/refunds', SK, {
      amount: 100,
      charge_id: 'chr_test_DoesNotExist0000',
      reason: 'duplicado',
    });
    expect([unknown.status, unknown.body.type]).toEqual([404, 'resource_error']);
  });
});

describe('charge list', () => {
  type Page = {
    data: CulqiCharge[];
    paging: {
      previous: string | null;
      next: string | null;
      cursors: { before: string | null; after: string | null };
      remaining_items: number;
    };
  };
  const list = async (query: string) => (await call<Page>('GET', `/v2/charges${query}`, LIST_SK)).body;
  let created: CulqiCharge[] = [];
  let declinedId = '';
  let start = 0;

  beforeAll(async () => {
    sim.addAccount({ publicKey: LIST_PK, secretKey: LIST_SK });
    expect((await list('')).paging).toEqual({
      previous: null,
      next: null,
      cursors: { before: null, after: null },
      remaining_items: 0,
    });
    start = Date.now();
    created = [];
    for (const extra of [
      { amount: 1000 },
      { amount: 2000, email: 'ana@tienda.pe' },
      { amount: 3000, currency_code: 'USD' },
      { amount: 4000, installments: 3 },
      { amount: 5000, email: 'ana@tienda.pe' },
    ]) {
      created.push(await approvedCharge(extra, LIST_SK, LIST_PK));
    }
    const token = await cardToken('4000030000000009', LIST_PK);
    declinedId = (await charge<ErrorBody>(token.id, { amount: 6000 }, LIST_SK)).body.charge_id ?? '';
  });

  it('lists newest first, declined charges included', async () => {
    const page = await list('');
    expect(page.data.map((item) => item.id)).toEqual([declinedId, ...created.map((item) => item.id).reverse()]);
    expect(page.paging.remaining_items).toBe(0);
  });

  it('filters by amount, currency, email, installments and creation date', async () => {
    const amounts = async (query: string) => (await list(query)).data.map((item) => item.amount);
    expect(await amounts('?amount=2000')).toEqual([2000]);
    expect(await amounts('?min_amount=2000&max_amount=4000')).toEqual([4000, 3000, 2000]);
    expect(await amounts('?currency_code=USD')).toEqual([3000]);
    expect(await amounts('?email=ANA@tienda.pe')).toEqual([5000, 2000]);
    expect(await amounts('?installments=3')).toEqual([4000]);
    const fromSeconds = Math.floor(start / 1000);
    expect(await amounts(`?creation_date_from=${fromSeconds}`)).toHaveLength(6);
    expect(await amounts(`?creation_date_from=${start}&creation_date_to=${Date.now()}`)).toHaveLength(6);
    expect(await amounts(`?creation_date_to=${fromSeconds - 1}`)).toEqual([]);
    const bad = await call<ErrorBody>('GET', '/v2/charges?limit=101', LIST_SK);
    expect([bad.status, bad.body.param]).toEqual([422, 'limit']);
  });

  it('pages with limit, after and before', async () => {
    const first = await list('?limit=2');
    expect(first.data).toHaveLength(2);
    expect(first.paging).toMatchObject({
      previous: null,
      remaining_items: 4,
      cursors: { before: declinedId, after: created[4]!.id },
    });
    expect(first.paging.next).toBe(`${sim.url}/v2/charges?limit=2&after=${created[4]!.id}`);
    const second = await list(`?limit=2&after=${first.paging.cursors.after}`);
    expect(second.data.map((item) => item.amount)).toEqual([4000, 3000]);
    expect(second.paging.remaining_items).toBe(2);
    const back = await list(`?limit=2&before=${second.paging.cursors.before}`);
    expect(back.data.map((item) => item.id)).toEqual(first.data.map((item) => item.id));
  });
});

describe('orders and webhooks', () => {
  const basic = `Basic ${Buffer.from(`${WEBHOOK_USER}:${WEBHOOK_PASSWORD}`).toString('base64')}`;
  const eventsFor = (orderId: string) =>
    received
      .map((item) => ({ ...item, event: JSON.parse(item.body) as CulqiEvent }))
      .filter(({ event }) => (JSON.parse(event.data) as CulqiOrder).id === orderId);

  it('creates, confirms and reads orders with second timestamps', async () => {
    const now = Math.floor(Date.now() / 1000);
    const created = await call<CulqiOrder>(
      'POST',
      '/v2/orders',
      SK,
      orderBody({ confirm: false, metadata: { dni: '71701976' } }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'order',
      state: 'created',
      payment_code: null,
      amount: 1000,
      metadata: { dni: '71701976' },
    });
    expect(created.body.id).toMatch(/^ord_test_[A-Za-z0-9]{16}$/);
    expect(Math.abs(created.body.creation_date - now)).toBeLessThanOrEqual(2);
    expect((await call('POST', `/v2/orders/${created.body.id}/confirm`, SK)).status).toBe(401);
    const confirmed = await call<CulqiOrder>('POST', `/v2/orders/${created.body.id}/confirm`, PK);
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.state).toBe('pending');
    expect(confirmed.body.payment_code).toMatch(/^\d{9}$/);
    expect((await call<ErrorBody>('POST', `/v2/orders/${created.body.id}/confirm`, PK)).body.type).toBe('resource_error');
    expect((await call('GET', `/v2/orders/${created.body.id}`, SK)).body).toEqual(confirmed.body);
    expect((await call('GET', `/v2/orders/${created.body.id}`, OTHER_SK)).status).toBe(404);
    const direct = await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody());
    expect([direct.body.state, direct.body.payment_code?.length]).toEqual(['pending', 9]);
  });

  it('validates orders with 422 parameter_error', async () => {
    const taken = orderBody();
    expect((await call('POST', '/v2/orders', SK, taken)).status).toBe(201);
    const cases: [Record<string, unknown>, string][] = [
      [{ order_number: taken.order_number }, 'order_number'],
      [{ expiration_date: Math.floor(Date.now() / 1000) - 10 }, 'expiration_date'],
      [{ expiration_date: Date.now() + 3_600_000 }, 'expiration_date'],
      [{ amount: 500 }, 'amount'],
      [{ currency_code: 'EUR' }, 'currency_code'],
      [{ client_details: undefined }, 'client_details'],
      [{ client_details: { first_name: 'R', last_name: 'H', email: 'bad', phone_number: '1' } }, 'client_details.email'],
    ];
    for (const [change, param] of cases) {
      const reply = await call<ErrorBody>('POST', '/v2/orders', SK, { ...orderBody(), ...change });
      expect(reply.status, param).toBe(422);
      expect(reply.body).toMatchObject({ type: 'parameter_error', param });
    }
  });

  it('pays through the Cuotéalo page and posts order.status.changed with Basic auth', async () => {
    const order = (await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody({ confirm: false }))).body;
    const bad = await call<ErrorBody>('POST', '/v2/orders/confirm', PK, { order_id: order.id, order_types: ['tarjeta'] });
    expect([bad.status, bad.body.param]).toEqual([422, 'order_types']);
    const confirmed = await call<CulqiOrder>('POST', '/v2/orders/confirm', PK, {
      order_id: order.id,
      order_types: ['cip', 'cuotealo'],
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({ state: 'pending', cuotealo: `${sim.url}/cuotealo/${order.id}` });
    const pageHtml = await (await fetch(confirmed.body.cuotealo!)).text();
    expect(pageHtml).toContain('Pagar en cuotas');
    expect(pageHtml).toContain(`action="/cuotealo/${order.id}"`);
    const paid = await fetch(confirmed.body.cuotealo!, { method: 'POST' });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('Pago aprobado');
    expect((await call<CulqiOrder>('GET', `/v2/orders/${order.id}`, SK)).body.state).toBe('paid');
    const [delivery] = eventsFor(order.id);
    expect(delivery?.authorization).toBe(basic);
    const event = delivery!.event;
    expect(event).toMatchObject({ object: 'event', type: 'order.status.changed' });
    expect(event.id).toMatch(/^evt_test_[A-Za-z0-9]{16}$/);
    expect(typeof event.data).toBe('string');
    expect(JSON.parse(event.data)).toMatchObject({ object: 'order', id: order.id, state: 'paid' });
    expect((await call('GET', `/v2/events/${event.id}`, SK)).body).toEqual(event);
    expect((await call('GET', `/v2/events/${event.id}`, OTHER_SK)).status).toBe(404);
  });

  it('pays through the control API, resends the same event and logs the deliveries', async () => {
    const order = (await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody())).body;
    const reply = await call<EventOutcome>('POST', `/__simulator/orders/${order.id}/pay`, null);
    expect(reply.status).toBe(200);
    expect(reply.body.deliveries).toEqual([{ status: 200, attempt: 1 }]);
    const resent = await call<EventOutcome>('POST', `/__simulator/events/${reply.body.event_id}/resend`, null);
    expect(resent.body).toEqual({ event_id: reply.body.event_id, deliveries: [{ status: 200, attempt: 1 }] });
    const bodies = eventsFor(order.id).map((item) => item.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toBe(bodies[1]);
    const log = (
      await call<{ event_id: string; url: string; status: number; attempt: number }[]>('GET', '/__simulator/events', null)
    ).body;
    expect(log.filter((item) => item.event_id === reply.body.event_id)).toEqual([
      expect.objectContaining({ url: receiverUrl, status: 200, attempt: 1 }),
      expect.objectContaining({ url: receiverUrl, status: 200, attempt: 1 }),
    ]);
    expect((await call('POST', `/__simulator/orders/${order.id}/pay`, null)).status).toBe(409);
    expect((await call('POST', '/__simulator/orders/ord_test_DoesNotExist0000/pay', null)).status).toBe(404);
    const unconfirmed = (await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody({ confirm: false }))).body;
    expect((await call('POST', `/__simulator/orders/${unconfirmed.id}/pay`, null)).status).toBe(409);
  });

  it('tries a failed delivery 3 times in all', async () => {
    const order = (await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody())).body;
    receiverAnswers.push(500, 503);
    const outcome = await sim.payOrder(order.id);
    expect(outcome.deliveries).toEqual([{ status: 500, attempt: 1 }]);
    await waitFor(() => sim.deliveries().filter((item) => item.event_id === outcome.event_id).length === 3);
    const attempts = sim.deliveries().filter((item) => item.event_id === outcome.event_id);
    expect(attempts.map((item) => [item.status, item.attempt])).toEqual([
      [500, 1],
      [503, 2],
      [200, 3],
    ]);
  });

  it('deletes and expires orders, each with its event', async () => {
    const order = (await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody())).body;
    const deleted = await call('DELETE', `/v2/orders/${order.id}`, SK);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: order.id, deleted: true, merchant_message: expect.any(String) as string });
    expect((await call<CulqiOrder>('GET', `/v2/orders/${order.id}`, SK)).body.state).toBe('deleted');
    await waitFor(() => eventsFor(order.id).length === 1);
    expect(JSON.parse(eventsFor(order.id)[0]!.event.data)).toMatchObject({ state: 'deleted' });
    expect((await call<ErrorBody>('DELETE', `/v2/orders/${order.id}`, SK)).body.type).toBe('resource_error');

    const toExpire = (await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody({ confirm: false }))).body;
    const expired = await sim.expireOrder(toExpire.id);
    expect(expired.deliveries).toEqual([{ status: 200, attempt: 1 }]);
    expect((await call<CulqiOrder>('GET', `/v2/orders/${toExpire.id}`, SK)).body.state).toBe('expired');

    const silent = (await call<CulqiOrder>('POST', '/v2/orders', OTHER_SK, orderBody())).body;
    expect((await sim.payOrder(silent.id)).deliveries).toEqual([]);
  });

  it('expires an order by itself once its expiration_date passes', async () => {
    const order = (
      await call<CulqiOrder>('POST', '/v2/orders', SK, orderBody({ expiration_date: Math.floor(Date.now() / 1000) + 2 }))
    ).body;
    await waitFor(() => eventsFor(order.id).length === 1, 4000);
    expect((await call<CulqiOrder>('GET', `/v2/orders/${order.id}`, SK)).body.state).toBe('expired');
  });
});

describe('modes', () => {
  it('answers api_error 500 for both keys of an account set by its public key, others unaffected', async () => {
    expect((await call('POST', '/__simulator/mode', null, { mode: 'errors', key: PK })).status).toBe(200);
    const secret = await call<ErrorBody>('GET', '/v2/charges', SK);
    expect(secret.status).toBe(500);
    expect(secret.body).toMatchObject({ object: 'error', type: 'api_error' });
    expect((await call('POST', '/v2/tokens', PK, { ...CARD, card_number: '4111111111111111' })).status).toBe(500);
    expect((await call('GET', '/v2/charges', OTHER_SK)).status).toBe(200);
    sim.setMode('normal', { key: SK });
    expect((await call('GET', '/v2/charges', SK)).status).toBe(200);
  });

  it('answers limit_api_error 429 when rate limited by secret key', async () => {
    sim.setMode('rate_limited', { key: SK });
    const reply = await call<ErrorBody>('POST', '/v2/tokens', PK, { ...CARD, card_number: '4111111111111111' });
    expect(reply.status).toBe(429);
    expect(reply.body).toMatchObject({ object: 'error', type: 'limit_api_error' });
    sim.setMode('normal', { key: SK });
  });

  it('drops the connection in an outage and answers late when slow', async () => {
    sim.setMode('outage', { key: SK });
    await expect(fetch(`${sim.url}/v2/charges`, { headers: { authorization: `Bearer ${SK}` } })).rejects.toThrow();
    await call('POST', '/__simulator/mode', null, { mode: 'slow', key: SK, delay_ms: 200 });
    const started = Date.now();
    const token = await cardToken('4111111111111111');
    const slow = await charge(token.id);
    expect(slow.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    sim.setMode('normal', { key: SK });
  });
});

describe('control API', () => {
  it('logs whole requests (where a card number went is checked there) and keeps no card number in charges', async () => {
    await cardToken('5111111111111118');
    type Logged = { host: string; path: string; credential: string | null; headers: Record<string, string>; body: string };
    const log = (await call<Logged[]>('GET', '/__simulator/requests', null)).body;
    const token = log.findLast((item) => item.path === '/v2/tokens');
    expect(token).toMatchObject({ host: 'api', credential: PK.slice(0, 12), headers: { authorization: `Bearer ${PK}` } });
    expect(token!.body).toContain('5111111111111118');
    const everything = JSON.stringify([
      sim.charges(),
      sim.orders(),
      sim.deliveries(),
      (await call('GET', '/__simulator/charges', null)).body,
    ]);
    for (const cardNumber of ['4111111111111111', '5111111111111118', ...Object.keys(DECLINE_CARDS)]) {
      expect(everything).not.toContain(cardNumber);
    }
  });

  it('answers on secure.culqi.com only the creation of tokens', async () => {
    const secure = (path: string, key: string, body?: unknown) =>
      fetch(`${sim.secureUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const token = await secure('/v2/tokens', PK, { ...CARD, card_number: '4111111111111111' });
    expect(token.status).toBe(201);
    expect((await secure('/v2/charges', SK)).status).toBe(404);
    const charge = await secure('/v2/charges', SK, { amount: 1000, currency_code: 'PEN', email: 'a@b.pe', source_id: 'x' });
    expect([charge.status, ((await charge.json()) as { type: string }).type]).toEqual([404, 'resource_error']);
    expect(sim.requests.at(-1)).toMatchObject({ host: 'secure', path: '/v2/charges' });
  });

  it('forgets everything on reset', async () => {
    const other = await startCulqiSimulator();
    try {
      other.addAccount({ publicKey: PK, secretKey: SK });
      const post = (path: string) => fetch(`${other.url}${path}`, { method: 'POST' });
      expect((await fetch(`${other.url}/v2/charges`, { headers: { authorization: `Bearer ${SK}` } })).status).toBe(200);
      expect((await post('/__simulator/reset')).status).toBe(200);
      expect((await fetch(`${other.url}/v2/charges`, { headers: { authorization: `Bearer ${SK}` } })).status).toBe(401);
      expect(other.requests).toHaveLength(1);
      expect(other.charges()).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('wrote nothing to the console', () => {
    for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
  });
});
