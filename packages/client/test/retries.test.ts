import { describe, expect, test } from 'vitest';
import { PayApiError, PayNetworkError, type FetchLike } from '../src/index.js';
import { envelope, json, unavailable } from './fake-service.js';
import { chargeBody, clientOnFake, refundBody } from './setup.js';

// Which failures the client replays, how long it waits, and that a replay is the same request.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const charged = json(200, { success: 'true', transaction: { transaction_id: 't-1' } });

describe('a charge answered 503 (database briefly unavailable)', () => {
  test('is sent again after Retry-After with the same Idempotency-Key and body', async () => {
    const { client, service, waits } = clientOnFake();
    service.answer(unavailable(), unavailable(), charged);
    const answer = await client.charges.create(chargeBody);
    expect(answer.transaction.transaction_id).toBe('t-1');
    const [first, ...retries] = service.apiCalls();
    expect(retries).toHaveLength(2);
    expect(first!.headers['idempotency-key']).toMatch(UUID);
    for (const retry of retries) {
      expect(retry.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect(retry.body).toBe(first!.body);
    }
    // Retry-After: 1 is the floor of each wait.
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1000);
  });

  test('ends after maxAttempts with the typed error of the last answer', async () => {
    const { client, service } = clientOnFake({ retry: { maxAttempts: 3 } });
    service.answer(unavailable(), unavailable(), unavailable());
    const error = await client.charges.create(chargeBody).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayApiError);
    expect(error).toMatchObject({ status: 503, code: '02', attempts: 3, retryAfterMs: 1000, requestId: 'req-1' });
    expect(service.apiCalls()).toHaveLength(3);
  });
});

test('every charge and refund call has its own key; a key the caller passes is sent as is', async () => {
  const { client, service } = clientOnFake();
  service.answer(charged, charged, json(200, { success: 'true' }), json(200, { success: 'true' }));
  await client.charges.create(chargeBody);
  await client.charges.create(chargeBody);
  await client.refunds.create(refundBody);
  await client.refunds.create(refundBody, { idempotencyKey: 'order-42-refund' });
  const keys = service.apiCalls().map((call) => call.headers['idempotency-key']);
  expect(new Set(keys).size).toBe(4);
  expect(keys[3]).toBe('order-42-refund');
});

test('429 waits the Retry-After it names', async () => {
  const { client, service, waits } = clientOnFake();
  service.answer(json(429, envelope('50', 'Rate limit exceeded'), { 'retry-after': '3' }), json(200, { success: true }));
  await client.events.list();
  expect(waits).toEqual([3000]);
});

test('a Retry-After longer than the client waits ends the call at once', async () => {
  const { client, service, waits } = clientOnFake({ retry: { maxRetryAfterMs: 5_000 } });
  service.answer(json(429, envelope('50', 'Rate limit exceeded'), { 'retry-after': '120' }));
  await expect(client.events.list()).rejects.toMatchObject({ status: 429, code: '50', retryAfterMs: 120_000, attempts: 1 });
  expect(waits).toEqual([]);
});

test('without Retry-After the waits grow exponentially, with jitter, up to the cap', async () => {
  const { client, service, waits } = clientOnFake({
    retry: { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1000 },
    random: () => 1,
  });
  service.answer(...Array.from({ length: 5 }, () => json(502, 'Bad gateway')), json(200, { success: true }));
  await client.charges.get({ merchant_code: 'DEMO001', merchant_operation_number: 'ord-1', transaction_id: 't-1' });
  expect(waits).toEqual([100, 200, 400, 800, 1000]);
});

test.each([
  [400, '10', 'Invalid request', 'PayInvalidRequestError'],
  [409, '40', 'Request conflicts with an earlier one', 'PayIdempotencyError'],
  [422, '42', 'The payment method does not allow it', 'PayInvalidRequestError'],
  [500, '01', 'Unexpected error', 'PayApiError'],
])('%i is not retried: one attempt, a PayApiError (%s) with meta.status.code', async (status, code, message, name) => {
  const { client, service, waits } = clientOnFake();
  service.answer(
    json(status, envelope(code, message, [{ field: 'payment_details.amount', code: 'invalid_format', message: 'digits only' }])),
  );
  const error = (await client.charges.create(chargeBody).catch((caught: unknown) => caught)) as PayApiError;
  expect(error).toBeInstanceOf(PayApiError);
  expect(error).toMatchObject({ name, status, code, attempts: 1 });
  expect(error.messageIn('es-PE')).toBe(`es: ${message}`);
  expect(error.errors).toEqual([{ field: 'payment_details.amount', code: 'invalid_format', message: 'digits only' }]);
  expect(error.message).toContain(`HTTP ${status} code ${code} ${message} (payment_details.amount: digits only)`);
  expect(service.apiCalls()).toHaveLength(1);
  expect(waits).toEqual([]);
});

describe('no answer at all', () => {
  test('a GET is sent again, and a PayNetworkError ends it when every attempt failed', async () => {
    const { client, service, waits } = clientOnFake();
    service.answer(...Array.from({ length: 4 }, () => ({ networkError: 'ECONNRESET' })));
    const error = (await client.refunds.list().catch((caught: unknown) => caught)) as PayNetworkError;
    expect(error).toBeInstanceOf(PayNetworkError);
    expect(error).not.toBeInstanceOf(PayApiError);
    expect(error.attempts).toBe(4);
    expect(waits).toHaveLength(3);
  });

  test('a charge is sent again with its key after a reset connection', async () => {
    const { client, service } = clientOnFake();
    service.answer({ networkError: 'ECONNRESET' }, charged);
    await client.charges.create(chargeBody);
    const [first, second] = service.apiCalls();
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
  });

  test('a cancellation is sent again (a second DELETE answers the state the first left)', async () => {
    const { client, service } = clientOnFake();
    service.answer({ networkError: 'ECONNREFUSED' }, json(504, 'Gateway timeout'), json(200, { success: true }));
    await client.charges.cancel({ merchant_code: 'DEMO001', merchant_operation_number: 'ord-1' });
    expect(service.apiCalls().map((call) => call.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
  });
});

test("the caller's abort ends the call without a retry", async () => {
  const { client, service } = clientOnFake();
  const controller = new AbortController();
  controller.abort(new Error('caller gave up'));
  service.answer({ networkError: 'aborted' });
  await expect(client.refunds.list({}, { signal: controller.signal })).rejects.toThrow('fetch failed');
  expect(service.apiCalls()).toHaveLength(1);
});

test('an attempt that outlives timeoutMs counts as no answer and is retried', async () => {
  let hung = false;
  // The first call to /events hangs until its own timeout aborts it; the second goes through.
  const hangOnce =
    (fetch: FetchLike): FetchLike =>
    (url, init) => {
      if (hung || !url.endsWith('/events')) return fetch(url, init);
      hung = true;
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error)));
    };
  const { client, service, waits } = clientOnFake({ timeoutMs: 50, wrapFetch: hangOnce });
  service.answer(json(200, { success: true }));
  await client.events.list();
  expect(hung).toBe(true);
  expect(waits).toHaveLength(1);
  expect(service.apiCalls()).toHaveLength(1);
});
