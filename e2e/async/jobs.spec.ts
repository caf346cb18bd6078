import {
  REFUND_DELAY_MS,
  SETTLEMENT_DELAY_MS,
  asyncActor,
  asyncOperator,
  bodyFor,
  chargeOk,
  entryOf,
  expect,
  expectEnvelope,
  expectSigned,
  expectTimes,
  followRefund,
  inspect,
  msOf,
  payerPost,
  payerUrlOf,
  postCharge,
  postRefund,
  queryTransaction,
  refundOf,
  states,
  test,
  transactionOf,
  waitForEvents,
  waitForState,
  cancel,
  listRefunds,
} from './async-helpers';
import { SECONDS_UTC } from '../support/patterns';
import { operationNumber, refundItem, refundBody } from '../support/api-client';
import type { ErrorReply, RefundObject } from '../support/api-types';

// The background jobs (docs/DESIGN.md 6 and 8): expiry, settlement cut-off, refund processing.

const TRANSACTION_EVENTS = ['transaction.registered', 'transaction.pending', 'transaction.authorized'];
const REFUND_EVENTS = ['refund.registered', 'refund.in_process', 'refund.resolved'];

test('expiry: a QR with a 2 s expiry becomes EXPIRADO by itself, is announced, cannot be cancelled, and the payer can try again', async ({
  request,
  receiver,
  pem,
}) => {
  const { merchant, token } = await asyncActor(request, 'JBEX');
  await asyncOperator().setExpirySeconds.mutate({ code: merchant.code, expirySeconds: { QR: 2 } });
  const number = operationNumber('jb-exp');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'QR', { callback_url: receiver.url('/exp') }),
    'PENDIENTE',
  );
  const first = charged.transaction;
  const pendingAt = msOf(entryOf(first.lifecycle, 'PENDIENTE').date);
  expect(msOf(first.expiration_date!)).toBe(pendingAt + 2_000);

  const expired = await waitForState(request, token, merchant.code, number, first.transaction_id, 'EXPIRADO', 4_500);
  expect(states(expired.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'EXPIRADO']);
  expectTimes(expired.transaction.lifecycle, 'millis');
  const expiredAt = msOf(entryOf(expired.transaction.lifecycle, 'EXPIRADO').date);
  expect(expiredAt).toBeGreaterThanOrEqual(msOf(first.expiration_date!));
  expect(expiredAt - msOf(first.expiration_date!)).toBeLessThan(1_500);
  expect(expired.operation.state).toBe('EXPIRADO');

  const arrivals = await waitForEvents(receiver, '/exp', [
    'transaction.registered',
    'transaction.pending',
    'transaction.expired',
  ]);
  const announced = arrivals[2]!;
  expectEnvelope(announced, { merchantCode: merchant.code, number, type: 'transaction.expired', object: 'transaction' });
  expectSigned(announced, pem);
  expect(transactionOf(announced)).toEqual(expired.transaction);

  // Nothing to cancel.
  const refused = await cancel<ErrorReply>(request, token, merchant.code, number);
  expect(refused.status, refused.text).toBe(409);
  expect(refused.body.success).toBe(false);
  expect(refused.body.meta.status.code).toBe('41');

  // The payer tries again: another body on the same operation appends a second transaction.
  const again = await postCharge(
    request,
    token,
    bodyFor(merchant.code, number, 'QR', { callback_url: receiver.url('/exp') }, { amount: '16000' }),
  );
  expect(again.status, again.text).toBe(200);
  const second = again.body.transaction;
  expect(second.transaction_id).not.toBe(first.transaction_id);
  expect(second.state).toBe('PENDIENTE');
  expect(second.amount).toBe('16000');
  expect(states(second.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE']);
  const query = await queryTransaction(request, token, merchant.code, number, second.transaction_id);
  expect(query.operation.transactions.map((item) => [item.transaction_id, item.state])).toEqual([
    [first.transaction_id, 'EXPIRADO'],
    [second.transaction_id, 'PENDIENTE'],
  ]);
  expect(query.operation).toMatchObject({ state: 'PENDIENTE', amount: '16000' });
  const stored = await inspect(merchant.code, number);
  expect(stored.transactions.map((row) => [row.id, row.attempt])).toEqual([
    [first.transaction_id, 1],
    [second.transaction_id, 2],
  ]);
  expect(states(stored.transactions[0]!.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'EXPIRADO']);
});

