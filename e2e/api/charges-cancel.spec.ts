import { expect, test } from '../support/contract';
import { chargeBody, operationNumber, cancel, getTransaction, postCharge } from '../support/api-client';
import { settleNow } from '../support/service';
import {
  eventTypesOf,
  expectError,
  expectLifecycle,
  expectSuccessMeta,
  expectTimeObject,
  instantOf,
  newActor,
  snapshot,
  stored,
  toSeconds,
} from './charges-helpers';
import { type TransactionObject } from '../support/api-types';

// DELETE /charges/{merchant_code}/{merchant_operation_number} (docs/interface.md 3.1, 4.4; docs/DESIGN.md 6).

const TEXT = expect.stringMatching(/\S/);

/** The cancellation body of one-transaction operation `number` whose transaction moved to `state`. */
function cancellation(merchantCode: string, number: string, transaction: Record<string, unknown>, state: string) {
  return {
    success: true,
    merchant_code: merchantCode,
    merchant_operation_number: number,
    operation: {
      merchant_operation_number: number,
      state,
      amount: '15000',
      currency: '604',
      created_at: expect.anything(),
      transactions: [transaction],
    },
    meta: expect.anything(),
  };
}

/** The lifecycle of `charged` in seconds, then one entry for `state`. */
function movedLifecycle(charged: TransactionObject, state: string) {
  return [
    ...charged.lifecycle.map((entry) => ({ state: entry.state, date: toSeconds(entry.date) })),
    { state, date: expect.anything() },
  ];
}

for (const method of ['BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] as const) {
  test(`a PENDIENTE ${method} operation is CANCELADO: 200, created_at, lifecycle, nulls, stored rows and event`, async ({
    request,
  }) => {
    const { merchant, token } = await newActor(request, 'CAN');
    const number = operationNumber('can');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, method));
    expect(charged.status, charged.text).toBe(200);
    const transaction = charged.body.transaction;
    expect(transaction.state).toBe('PENDIENTE');

    const from = Date.now();
    const { status, body, text } = await cancel(request, token, merchant.code, number);
    const to = Date.now();
    expect(status, text).toBe(200);
    expect(body).toEqual(
      cancellation(
        merchant.code,
        number,
        {
          transaction_id: transaction.transaction_id,
          channel: 'ecommerce',
          state: 'CANCELADO',
          state_reason: TEXT,
          amount: '15000',
          currency: '604',
          payment_method: transaction.payment_method,
          expiration_date: null,
          processor_response: null,
          additional_fields: transaction.additional_fields,
          lifecycle: movedLifecycle(transaction, 'CANCELADO'),
        },
        'CANCELADO',
      ),
    );
    expect(text).toContain('"success":true');
    expectSuccessMeta(body.meta);
    const cancelled = body.operation.transactions[0]!;
    expectLifecycle(cancelled.lifecycle, ['REGISTRADO', 'PENDIENTE', 'CANCELADO'], 'seconds');
    expectLifecycle(cancelled.lifecycle.slice(-1), ['CANCELADO'], 'seconds', { from, to });
    const createdAt = expectTimeObject(body.operation.created_at, 'seconds');
    expect(Math.abs(instantOf(createdAt) - instantOf(transaction.lifecycle[0]!.date))).toBeLessThanOrEqual(1500);

    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
      [transaction.transaction_id, 1, 'CANCELADO'],
    ]);
    expect(rows.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'CANCELADO']);
    expect(rows.transactions[0]!.lifecycle.slice(0, 2).map((entry) => entry.at)).toEqual(
      transaction.lifecycle.map((entry) => entry.date.utc_time),
    );
    expect(eventTypesOf(rows, transaction.transaction_id)).toEqual([
      'transaction.cancelled',
      'transaction.pending',
      'transaction.registered',
    ]);

    // The query then shows CANCELADO in millis time objects.
    const query = await getTransaction(request, token, merchant.code, number, transaction.transaction_id);
    expect(query.status, query.text).toBe(200);
    expect(query.body.operation.state).toBe('CANCELADO');
    const queried = query.body.operation.transactions[0]!;
    expect(queried).toMatchObject({ state: 'CANCELADO', expiration_date: null, processor_response: null });
    expect(queried.continue_url).toBeUndefined();
    expectLifecycle(queried.lifecycle, ['REGISTRADO', 'PENDIENTE', 'CANCELADO'], 'millis');
    expect(queried.lifecycle.map((entry) => toSeconds(entry.date))).toEqual(cancelled.lifecycle.map((entry) => entry.date));
  });
}

