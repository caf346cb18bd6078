import { contractOf, expect, test } from '../support/contract';
import { describeViolation } from '../support/openapi-contract';
import { operationNumber } from '../support/api-client';
import { startReceiver } from '../support/receiver';
import { Webhook } from 'standardwebhooks';
import {
  AUTH_URL,
  BASE_URL,
  createMerchant,
  operatorConsole,
  settleNow,
  storedOperation,
  type TestMerchant,
} from '../support/service';
import {
  constructEvent,
  createPayClient,
  fetchCallbackPublicKey,
  PayApiError,
  PayWebhookSignatureError,
  verifyCallbackSignature,
  type ChargeRequest,
  type FetchLike,
  type PayClientOptions,
  type PayEvent,
  type PaymentMethod,
} from '../../packages/client/src/index';

// The SDK (packages/client) against the running service: the whole flow through it, its typed
// errors, its replays with the same Idempotency-Key, its token renewal and a real callback's
// signature. Every answer it reads is also checked against the service's OpenAPI document.

type Sent = { method: string; url: string; headers: Headers; body: string | undefined };

/** fetch that records what the SDK sent and checks every answer against the document. */
function recordingFetch(sent: Sent[], violations: string[]): FetchLike {
  return async (url, init) => {
    sent.push({
      method: init.method ?? 'GET',
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const response = await fetch(url, init);
    const exchange = {
      method: init.method ?? 'GET',
      url,
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: Buffer.from(await response.clone().arrayBuffer()),
    };
    const problems = (await contractOf()).check(exchange);
    if (problems.length > 0) violations.push(describeViolation(exchange, problems));
    return response;
  };
}

/** A client of a new merchant, its requests recorded; fails the test if an answer breaks the document. */
function sdkFor(merchant: TestMerchant, options: Partial<PayClientOptions> & { wrap?: (fetch: FetchLike) => FetchLike } = {}) {
  const sent: Sent[] = [];
  const violations: string[] = [];
  const recorded = recordingFetch(sent, violations);
  const client = createPayClient({
    baseUrl: BASE_URL,
    authUrl: AUTH_URL,
    clientId: merchant.clientId,
    clientSecret: merchant.clientSecret,
    scopes: ['post:charges', 'get:charges', 'delete:charges', 'get:events'],
    // Short waits: the suite's service answers fast, and a test should not sleep seconds.
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
    ...options,
    fetch: options.wrap ? options.wrap(recorded) : recorded,
  });
  const apiCalls = () => sent.filter((call) => !call.url.startsWith(AUTH_URL));
  const tokenCalls = () => sent.filter((call) => call.url === `${AUTH_URL}/token`);
  return { client, sent, apiCalls, tokenCalls, violations };
}

const person = { first_name: 'Ana', last_name: 'Quispe', email: 'ana.quispe@example.pe' };

function chargeOf(merchantCode: string, paymentMethod: PaymentMethod, amount = '15000'): ChargeRequest {
  return {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: merchantCode,
    merchant_operation_number: operationNumber('sdk'),
    payment_method: paymentMethod,
    payment_details: { amount, currency: '604', billing: person, shipping: person, customer: person, product_details: [] },
  };
}

const card = (details: Partial<{ pan: string; callback_url: string }> = {}): PaymentMethod => ({
  method_name: 'CARD',
  method_details: { pan: '4111111111111111', expiry_date: '1230', security_code: '123', ...details },
});
const yape: PaymentMethod = {
  method_name: 'YAPE',
  method_details: { phone: { country_code: '+51', subscriber: '987654321' }, otp: '123456' },
};
const bankTransfer: PaymentMethod = {
  method_name: 'BANK_TRANSFER',
  method_details: { redirect_url: 'https://merchant.example/return', callback_url: 'https://merchant.example/callbacks' },
};

async function failureOf(call: Promise<unknown>): Promise<PayApiError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PayApiError);
  return error as PayApiError;
}

