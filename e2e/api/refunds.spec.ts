import { expect, test } from '../support/contract';
import type { ErrorReply, RefundObject, RefundReply } from '../support/api-types';
import { SECONDS_UTC, UUID } from '../support/patterns';
import { type APIRequestContext } from '@playwright/test';
import {
  charge,
  chargeBody,
  headers,
  tokenFor,
  type MethodName,
  refund,
  refundBody,
  refundItem,
  type RefundItem,
} from '../support/api-client';
import { BASE_URL, createMerchant, settleNow, storedOperation } from '../support/service';
import { chargeOne, expectError, expectMeta, type Charged } from './auth-helpers';

// POST /refund (docs/interface.md 4.5, 2.10, 3.2; docs/DESIGN.md 7 and 10).

async function setup(request: APIRequestContext, prefix: string) {
  const merchant = await createMerchant(prefix);
  const token = await tokenFor(request, merchant);
  return { merchant, token };
}

/** A charge through `method` that the settlement cut-off moved to LIQUIDADO (when it can). */
async function settledCharge(request: APIRequestContext, token: string, merchantCode: string, method: MethodName = 'CARD') {
  const charged = await chargeOne(request, token, merchantCode, method);
  await settleNow(merchantCode);
  return charged;
}

/** The refund object of 2.10 for a CARD charge of 4111111111111111, registered a moment ago. */
function expectRefundObject(refund: RefundObject, charged: Charged, item: RefundItem) {
  expect(Object.keys(refund).sort()).toEqual(
    [
      'additional_fields',
      'currency',
      'lifecycle',
      'merchant_operation_number',
      'payment_method',
      'refund_amount',
      'refund_id',
      'refund_reason',
      'state',
      'transaction_amount',
      'transaction_id',
      'type',
    ].sort(),
  );
  expect(refund.refund_id).toMatch(UUID);
  expect(refund.state).toBe('REGISTERED');
  expect(typeof refund.refund_reason).toBe('string');
  expect(refund.refund_reason.length).toBeGreaterThan(0);
  expect(refund.type).toBe('TOTAL');
  expect(refund.merchant_operation_number).toBe(charged.number);
  expect(refund.transaction_id).toBe(charged.transactionId);
  expect(refund.refund_amount).toBe(charged.amount);
  expect(refund.transaction_amount).toBe(charged.amount);
  expect(refund.currency).toBe('604');
  expect(refund.payment_method).toEqual({ name: 'CARD', brand: 'VISA', masked_pan: '411111******1111' });
  expect(refund.additional_fields).toEqual(item.additional_fields);
  expect(refund.lifecycle).toHaveLength(1);
  const [entry] = refund.lifecycle;
  expect(entry!.state).toBe('REGISTERED');
  expect(entry!.date.utc_time).toMatch(SECONDS_UTC);
  expect(Number.isInteger(entry!.date.unix_time)).toBe(true);
  expect(Date.parse(`${entry!.date.utc_time}Z`) / 1000).toBe(entry!.date.unix_time);
  expect(Math.abs(entry!.date.unix_time - Date.now() / 1000)).toBeLessThan(120);
}

async function expectRefundAnswer(response: Awaited<ReturnType<typeof refund>>, merchantCode: string) {
  const text = await response.text();
  expect(response.status(), text).toBe(200);
  const body = JSON.parse(text) as RefundReply;
  expect(Object.keys(body).sort()).toEqual(['action', 'merchant_code', 'meta', 'operations', 'success']);
  expect(body.success).toBe('true');
  expect(body.action).toBe('refund');
  expect(body.merchant_code).toBe(merchantCode);
  expectMeta(body.meta, '00');
  return body;
}