for (const method of ['CARD', 'YAPE'] as const) {
  test(`an AUTORIZADO ${method} operation is EXTORNADO, keeping the authorization and adding reverse data`, async ({
    request,
  }) => {
    const { merchant, token } = await newActor(request, 'REV');
    const number = operationNumber('rev');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, method));
    expect(charged.status, charged.text).toBe(200);
    const transaction = charged.body.transaction;
    expect(transaction.state).toBe('AUTORIZADO');

    const from = Date.now();
    const { status, body, text } = await cancel(request, token, merchant.code, number);
    const to = Date.now();
    expect(status, text).toBe(200);
    expect(body).toEqual(
      cancellation(
        merchant.code,
        number,
        {
          transaction_id: transaction.transaction_id,
          channel: 'ecommerce',
          state: 'EXTORNADO',
          state_reason: TEXT,
          amount: '15000',
          currency: '604',
          payment_method: transaction.payment_method,
          expiration_date: null,
          processor_response: {
            ...transaction.processor_response,
            reverse_code: TEXT,
            reverse_date: TEXT,
          },
          additional_fields: transaction.additional_fields,
          lifecycle: movedLifecycle(transaction, 'EXTORNADO'),
        },
        'EXTORNADO',
      ),
    );
    expectSuccessMeta(body.meta);
    const reversed = body.operation.transactions[0]!;
    expect(reversed.processor_response?.authorization_code).toBe(transaction.processor_response?.authorization_code);
    expect(reversed.processor_response?.authorization_code).toMatch(/^\d{6}$/);
    expectLifecycle(reversed.lifecycle, ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'EXTORNADO'], 'seconds');
    expectLifecycle(reversed.lifecycle.slice(-1), ['EXTORNADO'], 'seconds', { from, to });
    const reverseDate = String(reversed.processor_response?.reverse_date);
    expect(reverseDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}Z)?$/);
    const reverseAt = Date.parse(reverseDate.endsWith('Z') ? reverseDate : `${reverseDate}Z`);
    expect(Math.abs(reverseAt - instantOf(reversed.lifecycle[3]!.date))).toBeLessThanOrEqual(1000);
    expectTimeObject(body.operation.created_at, 'seconds');

    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
      [transaction.transaction_id, 1, 'EXTORNADO'],
    ]);
    expect(rows.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual([
      'REGISTRADO',
      'PENDIENTE',
      'AUTORIZADO',
      'EXTORNADO',
    ]);
    expect(eventTypesOf(rows, transaction.transaction_id)).toEqual([
      'transaction.authorized',
      'transaction.pending',
      'transaction.registered',
      'transaction.reversed',
    ]);
  });
}

for (const [method, state] of [
  ['QR', 'CANCELADO'],
  ['CARD', 'EXTORNADO'],
] as const) {
  test(`a second DELETE of a ${state} operation answers 200 with the same state and changes nothing`, async ({ request }) => {
    const { merchant, token } = await newActor(request, 'TWI');
    const number = operationNumber('twice');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, method));
    expect(charged.status, charged.text).toBe(200);
    const first = await cancel(request, token, merchant.code, number);
    expect(first.status, first.text).toBe(200);
    expect(first.body.operation.state).toBe(state);
    const before = await snapshot(merchant.code, number);

    const second = await cancel(request, token, merchant.code, number);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.body.operation.transactions[0]!.lifecycle).toHaveLength(state === 'CANCELADO' ? 3 : 4);

    const after = await snapshot(merchant.code, number);
    expect(after).toEqual(before);
    expect(after.transactions[0]!.lifecycle.at(-1)!.state).toBe(state);
    expect(
      after.events.filter((event) => event.type === `transaction.${state === 'CANCELADO' ? 'cancelled' : 'reversed'}`),
    ).toHaveLength(1);
  });
}

test('after CANCELADO, a POST with another body is 409 code 40 and appends nothing', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'CAN');
  const number = operationNumber('canpost');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'BANK_TRANSFER'));
  expect(charged.status, charged.text).toBe(200);
  const cancelled = await cancel(request, token, merchant.code, number);
  expect(cancelled.status, cancelled.text).toBe(200);
  const before = await snapshot(merchant.code, number);
  expectError(await postCharge(request, token, chargeBody(merchant.code, number, 'CARD')), 409, '40', 'string');
  expect(await snapshot(merchant.code, number)).toEqual(before);
});

