import { expect, test } from 'vitest';
import { json } from './fake-service.js';
import { chargeBody, clientOnFake, refundBody } from './setup.js';

// Each method's request: method, path (segments encoded), query, headers, body.

test('each endpoint is called as the OpenAPI document says', async () => {
  const { client, service } = clientOnFake({ facilitatorCode: 'FAC1' });
  for (let index = 0; index < 8; index++) service.answer(json(200, { success: true }));
  await client.charges.create(chargeBody, { requestId: 'my-request' });
  await client.charges.get({ merchant_code: 'DEMO001', merchant_operation_number: 'a/b c', transaction_id: 't-1' });
  await client.charges.cancel({ merchant_code: 'DEMO001', merchant_operation_number: 'ord-1' });
  await client.refunds.create(refundBody);
  await client.refunds.list({ state: 'REGISTERED', start_date: '2026-01-01', merchant_code: undefined });
  await client.refunds.getByOperation({ merchant_code: 'DEMO001', merchant_operation_number: 'ord-1' });
  await client.events.list({ type: 'transaction.authorized', limit: '2' });
  await client.charges.capture({ merchant_code: 'DEMO001', merchant_operation_number: 'ord-2' }, { amount: '9000' });
  const calls = service.apiCalls();
  expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
    'POST https://pay.test/api/charges',
    'GET https://pay.test/api/charges/DEMO001/a%2Fb%20c/t-1',
    'DELETE https://pay.test/api/charges/DEMO001/ord-1',
    'POST https://pay.test/api/refund',
    'GET https://pay.test/api/refund?state=REGISTERED&start_date=2026-01-01',
    'GET https://pay.test/api/refund/DEMO001/ord-1',
    'GET https://pay.test/api/events?type=transaction.authorized&limit=2',
    'POST https://pay.test/api/charges/DEMO001/ord-2/capture',
  ]);
  expect(JSON.parse(calls[7]!.body!)).toEqual({ amount: '9000' });
  expect(JSON.parse(calls[0]!.body!)).toEqual(chargeBody);
  expect(calls[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'x-request-id': 'my-request' });
  expect(JSON.parse(calls[3]!.body!)).toEqual(refundBody);
  // The facilitator header goes where the document lists it: refunds, queries, cancellation, events, captures.
  expect(calls.map((call) => call.headers['payment-facilitator-code'] ?? null)).toEqual([
    null,
    'FAC1',
    'FAC1',
    'FAC1',
    'FAC1',
    'FAC1',
    'FAC1',
    'FAC1',
  ]);
  // Charges, refunds and captures carry a key; queries and the cancellation need none to be replayed.
  expect(calls.map((call) => 'idempotency-key' in call.headers)).toEqual([true, false, false, true, false, false, false, true]);
});

test('events.all follows next_cursor from page to page', async () => {
  const { client, service } = clientOnFake();
  const page = (ids: string[], next: string | null) =>
    json(200, { success: true, merchant_code: 'DEMO001', events: ids.map((event_id) => ({ event_id })), next_cursor: next });
  service.answer(page(['e1', 'e2'], 'c1'), page(['e3', 'e4'], 'c2'), page(['e5'], null));
  const ids: string[] = [];
  for await (const event of client.events.all({ limit: '2' })) ids.push(event.event_id);
  expect(ids).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
  expect(service.apiCalls().map((call) => new URL(call.url).search)).toEqual([
    '?limit=2',
    '?limit=2&cursor=c1',
    '?limit=2&cursor=c2',
  ]);
});

test('refunds.pages follows next_cursor and stops on a page without one', async () => {
  const { client, service } = clientOnFake();
  service.answer(
    json(200, { success: 'true', operations: [{ refund_id: 'r1' }], next_cursor: 'c1' }),
    json(200, { success: 'true', operations: [{ refund_id: 'r2' }] }),
  );
  const refunds: string[] = [];
  for await (const page of client.refunds.pages({ merchant_code: 'DEMO001' }))
    refunds.push(...page.operations.map((r) => r.refund_id));
  expect(refunds).toEqual(['r1', 'r2']);
});

test('a 2xx that is not JSON (a proxy page, a wrong base URL) is an error, not a success', async () => {
  const { client, service } = clientOnFake();
  service.answer(() => new Response('<html>hello</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
  await expect(client.events.list()).rejects.toMatchObject({ name: 'PayApiError', status: 200, body: '<html>hello</html>' });
});