async function refundsOfOperation(request: APIRequestContext, token: string, merchantCode: string, number: string) {
  const response = await request.get(`${BASE_URL}/refund/${merchantCode}/${number}`, { headers: headers(token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { operations_count: string; operations: RefundObject[] };
}

async function expectNoRefund(request: APIRequestContext, token: string, merchantCode: string, charged: Charged) {
  const listed = await refundsOfOperation(request, token, merchantCode, charged.number);
  expect(listed.operations_count).toBe('0');
  expect(listed.operations).toEqual([]);
  expect((await storedOperation(merchantCode, charged.number)).refunds).toEqual([]);
}

test.describe('registering refunds', () => {
  test('a settled CARD transaction is refunded by transaction_id', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RF');
    const charged = await settledCharge(request, token, merchant.code);
    expect((await storedOperation(merchant.code, charged.number)).transactions.map((row) => row.state)).toEqual(['LIQUIDADO']);
    const item = refundItem(charged.number, charged.transactionId);
    const body = await expectRefundAnswer(await refund(request, token, refundBody(merchant.code, [item])), merchant.code);
    expect(body.operations).toHaveLength(1);
    expectRefundObject(body.operations[0]!, charged, item);

    const stored = await storedOperation(merchant.code, charged.number);
    expect(stored.refunds.map((row) => [row.id, row.state])).toEqual([[body.operations[0]!.refund_id, 'REGISTERED']]);
    expect(stored.refunds[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTERED']);
    // The transaction itself stays LIQUIDADO.
    expect(stored.transactions.map((row) => row.state)).toEqual(['LIQUIDADO']);
  });

  test('transaction_id null refunds the LIQUIDADO transaction of the operation', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFN');
    const charged = await settledCharge(request, token, merchant.code);
    const item = refundItem(charged.number, null);
    const body = await expectRefundAnswer(await refund(request, token, refundBody(merchant.code, [item])), merchant.code);
    expect(body.operations).toHaveLength(1);
    expectRefundObject(body.operations[0]!, charged, item);
    const stored = await storedOperation(merchant.code, charged.number);
    expect(stored.refunds.map((row) => row.id)).toEqual([body.operations[0]!.refund_id]);
  });

  test('one request refunds several transactions, in request order', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFM');
    const first = await chargeOne(request, token, merchant.code, 'CARD', { amount: '1000' });
    const second = await chargeOne(request, token, merchant.code, 'YAPE', { amount: '2500' });
    expect(await settleNow(merchant.code)).toBe(2);
    const items = [refundItem(first.number, first.transactionId, '1000'), refundItem(second.number, null, '2500')];
    const body = await expectRefundAnswer(await refund(request, token, refundBody(merchant.code, items)), merchant.code);
    expect(
      body.operations.map((refund) => [refund.merchant_operation_number, refund.transaction_id, refund.refund_amount]),
    ).toEqual([
      [first.number, first.transactionId, '1000'],
      [second.number, second.transactionId, '2500'],
    ]);
    expect(body.operations[1]!.payment_method.name).toBe('YAPE');
    expect(new Set(body.operations.map((refund) => refund.refund_id)).size).toBe(2);
    expect((await storedOperation(merchant.code, first.number)).refunds).toHaveLength(1);
    expect((await storedOperation(merchant.code, second.number)).refunds).toHaveLength(1);
  });
});

test.describe('refused refunds', () => {
  test('an AUTORIZADO (not settled) transaction is 409 41', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFA');
    const charged = await chargeOne(request, token, merchant.code, 'CARD');
    for (const transactionId of [charged.transactionId, null]) {
      const body = await expectError<ErrorReply>(
        await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, transactionId)])),
        409,
        '41',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    }
    await expectNoRefund(request, token, merchant.code, charged);
  });

  test('a reversed (EXTORNADO) or declined (DENEGADO) transaction is 409 41', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFE');
    const reversed = await chargeOne(request, token, merchant.code, 'CARD');
    const cancel = await request.delete(`${BASE_URL}/charges/${merchant.code}/${reversed.number}`, { headers: headers(token) });
    expect(cancel.status()).toBe(200);
    const declinedNumber = `dec-${crypto.randomUUID()}`;
    const declined = await charge(
      request,
      token,
      chargeBody(merchant.code, declinedNumber, 'CARD', { details: { pan: '4000000000000002' } }),
    );
    expect(declined.status()).toBe(200);
    const declinedTransaction = ((await declined.json()) as { transaction: { transaction_id: string; state: string } })
      .transaction;
    expect(declinedTransaction.state).toBe('DENEGADO');
    await settleNow(merchant.code);
    expect((await storedOperation(merchant.code, reversed.number)).transactions.map((row) => row.state)).toEqual(['EXTORNADO']);
    for (const [number, transactionId] of [
      [reversed.number, reversed.transactionId],
      [reversed.number, null],
      [declinedNumber, declinedTransaction.transaction_id],
      [declinedNumber, null],
    ] as const) {
      const body = await expectError<ErrorReply>(
        await refund(request, token, refundBody(merchant.code, [refundItem(number, transactionId)])),
        409,
        '41',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    }
    expect((await storedOperation(merchant.code, reversed.number)).refunds).toEqual([]);
    expect((await storedOperation(merchant.code, declinedNumber)).refunds).toEqual([]);
  });

  test('a transaction of another operation of the same merchant is 404 30', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFO');
    const first = await chargeOne(request, token, merchant.code, 'CARD');
    const second = await chargeOne(request, token, merchant.code, 'CARD');
    await settleNow(merchant.code);
    const body = await expectError<ErrorReply>(
      await refund(request, token, refundBody(merchant.code, [refundItem(first.number, second.transactionId)])),
      404,
      '30',
      'string',
    );
    expect(body.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    await expectNoRefund(request, token, merchant.code, first);
    await expectNoRefund(request, token, merchant.code, second);
  });

  test('a second refund of the same transaction is 409 41', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RF2');
    const charged = await settledCharge(request, token, merchant.code);
    const first = await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, charged.transactionId)]));
    expect(first.status()).toBe(200);
    for (const transactionId of [charged.transactionId, null]) {
      const body = await expectError<ErrorReply>(
        await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, transactionId)])),
        409,
        '41',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    }
    expect((await storedOperation(merchant.code, charged.number)).refunds).toHaveLength(1);
  });

  test('the same transaction twice in one request is 409 41 and registers nothing', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFD');
    const charged = await settledCharge(request, token, merchant.code);
    const body = await expectError<ErrorReply>(
      await refund(
        request,
        token,
        refundBody(merchant.code, [refundItem(charged.number, charged.transactionId), refundItem(charged.number, null)]),
      ),
      409,
      '41',
      'string',
    );
    expect(body.errors.map((error) => error.field)).toEqual(['operations[1].transaction_id']);
    await expectNoRefund(request, token, merchant.code, charged);
  });

  test('a TOTAL refund_amount other than the transaction amount is 400 10', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFX');
    const charged = await settledCharge(request, token, merchant.code);
    for (const amount of ['14999', '15001', '1']) {
      const body = await expectError<ErrorReply>(
        await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, charged.transactionId, amount)])),
        400,
        '10',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].refund_amount']);
    }
    for (const amount of ['0', '015000', '150.00', '-15000', '']) {
      const body = await expectError<ErrorReply>(
        await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, charged.transactionId, amount)])),
        400,
        '10',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].refund_amount']);
    }
    await expectNoRefund(request, token, merchant.code, charged);
  });

  test('a type other than TOTAL or PARTIAL is 400 10', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFP');
    const charged = await settledCharge(request, token, merchant.code);
    for (const type of ['total', 'partial', 'PARCIAL', '']) {
      const body = await expectError<ErrorReply>(
        await refund(
          request,
          token,
          refundBody(merchant.code, [refundItem(charged.number, charged.transactionId, '15000', { type })]),
        ),
        400,
        '10',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].type']);
    }
    await expectNoRefund(request, token, merchant.code, charged);
  });

  for (const method of ['QR', 'PAGOEFECTIVO', 'BANK_TRANSFER'] as const) {
    test(`a ${method} operation (still PENDIENTE) is 422 42: the method rule comes first`, async ({ request }) => {
      const { merchant, token } = await setup(request, 'RFQ');
      const charged = await chargeOne(request, token, merchant.code, method);
      expect((charged.body.transaction as { state: string }).state).toBe('PENDIENTE');
      await settleNow(merchant.code);
      expect((await storedOperation(merchant.code, charged.number)).transactions.map((row) => row.state)).toEqual(['PENDIENTE']);
      const body = await expectError<ErrorReply>(
        await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, charged.transactionId)])),
        422,
        '42',
        'string',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
      await expectNoRefund(request, token, merchant.code, charged);
    });
  }

  test('a QR operation named without transaction_id is 422 42 too', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFQN');
    const charged = await chargeOne(request, token, merchant.code, 'QR');
    const body = await expectError<ErrorReply>(
      await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, null)])),
      422,
      '42',
      'string',
    );
    expect(body.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    await expectNoRefund(request, token, merchant.code, charged);
  });

  test('an unknown operation or transaction is 404 30', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFU');
    const charged = await settledCharge(request, token, merchant.code);
    const unknownOperation = await expectError<ErrorReply>(
      await refund(request, token, refundBody(merchant.code, [refundItem('no-such-operation-1', null)])),
      404,
      '30',
      'string',
    );
    expect(unknownOperation.errors.map((error) => error.field)).toEqual(['operations[0].merchant_operation_number']);
    const unknownTransaction = await expectError<ErrorReply>(
      await refund(request, token, refundBody(merchant.code, [refundItem(charged.number, crypto.randomUUID())])),
      404,
      '30',
      'string',
    );
    expect(unknownTransaction.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    // Another merchant's operation number is unknown here.
    const other = await setup(request, 'RFUO');
    const foreign = await settledCharge(request, other.token, other.merchant.code);
    await expectError(
      await refund(request, token, refundBody(merchant.code, [refundItem(foreign.number, foreign.transactionId)])),
      404,
      '30',
      'string',
    );
    await expectNoRefund(request, token, merchant.code, charged);
    await expectNoRefund(request, other.token, other.merchant.code, foreign);
  });

  test('0 or 51 items are 400 10; 50 items pass validation', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RF51');
    const charged = await settledCharge(request, token, merchant.code);
    const item = refundItem(charged.number, charged.transactionId);
    const tooMany = await expectError<ErrorReply>(
      await refund(
        request,
        token,
        refundBody(
          merchant.code,
          Array.from({ length: 51 }, () => item),
        ),
      ),
      400,
      '10',
      'string',
    );
    expect(tooMany.errors.map((error) => error.field)).toEqual(['operations']);
    const none = await expectError<ErrorReply>(await refund(request, token, refundBody(merchant.code, [])), 400, '10', 'string');
    expect(none.errors.map((error) => error.field)).toEqual(['operations']);
    // 50 is the limit: validation passes and the item rules answer (49 duplicates: 409 41).
    const fifty = await expectError<ErrorReply>(
      await refund(
        request,
        token,
        refundBody(
          merchant.code,
          Array.from({ length: 50 }, () => item),
        ),
      ),
      409,
      '41',
      'string',
    );
    expect(fifty.errors).toHaveLength(49);
    await expectNoRefund(request, token, merchant.code, charged);
  });

  test('a batch with failing items answers the first failure, lists every failing item and registers nothing', async ({
    request,
  }) => {
    const { merchant, token } = await setup(request, 'RFB');
    const good = await settledCharge(request, token, merchant.code);
    const authorized = await chargeOne(request, token, merchant.code, 'CARD');
    const qr = await chargeOne(request, token, merchant.code, 'QR');

    const notFoundFirst = await expectError<ErrorReply>(
      await refund(
        request,
        token,
        refundBody(merchant.code, [
          refundItem(good.number, good.transactionId),
          refundItem('no-such-operation-2', null),
          refundItem(authorized.number, authorized.transactionId),
        ]),
      ),
      404,
      '30',
      'string',
    );
    expect(notFoundFirst.errors.map((error) => error.field)).toEqual([
      'operations[1].merchant_operation_number',
      'operations[2].transaction_id',
    ]);
    expect(notFoundFirst.errors.map((error) => error.code)).toEqual(['not_found', 'state_conflict']);

    const stateFirst = await expectError<ErrorReply>(
      await refund(
        request,
        token,
        refundBody(merchant.code, [
          refundItem(good.number, null),
          refundItem(authorized.number, authorized.transactionId),
          refundItem(qr.number, qr.transactionId),
        ]),
      ),
      409,
      '41',
      'string',
    );
    expect(stateFirst.errors.map((error) => error.field)).toEqual([
      'operations[1].transaction_id',
      'operations[2].transaction_id',
    ]);

    const methodFirst = await expectError<ErrorReply>(
      await refund(
        request,
        token,
        refundBody(merchant.code, [
          refundItem(qr.number, qr.transactionId),
          refundItem(good.number, good.transactionId, '1'),
          refundItem(good.number, good.transactionId, '15000', { type: 'TOTAL' }),
        ]),
      ),
      422,
      '42',
      'string',
    );
    expect(methodFirst.errors.map((error) => error.field)).toEqual([
      'operations[0].transaction_id',
      'operations[1].refund_amount',
    ]);

    await expectNoRefund(request, token, merchant.code, good);
    // The good item alone still goes through afterwards.
    const alone = await refund(request, token, refundBody(merchant.code, [refundItem(good.number, good.transactionId)]));
    expect(alone.status()).toBe(200);
  });

  test('an unknown property or a bad additional_fields is 400 10', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFV');
    const charged = await settledCharge(request, token, merchant.code);
    const item = refundItem(charged.number, charged.transactionId);
    const extra = await expectError<ErrorReply>(
      await refund(request, token, { ...refundBody(merchant.code, [item]), note: 'x' }),
      400,
      '10',
      'string',
    );
    expect(extra.errors).toEqual([{ field: 'note', code: 'unrecognized_keys', message: 'is not an allowed property' }]);
    const badFields = await expectError<ErrorReply>(
      await refund(request, token, refundBody(merchant.code, [{ ...item, additional_fields: { canal: 1 } as never }])),
      400,
      '10',
      'string',
    );
    expect(badFields.errors.map((error) => error.field)).toContain('operations[0].additional_fields.canal');
    const badId = await expectError<ErrorReply>(
      await refund(request, token, refundBody(merchant.code, [{ ...item, transaction_id: 'not-a-uuid' }])),
      400,
      '10',
      'string',
    );
    expect(badId.errors.map((error) => error.field)).toEqual(['operations[0].transaction_id']);
    await expectNoRefund(request, token, merchant.code, charged);
  });
});