test('the whole flow: token, charges, query, cancellation, refund and its queries, events by cursor', async () => {
  const merchant = await createMerchant('SDK');
  const { client, apiCalls, tokenCalls, violations } = sdkFor(merchant);

  const authorized = await client.charges.create(chargeOf(merchant.code, card()));
  expect(authorized.transaction.state).toBe('AUTORIZADO');
  expect(authorized.transaction.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);

  const queried = await client.charges.get({
    merchant_code: merchant.code,
    merchant_operation_number: authorized.merchant_operation_number,
    transaction_id: authorized.transaction.transaction_id,
  });
  expect(queried.operation.transactions.map((transaction) => transaction.transaction_id)).toEqual([
    authorized.transaction.transaction_id,
  ]);

  const pending = await client.charges.create(chargeOf(merchant.code, bankTransfer));
  expect(pending.transaction.state).toBe('PENDIENTE');
  expect(pending.transaction.continue_url).toMatch(/^http:\/\/localhost:\d+\/pay\//);
  const operation = { merchant_code: merchant.code, merchant_operation_number: pending.merchant_operation_number };
  const cancelled = await client.charges.cancel(operation);
  expect(cancelled.operation.state).toBe('CANCELADO');
  // The reason the SDK may replay a DELETE: a second one answers the state the first left.
  expect((await client.charges.cancel(operation)).operation.state).toBe('CANCELADO');

  const paid = await client.charges.create(chargeOf(merchant.code, yape));
  expect(paid.transaction.state).toBe('AUTORIZADO');
  expect(await settleNow(merchant.code)).toBe(2);
  const refund = await client.refunds.create({
    merchant_code: merchant.code,
    operations: [
      {
        type: 'TOTAL',
        merchant_operation_number: paid.merchant_operation_number,
        transaction_id: null,
        refund_amount: '15000',
        additional_fields: { canal: 'web', reason: 'cliente', description: 'talla equivocada' },
      },
    ],
  });
  expect(refund.operations.map((item) => [item.state, item.transaction_id])).toEqual([
    ['REGISTERED', paid.transaction.transaction_id],
  ]);
  const listed = await client.refunds.list({ merchant_code: merchant.code, state: 'REGISTERED' });
  expect(listed.operations.map((item) => item.refund_id)).toEqual([refund.operations[0]!.refund_id]);
  const ofOperation = await client.refunds.getByOperation({
    merchant_code: merchant.code,
    merchant_operation_number: paid.merchant_operation_number,
  });
  expect(ofOperation.operations_count).toBe('1');

  // Events: one page of everything, then the same by pages of two through the cursor.
  const everything = await client.events.list();
  expect(everything.next_cursor).toBeNull();
  expect(everything.events.length).toBeGreaterThan(4);
  const pages = [];
  for await (const page of client.events.pages({ limit: '2' })) pages.push(page);
  expect(pages.length).toBe(Math.ceil(everything.events.length / 2));
  const paged: PayEvent[] = pages.flatMap((page) => page.events);
  expect(paged.map((event) => event.event_id)).toEqual(everything.events.map((event) => event.event_id));
  const authorizedEvents = [];
  for await (const event of client.events.all({ type: 'transaction.authorized', limit: '1' })) authorizedEvents.push(event);
  expect(authorizedEvents.map((event) => event.merchant_operation_number)).toEqual([
    authorized.merchant_operation_number,
    paid.merchant_operation_number,
  ]);

  // One token for all of it; every call with the version header; a key on each charge and refund.
  expect(tokenCalls()).toHaveLength(1);
  for (const call of apiCalls()) {
    expect(call.headers.get('ALG-API-VERSION')).toBe('1709847567');
    expect(call.headers.get('authorization')).toMatch(/^Bearer /);
    expect(call.headers.has('idempotency-key')).toBe(call.method === 'POST');
  }
  const keys = apiCalls()
    .filter((call) => call.method === 'POST')
    .map((call) => call.headers.get('idempotency-key'));
  expect(new Set(keys).size).toBe(4);
  expect(violations).toEqual([]);
});

test('refusals are PayApiErrors carrying meta.status.code, sent once', async () => {
  const merchant = await createMerchant('SDKE');
  const { client, apiCalls, violations } = sdkFor(merchant);

  const invalid = await failureOf(client.charges.create(chargeOf(merchant.code, card(), '15.00')));
  expect(invalid).toMatchObject({ status: 400, code: '10', attempts: 1 });
  expect(invalid.errors.map((error) => error.field)).toContain('payment_details.amount');
  expect(invalid.messageIn('en-US')).toBe('Invalid request');
  expect(invalid.messageIn('es-PE')).toBe('Solicitud inválida');
  expect(invalid.requestId).toMatch(/\S/);

  const missing = await failureOf(
    client.charges.get({ merchant_code: merchant.code, merchant_operation_number: 'nope', transaction_id: crypto.randomUUID() }),
  );
  expect(missing).toMatchObject({ status: 404, code: '30' });

  const authorized = await client.charges.create(chargeOf(merchant.code, card()));
  const notSettled = await failureOf(
    client.refunds.create({
      merchant_code: merchant.code,
      operations: [
        {
          type: 'TOTAL',
          merchant_operation_number: authorized.merchant_operation_number,
          transaction_id: authorized.transaction.transaction_id,
          refund_amount: '15000',
          additional_fields: { canal: 'web', reason: 'r', description: 'd' },
        },
      ],
    }),
  );
  expect(notSettled).toMatchObject({ status: 409, code: '41' });
  // 400, 404, 409: none retried (one attempt each, plus the charge that succeeded).
  expect(apiCalls()).toHaveLength(4);

  const stranger = sdkFor({ ...merchant, clientSecret: 'not-the-secret-000000' });
  const refused = await failureOf(stranger.client.events.list());
  expect(refused).toMatchObject({ status: 401, oauthError: 'invalid_client', attempts: 1 });
  expect(refused.message).not.toContain('not-the-secret');
  expect([...violations, ...stranger.violations]).toEqual([]);
});

test('a charge whose answer was lost (503, then a reset) is replayed with its key: one payment', async () => {
  const merchant = await createMerchant('SDKR');
  let lost = 0;
  // The request reaches the service; its answer is replaced, as by a proxy that failed after.
  const loseTwoAnswers =
    (fetch: FetchLike): FetchLike =>
    async (url, init) => {
      const response = await fetch(url, init);
      if (!url.endsWith('/charges') || lost >= 2) return response;
      lost += 1;
      if (lost === 2) throw new TypeError('fetch failed: socket hang up');
      return new Response(JSON.stringify({ success: 'false', meta: { status: { code: '02', message_ilgn: [] } }, errors: [] }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
      });
    };
  const retries: number[] = [];
  const { client, apiCalls, violations } = sdkFor(merchant, {
    wrap: loseTwoAnswers,
    onRetry: (event) => retries.push(event.delayMs),
  });
  const body = chargeOf(merchant.code, card());
  const answer = await client.charges.create(body);
  expect(answer.transaction.state).toBe('AUTORIZADO');
  const keys = apiCalls().map((call) => call.headers.get('idempotency-key'));
  expect(keys).toHaveLength(3);
  expect(new Set(keys).size).toBe(1);
  expect(retries[0]).toBeGreaterThanOrEqual(1000);
  const stored = await storedOperation(merchant.code, body.merchant_operation_number);
  expect(stored.transactions.map((transaction) => transaction.id)).toEqual([answer.transaction.transaction_id]);

  // The same key with another body is the caller's mistake: 409 40, not retried.
  const reused = await failureOf(
    client.charges.create({ ...body, merchant_operation_number: operationNumber('sdk') }, { idempotencyKey: keys[0]! }),
  );
  expect(reused).toMatchObject({ status: 409, code: '40', attempts: 1 });
  expect(violations).toEqual([]);
});

test('tokens: renewed before they expire, and once when the service refuses one', async () => {
  const merchant = await createMerchant('SDKT');
  const clock = { skew: 0 };
  let spoil = false;
  // A refused token, as after a key rotation: the next API call carries a token the service never issued.
  const spoilOnce =
    (fetch: FetchLike): FetchLike =>
    (url, init) => {
      if (!spoil || url.startsWith(AUTH_URL)) return fetch(url, init);
      spoil = false;
      const headers = new Headers(init.headers);
      headers.set('authorization', `${headers.get('authorization')}x`);
      return fetch(url, { ...init, headers });
    };
  const { client, tokenCalls, apiCalls, violations } = sdkFor(merchant, { wrap: spoilOnce, now: () => Date.now() + clock.skew });
  await client.events.list();
  await client.events.list();
  expect(tokenCalls()).toHaveLength(1);
  clock.skew = 600_000; // the suite's tokens live 600 s: this one is due for renewal
  await client.events.list();
  expect(tokenCalls()).toHaveLength(2);
  spoil = true;
  await client.events.list();
  expect(tokenCalls()).toHaveLength(3);
  const spoiled = apiCalls().map((call) => call.headers.get('authorization')!.endsWith('x'));
  expect(spoiled).toEqual([false, false, false, true, false]);
  expect(violations).toEqual([]);
});

test('a real callback verifies with the published key; a changed one does not', async () => {
  const merchant = await createMerchant('SDKC');
  const receiver = await startReceiver();
  try {
    const { client, violations } = sdkFor(merchant);
    const charge = await client.charges.create(chargeOf(merchant.code, card({ callback_url: receiver.url('/sdk') })));
    const [callback] = (
      await receiver.waitFor((all) => all.some((item) => item.json.event_type === 'transaction.authorized'))
    ).filter((item) => item.json.event_type === 'transaction.authorized');
    expect(callback!.json.merchant_operation_number).toBe(charge.merchant_operation_number);
    const keyId = callback!.keyId;
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(await client.callbacks.verify(callback!.body, callback!.signature, { keyId })).toBe(true);
    expect(await client.callbacks.verify(callback!.body.replace('AUTORIZADO', 'CANCELADO'), callback!.signature, { keyId })).toBe(
      false,
    );

    // A receiver without API credentials: the keys from the public endpoint, the verifier alone.
    const keys = await client.callbacks.keys();
    expect(verifyCallbackSignature(callback!.body, callback!.signature, keys, keyId)).toBe(true);
    // The key signing now, as PEM, for a receiver that keeps one key (the console may rotate it meanwhile).
    expect(await fetchCallbackPublicKey(BASE_URL)).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(violations).toEqual([]);
  } finally {
    await receiver.close();
  }
});

test("a webhook endpoint's deliveries verify with the SDK's constructEvent and the reference library; a tampered, rotated-out or old one is refused", async () => {
  const merchant = await createMerchant('SDKW');
  const receiver = await startReceiver();
  try {
    const endpoints = operatorConsole().webhooks;
    const made = await endpoints.create.mutate({
      merchantCode: merchant.code,
      url: receiver.url('/endpoint'),
      eventTypes: ['*'],
      description: 'SDK',
    });
    const { client } = sdkFor(merchant);
    // No callback_url: the events go to the endpoint.
    const charge = await client.charges.create(chargeOf(merchant.code, card()));
    const isAuthorized = (item: { json: Record<string, unknown> }) => item.json.event_type === 'transaction.authorized';
    const delivery = (await receiver.waitFor((all) => all.some(isAuthorized))).find(isAuthorized)!;

    const message = constructEvent(delivery.body, delivery.headers, made.secret);
    expect(message.action).toBe('notify');
    if (message.action !== 'notify' || !('transaction' in message)) throw new Error('a transaction event was expected');
    // Typed by the document: no cast to read the transaction.
    expect([message.event_type, message.transaction.state, message.merchant_operation_number]).toEqual([
      'transaction.authorized',
      'AUTORIZADO',
      charge.merchant_operation_number,
    ]);
    expect(delivery.headers['webhook-id']).toBe(message.event_id);
    expect(new Webhook(made.secret).verify(delivery.body, delivery.headers)).toEqual(message);

    // Tampered, or more than five minutes old where it arrives: refused by both.
    const tampered = delivery.body.replace('AUTORIZADO', 'CANCELADO');
    expect(() => constructEvent(tampered, delivery.headers, made.secret)).toThrow(PayWebhookSignatureError);
    expect(() => new Webhook(made.secret).verify(tampered, delivery.headers)).toThrow('No matching signature found');
    const later = new Date(Date.now() + 6 * 60_000);
    expect(() => constructEvent(delivery.body, delivery.headers, made.secret, { now: later })).toThrow('too old');

    // Rotated at once: a test delivery signed only by the new secret; the old one no longer verifies it.
    const rotated = await endpoints.rotateSecret.mutate({ id: made.id, overlapHours: 0 });
    const { testId } = await endpoints.sendTest.mutate({ id: made.id });
    const probe = (await receiver.waitFor((all) => all.some((item) => item.json.test_id === testId))).find(
      (item) => item.json.test_id === testId,
    )!;
    expect(constructEvent(probe.body, probe.headers, rotated.secret)).toMatchObject({ action: 'test', test_id: testId });
    expect(() => constructEvent(probe.body, probe.headers, made.secret)).toThrow('no signature matches');
    expect(() => new Webhook(made.secret).verify(probe.body, probe.headers)).toThrow('No matching signature found');
  } finally {
    await receiver.close();
  }
});
