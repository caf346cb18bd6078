import { createPublicKey } from 'node:crypto';
import {
  API,
  CALLBACK_TIMEOUT_MS,
  RETRY_MIN_MS,
  SETTLEMENT_DELAY_MS,
  asyncActor,
  asyncOperator,
  atPath,
  bodyFor,
  chargeOk,
  deliveryOutcomes,
  entryOf,
  eventTypes,
  expect,
  expectEnvelope,
  expectSigned,
  firstArrivals,
  inspect,
  msOf,
  queryTransaction,
  storedEvent,
  test,
  transactionOf,
  until,
  verifies,
  waitForEvents,
  waitForStored,
} from './async-helpers';
import { operationNumber } from '../support/api-client';

// Signed callbacks (docs/DESIGN.md 9): body, signature, order, retries, time-outs, failure and resend.

const REGISTERED = 'transaction.registered';
const PENDING = 'transaction.pending';
const AUTHORIZED = 'transaction.authorized';
const SETTLED = 'transaction.settled';
// The receivers run on this machine: a private destination, of whose answer only the status is
// kept (what it said would let a merchant read the service's own network).
const OK = { statusCode: 200, error: null, responseSnippet: '', manual: false };
const DOWN = { statusCode: 500, error: 'HTTP 500', responseSnippet: '', manual: false };

test('GET {base_url}/webhooks/public-key is the RSA public key as PEM, without any header', async ({ request }) => {
  const response = await request.get(`${API}/webhooks/public-key`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/x-pem-file');
  const pem = await response.text();
  expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n(?:[A-Za-z0-9+/=]{1,64}\n)+-----END PUBLIC KEY-----\n?$/);
  const key = createPublicKey(pem);
  expect(key.type).toBe('public');
  expect(key.asymmetricKeyType).toBe('rsa');
  expect(key.asymmetricKeyDetails?.modulusLength).toBeGreaterThanOrEqual(2048);
  // The same key on every read (receivers cache it), named as callbacks name it, and in the key set.
  expect(await (await request.get(`${API}/webhooks/public-key`)).text()).toBe(pem);
  const kid = response.headers()['key-id']!;
  expect(kid).toMatch(/^[0-9a-f]{16}$/);
  const set = (await (await request.get(`${API}/webhooks/keys`)).json()) as { keys: Record<string, unknown>[] };
  expect(set.keys).toContainEqual(
    expect.objectContaining({ kid, kty: 'RSA', alg: 'RS512', use: 'sig', status: 'active', retires_at: null, pem }),
  );
});