test.describe('concurrency and retries', () => {
  test('10 identical concurrent refunds of one transaction: exactly one 200, the rest 409 41', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFC');
    const charged = await settledCharge(request, token, merchant.code);
    const body = refundBody(merchant.code, [refundItem(charged.number, charged.transactionId)]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => refund(request, token, body)));
    const statuses = responses.map((response) => response.status());
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    let winner = '';
    for (const response of responses) {
      if (response.status() === 200) {
        winner = ((await response.json()) as RefundReply).operations[0]!.refund_id;
      } else {
        await expectError(response, 409, '41', 'string');
      }
    }
    const stored = await storedOperation(merchant.code, charged.number);
    expect(stored.refunds.map((row) => row.id)).toEqual([winner]);
    expect(stored.refunds[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTERED']);
  });

  test('Idempotency-Key: the same key and body replay the refund; another body is 409 40', async ({ request }) => {
    const { merchant, token } = await setup(request, 'RFI');
    const charged = await settledCharge(request, token, merchant.code);
    const key = `refund-${crypto.randomUUID()}`;
    const body = refundBody(merchant.code, [refundItem(charged.number, charged.transactionId)]);
    const first = await expectRefundAnswer(await refund(request, token, body, { 'Idempotency-Key': key }), merchant.code);
    const replay = await expectRefundAnswer(await refund(request, token, body, { 'Idempotency-Key': key }), merchant.code);
    expect(replay.operations[0]!.refund_id).toBe(first.operations[0]!.refund_id);
    expect(replay).toEqual(first);

    const other = refundBody(merchant.code, [
      refundItem(charged.number, charged.transactionId, '15000', {
        additional_fields: { canal: 'web', reason: 'other', description: 'another body' },
      }),
    ]);
    const conflict = await expectError<ErrorReply>(
      await refund(request, token, other, { 'Idempotency-Key': key }),
      409,
      '40',
      'string',
    );
    expect(conflict.errors.map((error) => error.field)).toEqual(['Idempotency-Key']);
    // Without the key a retry is a second refund request: refused by the state rule.
    await expectError(await refund(request, token, body), 409, '41', 'string');
    expect((await storedOperation(merchant.code, charged.number)).refunds.map((row) => row.id)).toEqual([
      first.operations[0]!.refund_id,
    ]);
  });
});