test('DELETE of a DENEGADO operation is 409 code 41 and changes nothing', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'DEN');
  const number = operationNumber('den');
  const charged = await postCharge(
    request,
    token,
    chargeBody(merchant.code, number, 'CARD', { details: { pan: '4000000000000002' } }),
  );
  expect(charged.status, charged.text).toBe(200);
  expect(charged.body.transaction.state).toBe('DENEGADO');
  const before = await snapshot(merchant.code, number);
  expectError(await cancel(request, token, merchant.code, number), 409, '41', 'boolean');
  expect(await snapshot(merchant.code, number)).toEqual(before);
});

test('DELETE after settlement (LIQUIDADO) is 409 code 41 and changes nothing', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'LIQ');
  const number = operationNumber('liq');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  expect(charged.status, charged.text).toBe(200);
  expect(await settleNow(merchant.code)).toBe(1);

  const query = await getTransaction(request, token, merchant.code, number, charged.body.transaction.transaction_id);
  expect(query.status, query.text).toBe(200);
  expect(query.body.operation.state).toBe('LIQUIDADO');
  expectLifecycle(
    query.body.operation.transactions[0]!.lifecycle,
    ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO'],
    'millis',
  );
  const before = await snapshot(merchant.code, number);
  expect(eventTypesOf(before, charged.body.transaction.transaction_id)).toContain('transaction.settled');

  expectError(await cancel(request, token, merchant.code, number), 409, '41', 'boolean');
  expect(await snapshot(merchant.code, number)).toEqual(before);
});

test('DELETE of an unknown operation is 404 code 30', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'UNK');
  expectError(await cancel(request, token, merchant.code, operationNumber('never')), 404, '30', 'boolean');
});

test("DELETE of another merchant's operation with your token is 403 code 21 and changes nothing", async ({ request }) => {
  const mine = await newActor(request, 'CAN');
  const theirs = await newActor(request, 'CAO');
  const number = operationNumber('canoth');
  const charged = await postCharge(request, theirs.token, chargeBody(theirs.merchant.code, number, 'QR'));
  expect(charged.status, charged.text).toBe(200);
  const before = await snapshot(theirs.merchant.code, number);
  expectError(await cancel(request, mine.token, theirs.merchant.code, number), 403, '21', 'boolean');
  expect(await snapshot(theirs.merchant.code, number)).toEqual(before);
  expect(before.transactions[0]!.state).toBe('PENDIENTE');
});

test('after a DENEGADO CARD, a QR retry makes the operation PENDIENTE; DELETE cancels the latest and lists both', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'MIX');
  const number = operationNumber('mix');
  const declined = await postCharge(
    request,
    token,
    chargeBody(merchant.code, number, 'CARD', { details: { pan: '4000000000000002' } }),
  );
  expect(declined.status, declined.text).toBe(200);
  expect(declined.body.transaction.state).toBe('DENEGADO');
  const pending = await postCharge(request, token, chargeBody(merchant.code, number, 'QR', { amount: '12000' }));
  expect(pending.status, pending.text).toBe(200);
  expect(pending.body.transaction.state).toBe('PENDIENTE');

  const query = await getTransaction(request, token, merchant.code, number, declined.body.transaction.transaction_id);
  expect(query.status, query.text).toBe(200);
  expect(query.body.operation).toEqual({
    merchant_operation_number: number,
    state: 'PENDIENTE',
    amount: '12000',
    currency: '604',
    transactions: [declined.body.transaction, pending.body.transaction],
  });

  const { status, body, text } = await cancel(request, token, merchant.code, number);
  expect(status, text).toBe(200);
  expect(body.operation).toMatchObject({
    merchant_operation_number: number,
    state: 'CANCELADO',
    amount: '12000',
    currency: '604',
  });
  expect(body.operation.transactions.map((transaction) => [transaction.transaction_id, transaction.state])).toEqual([
    [declined.body.transaction.transaction_id, 'DENEGADO'],
    [pending.body.transaction.transaction_id, 'CANCELADO'],
  ]);
  const [first, second] = body.operation.transactions;
  expect(first!.lifecycle).toEqual(
    declined.body.transaction.lifecycle.map((entry) => ({ state: entry.state, date: toSeconds(entry.date) })),
  );
  expect(first!.processor_response).toEqual(declined.body.transaction.processor_response);
  expectLifecycle(second!.lifecycle, ['REGISTRADO', 'PENDIENTE', 'CANCELADO'], 'seconds');

  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.attempt, row.state])).toEqual([
    [1, 'DENEGADO'],
    [2, 'CANCELADO'],
  ]);
  expect(eventTypesOf(rows, pending.body.transaction.transaction_id)).toEqual([
    'transaction.cancelled',
    'transaction.pending',
    'transaction.registered',
  ]);
});