// The brief and docs/interface.md 2.7 (CARD queries return callback_url) say CARD carries a callback_url;
// YAPE is the other synchronously authorized method and carries one per docs/interface.md 2.3.
for (const method of ['CARD', 'YAPE'] as const) {
  test(`${method} with callback_url: registered, pending, authorized, then settled, each signed and as the query shows it`, async ({
    request,
    receiver,
    pem,
  }) => {
    const { merchant, token } = await asyncActor(request, `CB${method.slice(0, 2)}`);
    const number = operationNumber(`cb-${method.toLowerCase()}`);
    const path = `/${method.toLowerCase()}`;
    const charged = await chargeOk(
      request,
      token,
      bodyFor(merchant.code, number, method, { callback_url: receiver.url(path) }),
      'AUTORIZADO',
    );
    const transactionId = charged.transaction.transaction_id;

    const arrivals = await waitForEvents(receiver, path, [REGISTERED, PENDING, AUTHORIZED]);
    const moves = ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'];
    for (const [index, callback] of arrivals.entries()) {
      expectEnvelope(callback, {
        merchantCode: merchant.code,
        number,
        type: eventTypes(arrivals)[index]!,
        object: 'transaction',
      });
      expectSigned(callback, pem);
      const transaction = transactionOf(callback);
      expect(transaction.transaction_id).toBe(transactionId);
      expect(transaction.state).toBe(moves[index]);
      // The lifecycle as of that move: the first index+1 entries of the charge's lifecycle.
      expect(transaction.lifecycle).toEqual(charged.transaction.lifecycle.slice(0, index + 1));
    }

    // docs/DESIGN.md 9: the transaction object as the query endpoints return it.
    const authorized = await queryTransaction(request, token, merchant.code, number, transactionId);
    expect(authorized.transaction.state).toBe('AUTORIZADO');
    expect(transactionOf(arrivals[2]!)).toEqual(authorized.transaction);

    // The settlement cut-off (3 s in this service) moves it to LIQUIDADO and announces it.
    const [settledCallback] = (await waitForEvents(receiver, path, [REGISTERED, PENDING, AUTHORIZED, SETTLED], 10_000)).slice(3);
    expectEnvelope(settledCallback!, { merchantCode: merchant.code, number, type: SETTLED, object: 'transaction' });
    expectSigned(settledCallback!, pem);
    const settled = transactionOf(settledCallback!);
    expect(settled.state).toBe('LIQUIDADO');
    expect(settled.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO']);
    const waited = msOf(entryOf(settled.lifecycle, 'LIQUIDADO').date) - msOf(entryOf(settled.lifecycle, 'AUTORIZADO').date);
    expect(waited).toBeGreaterThanOrEqual(SETTLEMENT_DELAY_MS);
    expect(waited).toBeLessThan(SETTLEMENT_DELAY_MS + 2_000);
    const query = await queryTransaction(request, token, merchant.code, number, transactionId);
    expect(settled).toEqual(query.transaction);
    // Each event went out once (the receiver answered 200 at once).
    expect(atPath(receiver, path)).toHaveLength(4);

    // Stored: four events in order, each delivered on its first attempt, with the body the receiver got.
    const stored = await waitForStored('four delivered events', merchant.code, number, (row) =>
      row.events.every((event) => event.status === 'DELIVERED'),
    );
    expect(stored.events.map((event) => event.type)).toEqual([REGISTERED, PENDING, AUTHORIZED, SETTLED]);
    for (const [index, event] of stored.events.entries()) {
      expect(event).toMatchObject({
        status: 'DELIVERED',
        attempts: 1,
        aggregateId: transactionId,
        callbackUrl: receiver.url(path),
      });
      expect(deliveryOutcomes(event)).toEqual([{ number: 1, ...OK }]);
      const received = firstArrivals(receiver, path)[index]!;
      expect(received.json.event_id).toBe(event.id);
      expect(received.json).toEqual(event.payload);
    }
  });
}

test('a receiver answering 500 twice: delivered on attempt 3 with the same signed bytes; later events of the transaction wait for it', async ({
  request,
  receiver,
  pem,
}) => {
  const { merchant, token } = await asyncActor(request, 'CBRT');
  const number = operationNumber('cb-retry');
  receiver.respond('/flaky', (attempt) => (attempt <= 2 ? 500 : 200));
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'YAPE', { callback_url: receiver.url('/flaky') }),
    'AUTORIZADO',
  );

  await waitForEvents(receiver, '/flaky', [REGISTERED, PENDING, AUTHORIZED], 15_000);
  // (The settlement's event may follow 3 s after the authorization: only the first five are pinned.)
  const all = atPath(receiver, '/flaky').slice(0, 5);
  // Registered three times (500, 500, 200), and only then pending and authorized: seq order per transaction.
  expect(eventTypes(all)).toEqual([REGISTERED, REGISTERED, REGISTERED, PENDING, AUTHORIZED]);
  const [first, second, third] = all;
  expect(new Set(all.slice(0, 3).map((callback) => callback.json.event_id)).size).toBe(1);
  expect(third!.body).toBe(first!.body);
  expect(second!.body).toBe(first!.body);
  for (const callback of all) expectSigned(callback, pem);
  expect(verifies(third!.body, first!.signature, pem)).toBe(true);
  // Backoff of 1 s (±10 %) between attempts.
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(RETRY_MIN_MS);
  expect(third!.at - second!.at).toBeGreaterThanOrEqual(RETRY_MIN_MS);
  expect(third!.at - first!.at).toBeLessThan(6_000);
  expect(transactionOf(all[3]!).lifecycle).toEqual(charged.transaction.lifecycle.slice(0, 2));

  const stored = await waitForStored('registered, pending and authorized delivered', merchant.code, number, (row) =>
    row.events.slice(0, 3).every((event) => event.status === 'DELIVERED'),
  );
  const registered = storedEvent(stored, REGISTERED);
  expect(registered).toMatchObject({ status: 'DELIVERED', attempts: 3, lastError: null });
  expect(registered.deliveredAt).not.toBeNull();
  expect(deliveryOutcomes(registered)).toEqual([
    { number: 1, ...DOWN },
    { number: 2, ...DOWN },
    { number: 3, ...OK },
  ]);
  for (const type of [PENDING, AUTHORIZED]) {
    const event = storedEvent(stored, type);
    expect(event).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect(deliveryOutcomes(event)).toEqual([{ number: 1, ...OK }]);
  }
});

