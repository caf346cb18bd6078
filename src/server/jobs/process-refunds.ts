import type { Db, Tx } from '@/server/db/client';
import { canRefundTransition, type RefundState } from '@/server/domain/states';
import { connectorFor, transactionReference, type RefundResult, type StoredTransaction } from '@/server/payments';
import { REFUND_EVENT_TYPES, writeEvents } from '@/server/services/outbox';
import { REFUND_REASONS, refundSelect, toRefundObject } from '@/server/services/refund-view';

// Refund processing (docs/DESIGN.md 8): REGISTERED -> IN_PROCESS, then the connector of the
// payment's method decides RESOLVED or REJECTED (an answer still in process leaves it for the
// next pass). Each step waits the configured delay and writes its lifecycle entry and event in
// one database transaction.
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

type DueRefund = StoredTransaction & { refundId: string; state: RefundState };

// A refund the connector cannot make (none is registered for such a method) is rejected.
const REFUND_STATE_OF: Readonly<Record<RefundResult['outcome'], RefundState | null>> = {
  in_process: null,
  resolved: 'RESOLVED',
  rejected: 'REJECTED',
  not_supported: 'REJECTED',
};

function askConnector({ refundId, ...transaction }: DueRefund): Promise<RefundResult> {
  const reference = transactionReference(transaction);
  return connectorFor(reference.method).refund({ ...reference, refundId });
}

export async function processRefunds(prisma: Db, delaySeconds: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - delaySeconds * 1000);
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<DueRefund[]>`
      SELECT r.id AS "refundId", r.state, t.id, t.method, r.refund_amount AS amount, r.currency,
             t.card_bin AS "cardBin", t.card_last4 AS "cardLast4"
      FROM refunds r JOIN transactions t ON t.id = r.transaction_id
      WHERE r.state IN ('REGISTERED', 'IN_PROCESS') AND r.updated_at <= ${cutoff}
      ORDER BY r.updated_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED`;
    for (const refund of due) {
      const to = refund.state === 'REGISTERED' ? 'IN_PROCESS' : REFUND_STATE_OF[(await askConnector(refund)).outcome];
      if (to !== null) await moveRefund(tx, refund.refundId, refund.state, to, now);
    }
    return due.length;
  });
}
