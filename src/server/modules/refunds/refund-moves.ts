import { fanOutEvents } from '@/server/modules/events/callbacks/endpoint-fan-out';
import type { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/platform/db/client';
import { canRefundTransition, type RefundState } from '@/server/core/domain/states';
import type { RefundObject } from '@/server/core/interface/refund';
import { REFUND_REASONS } from '@/server/core/domain/state-reasons';
import { refundSelect, toRefundObject } from './refund-view';
import { eventOf } from '@/server/modules/events/event-of';

// Refund moves (docs/DESIGN.md 6): REGISTERED on request, then IN_PROCESS, then RESOLVED or
// REJECTED; each with its lifecycle entry and event in the caller's database transaction.
const movedRefundSelect = {
  ...refundSelect,
  merchantId: true,
  operation: { select: { merchantOperationNumber: true, merchant: { select: { code: true } } } },
  transaction: { select: { id: true, method: true, cardBrand: true, maskedPan: true, callbackUrl: true } },
} satisfies Prisma.RefundSelect;

/** Writes the lifecycle entries of refunds that just reached `to`, then their events; the refunds in `ids` order. */
async function recordRefundMoves(tx: Tx, ids: string[], to: RefundState, at: Date): Promise<RefundObject[]> {
  await tx.refundLifecycleEntry.createMany({ data: ids.map((refundId) => ({ refundId, state: to, at })) });
  const rows = await tx.refund.findMany({ where: { id: { in: ids } }, select: movedRefundSelect });
  const ordered = ids.map((id) => rows.find((row) => row.id === id)!);
  const refunds = ordered.map(toRefundObject);
  const events = ordered.map((row, index) =>
    eventOf({
      to,
      merchantId: row.merchantId,
      merchantCode: row.operation.merchant.code,
      merchantOperationNumber: row.operation.merchantOperationNumber,
      callbackUrl: row.transaction.callbackUrl,
      refund: refunds[index]!,
    }),
  );
  await tx.outboxEvent.createMany({ data: events });
  await fanOutEvents(tx, events);
  return refunds;
}

/** A refund to register: its row as the request decided it, without state, reason or lifecycle. */
export type NewRefund = Omit<Prisma.RefundUncheckedCreateInput, 'state' | 'reason' | 'lifecycle' | 'createdAt'> & {
  id: string;
};

/** The refunds of one request, REGISTERED, in the request's order. */
export async function registerRefunds(tx: Tx, refunds: NewRefund[], at = new Date()): Promise<RefundObject[]> {
  if (!canRefundTransition(null, 'REGISTERED')) throw new Error('refund move NONE -> REGISTERED is not allowed');
  for (const refund of refunds) {
    await tx.refund.create({
      data: { ...refund, state: 'REGISTERED', reason: REFUND_REASONS.REGISTERED, createdAt: at },
      select: { id: true },
    });
    // The transaction's sum of live refunds, which its CHECK keeps within what was captured.
    await tx.$executeRaw`
      UPDATE transactions SET refunded_amount = refunded_amount + ${BigInt(refund.refundAmount)}
      WHERE id = ${refund.transactionId}::uuid`;
  }
  return recordRefundMoves(
    tx,
    refunds.map((refund) => refund.id),
    'REGISTERED',
    at,
  );
}

/**
 * One move of one refund: the row changes only if it is still in `from`; a rejected refund frees
 * its amount for another. Returns false when the refund had already moved on.
 */
export async function moveRefund(tx: Tx, id: string, from: RefundState, to: RefundState, at = new Date()): Promise<boolean> {
  if (!canRefundTransition(from, to)) throw new Error(`refund move ${from} -> ${to} is not allowed`);
  const moved = await tx.refund.updateMany({ where: { id, state: from }, data: { state: to, reason: REFUND_REASONS[to] } });
  if (moved.count === 0) return false;
  if (to === 'REJECTED') {
    await tx.$executeRaw`
      UPDATE transactions t SET refunded_amount = t.refunded_amount - r.refund_amount
      FROM refunds r WHERE r.id = ${id}::uuid AND t.id = r.transaction_id`;
  }
  await recordRefundMoves(tx, [id], to, at);
  return true;
}
