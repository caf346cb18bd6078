import type { Db, Tx } from '@/server/db/client';
import { canRefundTransition, type RefundState } from '@/server/domain/states';
import { isRefundRejectingCard } from '@/server/payments/sandbox/card';
import { REFUND_EVENT_TYPES, writeEvents } from '@/server/services/outbox';
import { REFUND_REASONS, refundSelect, toRefundObject } from '@/server/services/refund-view';

// The sandbox refund processor (docs/DESIGN.md 8): REGISTERED -> IN_PROCESS -> RESOLVED, or
// REJECTED for the card whose refunds the processor refuses. Each step waits the configured
// delay and writes its lifecycle entry and event in one database transaction.
const BATCH = 100;

async function moveRefund(tx: Tx, id: string, from: RefundState, to: RefundState, at: Date): Promise<void> {
  if (!canRefundTransition(from, to)) throw new Error(`refund move ${from} -> ${to} is not allowed`);
  const moved = await tx.refund.updateMany({
    where: { id, state: from },
    data: { state: to, reason: REFUND_REASONS[to]!, ...(to === 'REJECTED' ? { activeTransactionId: null } : {}) },
  });
  if (moved.count === 0) return;
  await tx.refundLifecycleEntry.create({ data: { refundId: id, state: to, at } });
  const row = await tx.refund.findUniqueOrThrow({
    where: { id },
    select: {
      ...refundSelect,
      merchantId: true,
      operation: { select: { merchantOperationNumber: true, merchant: { select: { code: true } } } },
      transaction: { select: { id: true, method: true, cardBrand: true, maskedPan: true, callbackUrl: true } },
    },
  });
  await writeEvents(tx, [
    {
      merchantId: row.merchantId,
      merchantCode: row.operation.merchant.code,
      merchantOperationNumber: row.operation.merchantOperationNumber,
      type: REFUND_EVENT_TYPES[to]!,
      aggregateId: row.id,
      callbackUrl: row.transaction.callbackUrl,
      body: { refund: toRefundObject(row) },
    },
  ]);
}

export async function processRefunds(prisma: Db, delaySeconds: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - delaySeconds * 1000);
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string; state: RefundState; card_bin: string | null; card_last4: string | null }[]>`
      SELECT r.id, r.state, t.card_bin, t.card_last4 FROM refunds r JOIN transactions t ON t.id = r.transaction_id
      WHERE r.state IN ('REGISTERED', 'IN_PROCESS') AND r.updated_at <= ${cutoff}
      ORDER BY r.updated_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED`;
    for (const refund of due) {
      const rejected =
        refund.card_bin !== null && refund.card_last4 !== null && isRefundRejectingCard(refund.card_bin, refund.card_last4);
      const to: RefundState = refund.state === 'REGISTERED' ? 'IN_PROCESS' : rejected ? 'REJECTED' : 'RESOLVED';
      await moveRefund(tx, refund.id, refund.state, to, now);
    }
    return due.length;
  });
}
