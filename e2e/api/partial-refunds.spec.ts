import { expect, test } from '../support/contract';
import type { ErrorReply, RefundReply } from '../support/api-types';
import { tokenFor, postRefund, refund, refundBody, refundItem } from '../support/api-client';
import { createMerchant, settleNow, storedOperation } from '../support/service';
import { chargeOne, expectError } from './auth-helpers';

// Partial and multiple refunds (docs/DECISIONS.md "Capture later, refunds in parts"): PARTIAL
// refunds of one settled transaction add up to at most its amount, whatever the concurrency; the
// database keeps their sum in transactions.refunded_amount.

async function settledCard(request: Parameters<typeof tokenFor>[0], prefix: string) {
  const merchant = await createMerchant(prefix);
  const token = await tokenFor(request, merchant);
  const charged = await chargeOne(request, token, merchant.code, 'CARD');
  await settleNow(merchant.code);
  return { merchant, token, charged };
}

const partial = (number: string, id: string, amount: string) => refundItem(number, id, amount, { type: 'PARTIAL' });

test('three partial refunds add up to the amount; a fourth is 409 41 and registers nothing', async ({ request }) => {
  const { merchant, token, charged } = await settledCard(request, 'RPA');
  for (const amount of ['7000', '5000', '3000']) {
    const answer = await postRefund<RefundReply>(
      request,
      token,
      refundBody(merchant.code, [partial(charged.number, charged.transactionId, amount)]),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.operations[0]).toMatchObject({
      type: 'PARTIAL',
      state: 'REGISTERED',
      refund_amount: amount,
      transaction_amount: '15000',
    });
  }
  const fourth = await postRefund<ErrorReply>(
    request,
    token,
    refundBody(merchant.code, [partial(charged.number, charged.transactionId, '1')]),
  );
  expect(fourth.status, fourth.text).toBe(409);
  expect(fourth.body.meta.status.code).toBe('41');
  expect(fourth.body.errors).toEqual([
    expect.objectContaining({ field: 'operations[0].transaction_id', message: 'the transaction is refunded in full' }),
  ]);
  const stored = await storedOperation(merchant.code, charged.number);
  expect(stored.refunds.map((each) => [each.type, each.refundAmount])).toEqual([
    ['PARTIAL', '7000'],
    ['PARTIAL', '5000'],
    ['PARTIAL', '3000'],
  ]);
  expect(stored.transactions[0]!.refundedAmount).toBe('15000');
});

test('a partial over what is still refundable is 409 41 on refund_amount; zero is 400 10', async ({ request }) => {
  const { merchant, token, charged } = await settledCard(request, 'RPB');
  expect(
    (await postRefund(request, token, refundBody(merchant.code, [partial(charged.number, charged.transactionId, '10000')])))
      .status,
  ).toBe(200);
  const over = await postRefund<ErrorReply>(
    request,
    token,
    refundBody(merchant.code, [partial(charged.number, charged.transactionId, '5001')]),
  );
  expect(over.status, over.text).toBe(409);
  expect(over.body.errors).toEqual([
    expect.objectContaining({ field: 'operations[0].refund_amount', message: 'must be at most what is still refundable, 5000' }),
  ]);
  const zero = await expectError(
    await refund(request, token, refundBody(merchant.code, [partial(charged.number, charged.transactionId, '0')])),
    400,
    '10',
    'string',
  );
  expect(zero.errors.map((each) => each.field)).toEqual(['operations[0].refund_amount']);
  const stored = await storedOperation(merchant.code, charged.number);
  expect(stored.refunds).toHaveLength(1);
  expect(stored.transactions[0]!.refundedAmount).toBe('10000');
});

test('20 concurrent partial refunds of one transaction register only those that fit', async ({ request }) => {
  const { merchant, token, charged } = await settledCard(request, 'RPC');
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      postRefund<ErrorReply>(request, token, refundBody(merchant.code, [partial(charged.number, charged.transactionId, '1000')])),
    ),
  );
  const statuses = answers.map((answer) => answer.status).sort();
  expect(statuses).toEqual([...Array<number>(15).fill(200), ...Array<number>(5).fill(409)]);
  for (const refused of answers.filter((answer) => answer.status === 409)) expect(refused.body.meta.status.code).toBe('41');
  const stored = await storedOperation(merchant.code, charged.number);
  expect(stored.refunds).toHaveLength(15);
  expect(stored.transactions[0]!.refundedAmount).toBe('15000');
});