test('a receiver that never answers: the attempt ends at 3000 ms and is retried, and another merchant is not held back', async ({
  request,
  receiver,
  pem,
}) => {
  const slow = await asyncActor(request, 'CBHG');
  const healthy = await asyncActor(request, 'CBOK');
  receiver.respond('/hang', () => 'hang');
  const slowNumber = operationNumber('cb-hang');
  const healthyNumber = operationNumber('cb-ok');

  await chargeOk(
    request,
    slow.token,
    bodyFor(slow.merchant.code, slowNumber, 'QR', { callback_url: receiver.url('/hang') }),
    'PENDIENTE',
  );
  await receiver.waitFor((received) => received.some((callback) => callback.path === '/hang'), 10_000);
  const hangStarted = atPath(receiver, '/hang')[0]!.at;
  expect(atPath(receiver, '/hang')[0]!.json.event_type).toBe(REGISTERED);

  // While the first attempt hangs, the other merchant's three callbacks arrive.
  await chargeOk(
    request,
    healthy.token,
    bodyFor(healthy.merchant.code, healthyNumber, 'YAPE', { callback_url: receiver.url('/ok') }),
    'AUTORIZADO',
  );
  const healthyArrivals = await waitForEvents(receiver, '/ok', [REGISTERED, PENDING, AUTHORIZED], 5_000);
  for (const callback of healthyArrivals) {
    expectSigned(callback, pem);
    expect(callback.at - hangStarted).toBeLessThan(CALLBACK_TIMEOUT_MS);
  }
  const during = await inspect(slow.merchant.code, slowNumber);
  const inFlight = storedEvent(during, REGISTERED);
  expect(inFlight).toMatchObject({ status: 'PENDING', attempts: 0 });
  expect(inFlight.deliveries).toEqual([]);

  // The attempt is cut at the time-out, recorded, and retried after the backoff.
  await receiver.waitFor(() => atPath(receiver, '/hang').length >= 2, 10_000);
  const hanging = atPath(receiver, '/hang');
  expect(hanging[1]!.json.event_id).toBe(hanging[0]!.json.event_id);
  expect(hanging[1]!.body).toBe(hanging[0]!.body);
  expect(hanging[1]!.at - hanging[0]!.at).toBeGreaterThanOrEqual(CALLBACK_TIMEOUT_MS + RETRY_MIN_MS);

  const stored = await waitForStored('two timed-out attempts', slow.merchant.code, slowNumber, (row) =>
    row.events.some((event) => event.type === REGISTERED && event.deliveries.length >= 2),
  );
  const registered = storedEvent(stored, REGISTERED);
  expect(registered.status).toBe('PENDING');
  expect(registered.attempts).toBeGreaterThanOrEqual(2);
  expect(registered.lastError).toBe(`no answer within ${CALLBACK_TIMEOUT_MS} ms`);
  for (const [index, delivery] of registered.deliveries.slice(0, 2).entries()) {
    expect(delivery).toMatchObject({
      number: index + 1,
      statusCode: null,
      error: `no answer within ${CALLBACK_TIMEOUT_MS} ms`,
      responseSnippet: '',
      manual: false,
    });
    expect(delivery.latencyMs).toBeGreaterThanOrEqual(CALLBACK_TIMEOUT_MS - 50);
    expect(delivery.latencyMs).toBeLessThan(CALLBACK_TIMEOUT_MS + 1_000);
  }
  // The transaction's next event waits behind it: nothing but the registered event reached /hang.
  expect(new Set(atPath(receiver, '/hang').map((callback) => callback.json.event_type))).toEqual(new Set([REGISTERED]));
  expect(storedEvent(stored, PENDING)).toMatchObject({ status: 'PENDING', attempts: 0, deliveries: [] });

  const healthyStored = await inspect(healthy.merchant.code, healthyNumber);
  expect(healthyStored.events.slice(0, 3).map((event) => [event.type, event.status, event.attempts])).toEqual([
    [REGISTERED, 'DELIVERED', 1],
    [PENDING, 'DELIVERED', 1],
    [AUTHORIZED, 'DELIVERED', 1],
  ]);
});

