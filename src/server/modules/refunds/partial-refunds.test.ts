import { describe, expect, it } from 'vitest';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';
import { toAppError } from '@/server/api/errors/to-app-error';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { moveRefund } from './refund-moves';
import { requestRefunds, type RefundItem } from './request-refunds';

// Partial and multiple refunds (docs/DECISIONS.md "Capture later, refunds in parts") against a
// real embedded database: what fits is registered, the rest refused, and the transaction's
// refunded_amount always the sum of its refunds that are not REJECTED.
const fixture = withTestMerchant('PARTS');
const FIELDS = { canal: 'web', reason: 'one item returned', description: 'test' };

async function settledCard(number: string) {
  const { transaction } = await authorizeCharge(
    fixture.db.prisma,
    fixture.merchant,
    chargeRequest(fixture.merchant.code, number, 'CARD'),
  );
  await settleAuthorized(fixture.db.prisma, new Date(Date.now() + 1000), { transactionIds: [transaction.transaction_id] });
  return { number, id: transaction.transaction_id };
}

const item = (number: string, type: 'TOTAL' | 'PARTIAL', amount: string): RefundItem => ({
  type,
  merchant_operation_number: number,
  transaction_id: null,
  refund_amount: amount,
  additional_fields: FIELDS,
});

async function refund(...items: RefundItem[]) {
  try {
    const answer = await requestRefunds(fixture.db.prisma, fixture.merchant, { operations: items });
    return { ok: answer.operations.map((each) => [each.type, each.refund_amount, each.state]) };
  } catch (error) {
    const failure = toAppError(error);
    return { refused: failure.kind, errors: failure.errors.map((each) => [each.field, each.message]) };
  }
}

const refunded = async (id: string) =>
  (await fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id }, select: { refundedAmount: true } })).refundedAmount;

describe('partial refunds', () => {
  it('registers three that add up to the amount and refuses a fourth (409), and a TOTAL after a partial', async () => {
    const card = await settledCard('parts-1');
    for (const amount of ['5000', '5000', '5000']) {
      expect(await refund(item(card.number, 'PARTIAL', amount))).toEqual({ ok: [['PARTIAL', amount, 'REGISTERED']] });
    }
    expect(await refunded(card.id)).toBe(15000n);
    expect(await refund(item(card.number, 'PARTIAL', '1'))).toEqual({
      refused: 'STATE_CONFLICT',
      errors: [['operations[0].transaction_id', 'the transaction is refunded in full']],
    });
    expect(await refund(item(card.number, 'TOTAL', '15000'))).toEqual({
      refused: 'STATE_CONFLICT',
      errors: [['operations[0].transaction_id', 'the transaction already has a refund']],
    });
    expect(await fixture.db.prisma.refund.count({ where: { transactionId: card.id } })).toBe(3);
  });

  it('refuses one over what is still refundable with 409 on refund_amount, and a TOTAL of another amount with 400', async () => {
    const card = await settledCard('parts-2');
    expect((await refund(item(card.number, 'PARTIAL', '10000'))).ok).toHaveLength(1);
    expect(await refund(item(card.number, 'PARTIAL', '5001'))).toEqual({
      refused: 'STATE_CONFLICT',
      errors: [['operations[0].refund_amount', 'must be at most what is still refundable, 5000']],
    });
    const other = await settledCard('parts-3');
    expect(await refund(item(other.number, 'TOTAL', '100'))).toEqual({
      refused: 'VALIDATION',
      errors: [['operations[0].refund_amount', 'must equal the refundable amount 15000 for a TOTAL refund']],
    });
    expect(await refunded(other.id)).toBe(0n);
  });

  it('adds up the items of one request: two partials of one transaction that pass its amount are refused together', async () => {
    const card = await settledCard('parts-4');
    expect(await refund(item(card.number, 'PARTIAL', '10000'), item(card.number, 'PARTIAL', '6000'))).toEqual({
      refused: 'STATE_CONFLICT',
      errors: [['operations[1].refund_amount', 'must be at most what is still refundable, 5000']],
    });
    expect(await refunded(card.id)).toBe(0n);
    expect((await refund(item(card.number, 'PARTIAL', '10000'), item(card.number, 'PARTIAL', '5000'))).ok).toHaveLength(2);
    expect(await refunded(card.id)).toBe(15000n);
  });

  it('gives a rejected partial’s amount back', async () => {
    const card = await settledCard('parts-5');
    await refund(item(card.number, 'PARTIAL', '12000'));
    const [rejected] = await fixture.db.prisma.refund.findMany({ where: { transactionId: card.id }, select: { id: true } });
    expect((await refund(item(card.number, 'PARTIAL', '4000'))).refused).toBe('STATE_CONFLICT');
    await fixture.db.prisma.$transaction(async (tx) => {
      await moveRefund(tx, rejected!.id, 'REGISTERED', 'IN_PROCESS');
      await moveRefund(tx, rejected!.id, 'IN_PROCESS', 'REJECTED');
    });
    expect(await refunded(card.id)).toBe(0n);
    expect(await refund(item(card.number, 'PARTIAL', '4000'))).toEqual({ ok: [['PARTIAL', '4000', 'REGISTERED']] });
    expect(await refunded(card.id)).toBe(4000n);
  });

  it('registers only what fits of 20 concurrent partials', async () => {
    const card = await settledCard('parts-6');
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(item(card.number, 'PARTIAL', '1000'))));
    expect(answers.filter((answer) => answer.ok).length).toBe(15);
    expect(answers.filter((answer) => answer.refused === 'STATE_CONFLICT').length).toBe(5);
    expect(await refunded(card.id)).toBe(15000n);
  });
});