for (const method of ['CARD', 'YAPE'] as const) {
  test(`settlement: ${method} becomes LIQUIDADO by itself ~3 s after authorization; DELETE after that is 409 41`, async ({
    request,
    receiver,
  }) => {
    const { merchant, token } = await asyncActor(request, `JBS${method.slice(0, 1)}`);
    const number = operationNumber(`jb-set-${method.toLowerCase()}`);
    // YAPE's default callback_url points outside; the receiver keeps the worker off the network.
    const details = method === 'YAPE' ? { callback_url: receiver.url('/set') } : {};
    const charged = await chargeOk(request, token, bodyFor(merchant.code, number, method, details), 'AUTORIZADO');
    const id = charged.transaction.transaction_id;

    const settled = await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
    expect(states(settled.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO']);
    expectTimes(settled.transaction.lifecycle, 'millis');
    expect(settled.transaction.lifecycle.slice(0, 3)).toEqual(charged.transaction.lifecycle);
    const waited =
      msOf(entryOf(settled.transaction.lifecycle, 'LIQUIDADO').date) -
      msOf(entryOf(settled.transaction.lifecycle, 'AUTORIZADO').date);
    expect(waited).toBeGreaterThanOrEqual(SETTLEMENT_DELAY_MS);
    expect(waited).toBeLessThan(SETTLEMENT_DELAY_MS + 2_000);
    expect(settled.operation.state).toBe('LIQUIDADO');
    expect(settled.transaction.processor_response).toEqual(charged.transaction.processor_response);

    const refused = await cancel<ErrorReply>(request, token, merchant.code, number);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.success).toBe(false);
    expect(refused.body.meta.status.code).toBe('41');
    const after = await queryTransaction(request, token, merchant.code, number, id);
    expect(after.transaction).toEqual(settled.transaction);

    const stored = await inspect(merchant.code, number);
    expect(stored.transactions.map((row) => row.state)).toEqual(['LIQUIDADO']);
    expect(states(stored.transactions[0]!.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO']);
    expect(stored.events.map((event) => event.type)).toEqual([...TRANSACTION_EVENTS, 'transaction.settled']);
  });
}

/** The refund's lifecycle as GET /refund shows it: seconds, and each step at least the processing delay after the last. */
function expectRefundLifecycle(refund: RefundObject, expected: string[]) {
  expect(states(refund.lifecycle)).toEqual(expected);
  for (const entry of refund.lifecycle) expect(entry.date.utc_time).toMatch(SECONDS_UTC);
  expectTimes(refund.lifecycle, 'seconds');
  for (let index = 1; index < refund.lifecycle.length; index += 1) {
    expect(refund.lifecycle[index]!.date.unix_time - refund.lifecycle[index - 1]!.date.unix_time).toBeGreaterThanOrEqual(
      REFUND_DELAY_MS / 1000,
    );
  }
}

// The brief: CARD with a callback_url; YAPE as well (its callback_url is in docs/interface.md 2.3).
for (const method of ['CARD', 'YAPE'] as const) {
  test(`refund processing: a settled ${method}'s refund goes REGISTERED, IN_PROCESS, RESOLVED, each announced`, async ({
    request,
    receiver,
    pem,
  }) => {
    const { merchant, token } = await asyncActor(request, `JBR${method.slice(0, 1)}`);
    const number = operationNumber(`jb-ref-${method.toLowerCase()}`);
    const path = `/refund-${method.toLowerCase()}`;
    const charged = await chargeOk(
      request,
      token,
      bodyFor(merchant.code, number, method, { callback_url: receiver.url(path) }),
      'AUTORIZADO',
    );
    const id = charged.transaction.transaction_id;
    await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
    // Events of different aggregates have no mutual order: the settled one is in before the refund starts.
    await waitForEvents(receiver, path, [...TRANSACTION_EVENTS, 'transaction.settled']);

    const requested = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
    expect(requested.status, requested.text).toBe(200);
    const registered = requested.body.operations[0]!;
    expect(registered).toMatchObject({ state: 'REGISTERED', transaction_id: id, refund_amount: '15000', type: 'TOTAL' });
    expectRefundLifecycle(registered, ['REGISTERED']);

    const { refund, list, seen } = await followRefund(request, token, merchant.code, number, registered.refund_id, 'RESOLVED');
    expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
    expect(list.operations_count).toBe('1');
    expectRefundLifecycle(refund, ['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
    expect(refund.lifecycle[0]).toEqual(registered.lifecycle[0]);
    expect(refund.refund_reason).not.toBe(registered.refund_reason);

    const arrivals = await waitForEvents(receiver, path, [...TRANSACTION_EVENTS, 'transaction.settled', ...REFUND_EVENTS]);
    const refundCallbacks = arrivals.slice(4);
    for (const [index, callback] of refundCallbacks.entries()) {
      expectEnvelope(callback, { merchantCode: merchant.code, number, type: REFUND_EVENTS[index]!, object: 'refund' });
      expectSigned(callback, pem);
      const announced = refundOf(callback);
      expect(announced.refund_id).toBe(registered.refund_id);
      expect(announced.state).toBe(['REGISTERED', 'IN_PROCESS', 'RESOLVED'][index]);
      expect(announced.lifecycle).toEqual(refund.lifecycle.slice(0, index + 1));
    }
    expect(refundOf(refundCallbacks[0]!)).toEqual(registered);
    expect(refundOf(refundCallbacks[2]!)).toEqual(refund);

    const stored = await inspect(merchant.code, number);
    expect(stored.refunds.map((row) => row.state)).toEqual(['RESOLVED']);
    const at = stored.refunds[0]!.lifecycle.map((entry) => Date.parse(entry.at));
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(REFUND_DELAY_MS);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(REFUND_DELAY_MS);
    expect(at[2]! - at[0]!).toBeLessThan(2 * REFUND_DELAY_MS + 2_000);
  });
}

test('a refund of card 4000000000005126 ends REJECTED; then a second refund of the same transaction is accepted', async ({
  request,
}) => {
  const { merchant, token } = await asyncActor(request, 'JBRJ');
  const number = operationNumber('jb-rej');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'CARD', { pan: '4000000000005126' }),
    'AUTORIZADO',
  );
  const id = charged.transaction.transaction_id;
  await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);

  const first = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
  expect(first.status, first.text).toBe(200);
  const firstId = first.body.operations[0]!.refund_id;
  // While it is live, a second refund is refused.
  const early = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
  expect(early.status, early.text).toBe(409);
  expect(early.body.meta.status.code).toBe('41');

  const { refund, seen } = await followRefund(request, token, merchant.code, number, firstId, 'REJECTED');
  expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'REJECTED']);
  expectRefundLifecycle(refund, ['REGISTERED', 'IN_PROCESS', 'REJECTED']);
  expect(refund.payment_method).toEqual({ name: 'CARD', brand: 'VISA', masked_pan: '400000******5126' });

  const second = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, null, '15000')]));
  expect(second.status, second.text).toBe(200);
  expect(second.body.operations[0]).toMatchObject({ state: 'REGISTERED', transaction_id: id });
  expect(second.body.operations[0]!.refund_id).not.toBe(firstId);
  const both = await listRefunds(request, token, merchant.code, number);
  expect(both.status, both.text).toBe(200);
  expect(both.body.operations_count).toBe('2');
  expect(both.body.operations.map((item) => item.refund_id).sort()).toEqual(
    [firstId, second.body.operations[0]!.refund_id].sort(),
  );
  expect(both.body.operations.find((item) => item.refund_id === firstId)!.state).toBe('REJECTED');
});

