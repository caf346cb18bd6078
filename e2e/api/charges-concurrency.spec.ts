import { expect, test } from '../support/contract';
import { chargeBody, operationNumber, cancel, postCharge } from '../support/api-client';
import { eventTypesOf, expectError, newActor, stored } from './charges-helpers';

// Concurrent requests on one operation (docs/DESIGN.md 6): identical requests wait for the first and
// get its answer; different ones conflict; a cancellation and a charge run one after the other.

test.describe.configure({ timeout: 120_000 });

for (const [method, count] of [
  ['CARD', 50],
  ['QR', 20],
] as const) {
  test(`${count} concurrent identical ${method} POSTs: all 200 with one identical body, one stored transaction`, async ({
    request,
  }) => {
    const { merchant, token } = await newActor(request, 'CON');
    const number = operationNumber('same');
    const body = chargeBody(merchant.code, number, method);
    const replies = await Promise.all(Array.from({ length: count }, () => postCharge(request, token, body)));
    expect(replies.map((reply) => reply.status)).toEqual(Array<number>(count).fill(200));
    const texts = new Set(replies.map((reply) => reply.text));
    expect(texts.size, [...texts].join('\n').slice(0, 2000)).toBe(1);
    const first = replies[0]!.body;
    expect(first.transaction.state).toBe(method === 'CARD' ? 'AUTORIZADO' : 'PENDIENTE');

    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
      [first.transaction.transaction_id, 1, first.transaction.state],
    ]);
    expect(rows.transactions[0]!.lifecycle).toHaveLength(first.transaction.lifecycle.length);
    expect(rows.events).toHaveLength(first.transaction.lifecycle.length);
  });
}

test('20 concurrent POSTs of one new operation with different amounts: one 200, nineteen 409 code 40, one transaction', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'CON');
  const number = operationNumber('diff');
  const replies = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      postCharge(request, token, chargeBody(merchant.code, number, 'CARD', { amount: String(10_000 + index) })),
    ),
  );
  const winners = replies.filter((reply) => reply.status === 200);
  const losers = replies.filter((reply) => reply.status !== 200);
  expect(winners, replies.map((reply) => `${reply.status} ${reply.text.slice(0, 200)}`).join('\n')).toHaveLength(1);
  expect(losers).toHaveLength(19);
  for (const loser of losers) expectError(loser, 409, '40', 'string');

  const winner = winners[0]!.body;
  expect(winner.transaction.state).toBe('AUTORIZADO');
  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.id, row.attempt, row.amount, row.state])).toEqual([
    [winner.transaction.transaction_id, 1, winner.transaction.amount, 'AUTORIZADO'],
  ]);
  expect(eventTypesOf(rows, winner.transaction.transaction_id)).toEqual([
    'transaction.authorized',
    'transaction.pending',
    'transaction.registered',
  ]);
  expect(rows.events).toHaveLength(3);
});

test('10 concurrent identical retries after DENEGADO append exactly one second transaction', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'CON');
  const number = operationNumber('retry');
  const declined = await postCharge(
    request,
    token,
    chargeBody(merchant.code, number, 'CARD', { details: { pan: '4000000000000002' } }),
  );
  expect(declined.status, declined.text).toBe(200);
  expect(declined.body.transaction.state).toBe('DENEGADO');

  const retry = chargeBody(merchant.code, number, 'CARD');
  const replies = await Promise.all(Array.from({ length: 10 }, () => postCharge(request, token, retry)));
  expect(replies.map((reply) => reply.status)).toEqual(Array<number>(10).fill(200));
  expect(new Set(replies.map((reply) => reply.text)).size).toBe(1);
  const approved = replies[0]!.body.transaction;
  expect(approved.state).toBe('AUTORIZADO');
  expect(approved.transaction_id).not.toBe(declined.body.transaction.transaction_id);

  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
    [declined.body.transaction.transaction_id, 1, 'DENEGADO'],
    [approved.transaction_id, 2, 'AUTORIZADO'],
  ]);
  expect(rows.events).toHaveLength(6);
});

test('a DELETE racing a second charge of a PENDIENTE QR operation: CANCELADO, the charge refused, one transaction', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'RAC');
  // A few rounds, so that either order of arrival is exercised.
  for (let round = 0; round < 5; round += 1) {
    const number = operationNumber(`race${round}`);
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'QR'));
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body.transaction.state).toBe('PENDIENTE');

    const other = chargeBody(merchant.code, number, 'QR', { amount: '15001' });
    const [cancelled, second] = await Promise.all([
      cancel(request, token, merchant.code, number),
      postCharge(request, token, other),
    ]);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.operation.state).toBe('CANCELADO');
    expect(cancelled.body.operation.transactions.map((transaction) => transaction.transaction_id)).toEqual([
      charged.body.transaction.transaction_id,
    ]);
    expectError(second, 409, '40', 'string');

    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.id, row.attempt, row.amount, row.state])).toEqual([
      [charged.body.transaction.transaction_id, 1, '15000', 'CANCELADO'],
    ]);
    expect(rows.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'CANCELADO']);
    expect(eventTypesOf(rows, charged.body.transaction.transaction_id)).toEqual([
      'transaction.cancelled',
      'transaction.pending',
      'transaction.registered',
    ]);
  }
});

test('10 concurrent DELETEs of an AUTORIZADO CARD operation: all 200 EXTORNADO, one reversal stored', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'RAC');
  const number = operationNumber('revs');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  expect(charged.status, charged.text).toBe(200);

  const replies = await Promise.all(Array.from({ length: 10 }, () => cancel(request, token, merchant.code, number)));
  expect(replies.map((reply) => reply.status)).toEqual(Array<number>(10).fill(200));
  expect(replies.map((reply) => reply.body.operation.state)).toEqual(Array<string>(10).fill('EXTORNADO'));
  expect(new Set(replies.map((reply) => reply.text)).size).toBe(1);
  expect(replies[0]!.body.operation.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual([
    'REGISTRADO',
    'PENDIENTE',
    'AUTORIZADO',
    'EXTORNADO',
  ]);

  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.attempt, row.state, row.lifecycle.length])).toEqual([[1, 'EXTORNADO', 4]]);
  expect(rows.events.filter((event) => event.type === 'transaction.reversed')).toHaveLength(1);
  expect(rows.events).toHaveLength(4);
});
