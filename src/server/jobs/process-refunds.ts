import type { Db } from '@/server/db/client';
import type { RefundState } from '@/server/domain/states';
import { connectorFor, transactionReference, type RefundResult, type StoredTransaction } from '@/server/payments';
import { moveRefund } from '@/server/services/state-moves/refund-moves';

// Refund processing (docs/DESIGN.md 8): REGISTERED -> IN_PROCESS, then the connector of the
// payment's method decides RESOLVED or REJECTED (an answer still in process leaves it for the
// next pass). Each step waits the configured delay; the moves are refund-moves.ts's.
const BATCH = 100;

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