test('a receiver that always answers 500: FAILED after 4 attempts; a manual resend then delivers it', async ({
  request,
  receiver,
  pem,
}) => {
  const { merchant, token } = await asyncActor(request, 'CBFL');
  const number = operationNumber('cb-fail');
  let answer = 500;
  receiver.respond('/down', () => answer);
  await chargeOk(request, token, bodyFor(merchant.code, number, 'QR', { callback_url: receiver.url('/down') }), 'PENDIENTE');

  const failed = await waitForStored(
    'registered event FAILED',
    merchant.code,
    number,
    (row) => row.events.some((event) => event.type === REGISTERED && event.status === 'FAILED'),
    15_000,
  );
  const registered = storedEvent(failed, REGISTERED);
  expect(registered).toMatchObject({ status: 'FAILED', attempts: 4, lastError: 'HTTP 500', deliveredAt: null });
  expect(deliveryOutcomes(registered)).toEqual([1, 2, 3, 4].map((n) => ({ number: n, ...DOWN })));
  const attempts = () => atPath(receiver, '/down').filter((callback) => callback.json.event_id === registered.id);
  expect(attempts()).toHaveLength(4);

  // No fifth automatic attempt: the pending event goes next (its turn came when registered gave up).
  await until(
    'the pending event attempted after the failed one',
    async () => atPath(receiver, '/down'),
    (all) => all.some((callback) => callback.json.event_type === PENDING),
    5_000,
  );
  expect(attempts()).toHaveLength(4);
  expect(eventTypes(atPath(receiver, '/down')).slice(0, 4)).toEqual([REGISTERED, REGISTERED, REGISTERED, REGISTERED]);

  answer = 200;
  const resent = await asyncOperator().resendEvent.mutate({ eventId: registered.id });
  expect(resent).toEqual({
    id: registered.id,
    status: 'DELIVERED',
    attempts: 5,
    deliveries: [{ number: 5, statusCode: 200, latencyMs: expect.any(Number) as unknown, error: null, manual: true }],
  });
  expect(attempts()).toHaveLength(5);
  const [firstAttempt] = attempts();
  const manual = attempts()[4]!;
  expect(manual.body).toBe(firstAttempt!.body);
  expectSigned(manual, pem);

  const after = await inspect(merchant.code, number);
  const delivered = storedEvent(after, REGISTERED);
  expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: 5, lastError: null });
  expect(delivered.deliveredAt).not.toBeNull();
  expect(deliveryOutcomes(delivered)).toEqual([
    ...[1, 2, 3, 4].map((n) => ({ number: n, ...DOWN })),
    { number: 5, statusCode: 200, error: null, responseSnippet: '', manual: true },
  ]);
  // The receiver now answers 200: the pending event gets through on its own.
  const pending = await waitForStored('pending event delivered', merchant.code, number, (row) =>
    row.events.some((event) => event.type === PENDING && event.status === 'DELIVERED'),
  );
  expect(storedEvent(pending, PENDING).deliveries.at(-1)).toMatchObject({ statusCode: 200, manual: false });
});
