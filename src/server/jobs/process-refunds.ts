import type { Db, Tx } from '@/server/db/client';
import type { RefundState } from '@/server/domain/states';
import { registryFor, transactionReference, type RefundResult, type StoredTransaction } from '@/server/payments';
import { moveRefund } from '@/server/services/state-moves/refund-moves';

// Refund processing (docs/DESIGN.md 8): REGISTERED -> IN_PROCESS, then the connector that
// carried the payment (docs/ORCHESTRATION.md 3) decides RESOLVED or REJECTED (an answer still in
// process leaves it for the next pass). Each step waits the configured delay; the moves are
// refund-moves.ts's.
const BATCH = 100;

type DueRefund = StoredTransaction & { refundId: string; state: RefundState; connectorId: string | null };

// A refund the connector cannot make (none is registered for such a method) is rejected.
const REFUND_STATE_OF: Readonly<Record<RefundResult['outcome'], RefundState | null>> = {
  in_process: null,
  resolved: 'RESOLVED',
  rejected: 'REJECTED',
  not_supported: 'REJECTED',
};

// Asked through the job's transaction: the embedded database would make a query outside it
// wait for it.
function askConnector(tx: Tx, { refundId, connectorId, ...transaction }: DueRefund): Promise<RefundResult> {
  const reference = transactionReference(transaction);
  return registryFor(tx)
    .forTransaction({ connectorId, method: reference.method })
    .refund({ ...reference, refundId });
}

export async function processRefunds(prisma: Db, delaySeconds: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - delaySeconds * 1000);
  // Asked outside a transaction first: with nothing due none is opened (see anyTransactionDue).
  const [pending] = await prisma.$queryRaw<{ due: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM refunds r WHERE r.state IN ('REGISTERED', 'IN_PROCESS') AND r.updated_at <= ${cutoff}) AS due`;
  if (pending?.due !== true) return 0;
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<DueRefund[]>`
      SELECT r.id AS "refundId", r.state, t.id, t.method, r.refund_amount AS amount, r.currency,
             t.card_bin AS "cardBin", t.card_last4 AS "cardLast4",
             t.connector_id AS "connectorId"
      FROM refunds r JOIN transactions t ON t.id = r.transaction_id
      WHERE r.state IN ('REGISTERED', 'IN_PROCESS') AND r.updated_at <= ${cutoff}
      ORDER BY r.updated_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED`;
    for (const refund of due) {
      const to = refund.state === 'REGISTERED' ? 'IN_PROCESS' : REFUND_STATE_OF[(await askConnector(tx, refund)).outcome];
      if (to !== null) await moveRefund(tx, refund.refundId, refund.state, to, now);
    }
    return due.length;
  });
}
