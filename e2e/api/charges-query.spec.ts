import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/contract';
import { chargeBody, operationNumber, getTransaction, postCharge } from '../support/api-client';
import { expectError, expectLifecycle, expectSuccessMeta, expectTimeObject, newActor, stored } from './charges-helpers';

// GET /charges/{merchant_code}/{merchant_operation_number}/{transaction_id} (docs/interface.md 4.3, 2.9).

test('a CARD transaction: 200, boolean success, the operation without created_at, the transaction as POST answered it', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'QRY');
  const number = operationNumber('qcard');
  const charged = await postCharge(
    request,
    token,
    chargeBody(merchant.code, number, 'CARD', { amount: '4990', currency: '840' }),
  );
  expect(charged.status, charged.text).toBe(200);
  const transaction = charged.body.transaction;

  const { status, body, text } = await getTransaction(request, token, merchant.code, number, transaction.transaction_id);
  expect(status, text).toBe(200);
  expect(body).toEqual({
    success: true,
    merchant_code: merchant.code,
    operation: {
      merchant_operation_number: number,
      state: 'AUTORIZADO',
      amount: '4990',
      currency: '840',
      transactions: [transaction],
    },
    meta: expect.anything(),
  });
  expect(text).toContain('"success":true');
  expect((body.operation as Record<string, unknown>).created_at).toBeUndefined();
  expectSuccessMeta(body.meta);
  const queried = body.operation.transactions[0]!;
  expectLifecycle(queried.lifecycle, ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'], 'millis');
  // The interface's only query addition for CARD (redirect_url, callback_url) has nothing to show here.
  expect(Object.keys(queried.payment_method.method_details ?? {}).sort()).toEqual(
    ['bin', 'brand', 'card_country', 'card_type', 'installments', 'issuer', 'last_pan', 'masked_pan'].sort(),
  );
  expect(text).not.toContain('4111111111111111');
});

test('a PENDIENTE QR transaction: the query shows the same transaction, expiry and QR data in millis time objects', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'QRY');
  const number = operationNumber('qqr');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'QR', { amount: '1200' }));
  expect(charged.status, charged.text).toBe(200);
  const transaction = charged.body.transaction;
  expect(transaction.state).toBe('PENDIENTE');

  const { status, body, text } = await getTransaction(request, token, merchant.code, number, transaction.transaction_id);
  expect(status, text).toBe(200);
  expect(body).toEqual({
    success: true,
    merchant_code: merchant.code,
    operation: {
      merchant_operation_number: number,
      state: 'PENDIENTE',
      amount: '1200',
      currency: '604',
      transactions: [transaction],
    },
    meta: expect.anything(),
  });
  expectSuccessMeta(body.meta);
  const queried = body.operation.transactions[0]!;
  expectTimeObject(queried.expiration_date, 'millis');
  expectLifecycle(queried.lifecycle, ['REGISTRADO', 'PENDIENTE'], 'millis');
  expect(queried.processor_response?.result_message.code).toBe('0');

  // A query changes nothing.
  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.attempt, row.state, row.lifecycle.length])).toEqual([[1, 'PENDIENTE', 2]]);
  expect(rows.events).toHaveLength(2);
});

test('the transaction id in upper case finds the same transaction', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'QRY');
  const number = operationNumber('qup');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  expect(charged.status, charged.text).toBe(200);
  const { status, body, text } = await getTransaction(
    request,
    token,
    merchant.code,
    number,
    charged.body.transaction.transaction_id.toUpperCase(),
  );
  expect(status, text).toBe(200);
  expect(body.operation.transactions).toEqual([charged.body.transaction]);
});

test('an unknown transaction id (a random UUID) is 404 code 30', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'QRY');
  const number = operationNumber('qunk');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  expect(charged.status, charged.text).toBe(200);
  expectError(await getTransaction(request, token, merchant.code, number, randomUUID()), 404, '30', 'boolean');
});

test('a transaction id of another operation of the same merchant is 404 code 30', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'QRY');
  const one = operationNumber('qa');
  const two = operationNumber('qb');
  const first = await postCharge(request, token, chargeBody(merchant.code, one, 'CARD'));
  const second = await postCharge(request, token, chargeBody(merchant.code, two, 'QR'));
  expect(first.status, first.text).toBe(200);
  expect(second.status, second.text).toBe(200);
  expectError(
    await getTransaction(request, token, merchant.code, one, second.body.transaction.transaction_id),
    404,
    '30',
    'boolean',
  );
});

test('a transaction id that is not a UUID is 404 code 30', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'QRY');
  const number = operationNumber('qnon');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  expect(charged.status, charged.text).toBe(200);
  expectError(await getTransaction(request, token, merchant.code, number, 'not-a-uuid'), 404, '30', 'boolean');
  expectError(await getTransaction(request, token, merchant.code, number, '12345'), 404, '30', 'boolean');
});

test('an unknown operation is 404 code 30', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'QRY');
  expectError(await getTransaction(request, token, merchant.code, operationNumber('never'), randomUUID()), 404, '30', 'boolean');
});

test("another merchant's operation with your token is 403 code 21", async ({ request }) => {
  const mine = await newActor(request, 'QRY');
  const theirs = await newActor(request, 'QRO');
  const number = operationNumber('qoth');
  const charged = await postCharge(request, theirs.token, chargeBody(theirs.merchant.code, number, 'CARD'));
  expect(charged.status, charged.text).toBe(200);

  const result = await getTransaction(request, mine.token, theirs.merchant.code, number, charged.body.transaction.transaction_id);
  expectError(result, 403, '21', 'boolean');
  expect(result.text).not.toContain(charged.body.transaction.transaction_id);

  // The same operation number under your own merchant does not exist.
  expectError(
    await getTransaction(request, mine.token, mine.merchant.code, number, charged.body.transaction.transaction_id),
    404,
    '30',
    'boolean',
  );
});