test('a rejected partial refund of card 4000000000005126 gives its amount back to what can be refunded', async ({ request }) => {
  const { merchant, token } = await asyncActor(request, 'JBRP');
  const number = operationNumber('jb-rpart');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'CARD', { pan: '4000000000005126' }),
    'AUTORIZADO',
  );
  const id = charged.transaction.transaction_id;
  await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
  const part = (amount: string) => refundBody(merchant.code, [refundItem(number, id, amount, { type: 'PARTIAL' })]);

  const first = await postRefund(request, token, part('9000'));
  expect(first.status, first.text).toBe(200);
  // 6000 is left while the first is live.
  expect((await postRefund(request, token, part('6001'))).status).toBe(409);
  const { seen } = await followRefund(request, token, merchant.code, number, first.body.operations[0]!.refund_id, 'REJECTED');
  expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'REJECTED']);

  const whole = await postRefund(request, token, part('15000'));
  expect(whole.status, whole.text).toBe(200);
  expect(whole.body.operations[0]).toMatchObject({ type: 'PARTIAL', refund_amount: '15000', state: 'REGISTERED' });
  expect((await inspect(merchant.code, number)).transactions[0]!.refundedAmount).toBe('15000');
});

test('a settled CUOTEALO (paid on the payer page) can be refunded', async ({ request, receiver }) => {
  const { merchant, token } = await asyncActor(request, 'JBCU');
  const number = operationNumber('jb-cuo');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'CUOTEALO', { callback_url: receiver.url('/cuo') }, { amount: '24000' }),
    'PENDIENTE',
  );
  const id = charged.transaction.transaction_id;
  const paid = await payerPost(request, payerUrlOf(charged.transaction), 'pay', { installments: '3' });
  expect(paid.status).toBe(303);
  await waitForState(request, token, merchant.code, number, id, 'AUTORIZADO', 2_000);
  const settled = await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
  expect(states(settled.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO']);

  const requested = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '24000')]));
  expect(requested.status, requested.text).toBe(200);
  expect(requested.body.operations[0]).toMatchObject({
    state: 'REGISTERED',
    transaction_id: id,
    refund_amount: '24000',
    transaction_amount: '24000',
    currency: '604',
    payment_method: { name: 'CUOTEALO' },
  });
  const { seen } = await followRefund(request, token, merchant.code, number, requested.body.operations[0]!.refund_id, 'RESOLVED');
  expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
});

test('DELETE of an AUTORIZADO BANK_TRANSFER (paid on the payer page, before settlement) is 422 42; it settles anyway', async ({
  request,
  receiver,
}) => {
  const { merchant, token } = await asyncActor(request, 'JBBT');
  const number = operationNumber('jb-bt');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'BANK_TRANSFER', { callback_url: receiver.url('/bt') }),
    'PENDIENTE',
  );
  const id = charged.transaction.transaction_id;
  const paid = await payerPost(request, payerUrlOf(charged.transaction), 'pay');
  expect(paid.status).toBe(303);

  const refused = await cancel<ErrorReply>(request, token, merchant.code, number);
  expect(refused.status, refused.text).toBe(422);
  expect(refused.body.success).toBe(false);
  expect(refused.body.meta.status.code).toBe('42');
  const after = await queryTransaction(request, token, merchant.code, number, id);
  expect(after.transaction.state).toBe('AUTORIZADO');
  expect(states(after.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);

  const settled = await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
  expect(states(settled.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO']);
  const late = await cancel<ErrorReply>(request, token, merchant.code, number);
  expect(late.status, late.text).toBe(409);
  expect(late.body.meta.status.code).toBe('41');
});
