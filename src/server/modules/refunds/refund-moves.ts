import { fanOutEvents } from '@/server/modules/events/callbacks/endpoint-fan-out';
import type { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/platform/db/client';
import { canRefundTransition, type RefundState } from '@/server/core/domain/states';
import type { RefundObject } from '@/server/core/interface/refund';
import { REFUND_REASONS } from '@/server/core/domain/state-reasons';
import { lifecycleEntry, refundSelect, toRefundObject } from './refund-view';
import { eventOf } from '@/server/modules/events/event-of';

// Refund moves (docs/DESIGN.md 6): REGISTERED on request, then IN_PROCESS, then RESOLVED or
// REJECTED; each with its lifecycle entry (in the refund's row) and its event in the caller's
// database transaction.
const movedRefundSelect = {
  ...refundSelect,
  merchantId: true,
  operation: { select: { merchant: { select: { code: true } } } },
  transaction: { select: { callbackUrl: true } },
} satisfies Prisma.RefundSelect;

/** Writes the events of refunds that just reached `to`; the refunds in `ids` order. */
async function recordRefundMoves(tx: Tx, ids: string[], to: RefundState): Promise<RefundObject[]> {
  const rows = await tx.refund.findMany({ where: { id: { in: ids } }, select: movedRefundSelect });
  const ordered = ids.map((id) => rows.find((row) => row.id === id)!);
  const refunds = ordered.map(toRefundObject);
  const events = ordered.map((row, index) =>
    eventOf({
      to,
      merchantId: row.merchantId,
      merchantCode: row.operation.merchant.code,
      merchantOperationNumber: row.merchantOperationNumber,
      callbackUrl: row.transaction.callbackUrl,
      refund: refunds[index]!,
    }),
  );
  await tx.outboxEvent.createMany({ data: events });
  await fanOutEvents(tx, events);
  return refunds;
}

/** A refund to register, as the request decided it. */
export type NewRefund = {
  id: string;
  merchantId: string;
  transactionId: string;
  type: string;
  refundAmount: bigint;
  transactionAmount: bigint;
  currency: string;
  additionalFields: Prisma.InputJsonValue;
};

/** The refunds of one request, REGISTERED, in the request's order. */
export async function registerRefunds(tx: Tx, refunds: NewRefund[], at = new Date()): Promise<RefundObject[]> {
  if (!canRefundTransition(null, 'REGISTERED')) throw new Error('refund move NONE -> REGISTERED is not allowed');
  const lifecycle = JSON.stringify([lifecycleEntry('REGISTERED', at)]);
  for (const refund of refunds) {
    // One statement: the transaction's sum of live refunds (which its CHECK keeps within what was
    // captured), and the refund with what it shows of that transaction and its operation.
    const inserted = await tx.$executeRaw`
      WITH refunded AS (
        UPDATE transactions SET refunded_amount = refunded_amount + ${refund.refundAmount}
        WHERE id = ${refund.transactionId}::uuid
        RETURNING id, operation_id, method, card_brand, masked_pan
      )
      INSERT INTO refunds (id, merchant_id, operation_id, transaction_id, merchant_operation_number, method, card_brand,
        masked_pan, type, refund_amount, transaction_amount, currency, state, reason, additional_fields, lifecycle,
        created_at, updated_at)
      SELECT ${refund.id}::uuid, ${refund.merchantId}::uuid, o.id, t.id, o.merchant_operation_number, t.method, t.card_brand,
        t.masked_pan, ${refund.type}, ${refund.refundAmount}, ${refund.transactionAmount}, ${refund.currency},
        'REGISTERED', ${REFUND_REASONS.REGISTERED}, ${JSON.stringify(refund.additionalFields)}::jsonb, ${lifecycle}::jsonb,
        ${at}, ${new Date()}
      FROM refunded t JOIN operations o ON o.id = t.operation_id`;
    if (inserted !== 1) throw new Error(`refund ${refund.id}: no transaction ${refund.transactionId} to refund`);
  }
  return recordRefundMoves(
    tx,
    refunds.map((refund) => refund.id),
    'REGISTERED',
  );
}

/**
 * One move of one refund: the row changes only if it is still in `from`; a rejected refund frees
 * its amount for another. Returns false when the refund had already moved on.
 */
export async function moveRefund(tx: Tx, id: string, from: RefundState, to: RefundState, at = new Date()): Promise<boolean> {
  if (!canRefundTransition(from, to)) throw new Error(`refund move ${from} -> ${to} is not allowed`);
  const moved = await tx.$executeRaw`
    UPDATE refunds SET state = ${to}::"RefundState", reason = ${REFUND_REASONS[to]},
      lifecycle = lifecycle || ${JSON.stringify([lifecycleEntry(to, at)])}::jsonb, updated_at = ${new Date()}
    WHERE id = ${id}::uuid AND state = ${from}::"RefundState"`;
  if (moved === 0) return false;
  if (to === 'REJECTED') {
    await tx.$executeRaw`
      UPDATE transactions t SET refunded_amount = t.refunded_amount - r.refund_amount
      FROM refunds r WHERE r.id = ${id}::uuid AND t.id = r.transaction_id`;
  }
  await recordRefundMoves(tx, [id], to);
  return true;
}
