import { moneyBackCall } from '@/server/modules/processors/bulkheads';
import type { Db } from '@/server/platform/db/client';
import type { RefundState } from '@/server/core/domain/states';
import { transactionReference, type RefundResult, type StoredTransaction } from '@/server/payments';
import { connectorForTransaction } from '@/server/modules/processors/connectors';
import { logError } from '@/server/platform/log';
import { moveRefund } from '@/server/modules/refunds/refund-moves';

// Refund processing (docs/DESIGN.md 8): REGISTERED -> IN_PROCESS, then the connector that
// carried the payment (docs/ORCHESTRATION.md 3) decides RESOLVED or REJECTED (an answer still in
// process leaves it for a later pass). Each step waits the configured delay; the moves are
// refund-moves.ts's. Each due refund is taken with a lease by one statement and its processor is
// asked outside any database transaction: a processor's answer can take seconds, and the
// embedded database's one connection must not wait for it.
const BATCH = 100;
/**
 * A refund taken by one worker is not taken by another for this long (nor asked again sooner
 * when still in process): longer than a processor's refund takes (a read, the refund, a read
 * again, each bounded by the connector's timeout). Refunds are taken one at a time, so a lease
 * never runs out while its refund waits behind others.
 */
const LEASE_MS = 2 * 60_000;

type DueRefund = StoredTransaction & {
  refundId: string;
  refundAmount: bigint;
  registeredAt: Date;
  state: RefundState;
  connectorId: string | null;
};

// A refund the connector cannot make (none is registered for such a method) is rejected.
const REFUND_STATE_OF: Readonly<Record<RefundResult['outcome'], RefundState | null>> = {
  in_process: null,
  resolved: 'RESOLVED',
  rejected: 'REJECTED',
  not_supported: 'REJECTED',
};

async function askConnector(
  prisma: Db,
  { refundId, refundAmount, registeredAt, connectorId, ...transaction }: DueRefund,
): Promise<RefundResult> {
  const reference = transactionReference(transaction);
  const connector = await connectorForTransaction(prisma, { connectorId, method: reference.method });
  return moneyBackCall(connector, () => connector.refund({ ...reference, refundId, refundAmount, registeredAt }));
}

export async function processRefunds(prisma: Db, delaySeconds: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - delaySeconds * 1000);
  // Asked first with a plain read: with nothing due no row is touched (see anyTransactionDue).
  const [pending] = await prisma.$queryRaw<{ due: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM refunds r WHERE r.state IN ('REGISTERED', 'IN_PROCESS') AND r.updated_at <= ${cutoff}) AS due`;
  if (pending?.due !== true) return 0;
  let taken = 0;
  for (; taken < BATCH; taken += 1) {
    const [refund] = await prisma.$queryRaw<DueRefund[]>`
      UPDATE refunds r SET updated_at = ${new Date(Date.now() + LEASE_MS)}
      FROM transactions t
      WHERE t.id = r.transaction_id AND r.id IN (
        SELECT id FROM refunds
        WHERE state IN ('REGISTERED', 'IN_PROCESS') AND updated_at <= ${cutoff}
        ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING r.id AS "refundId", r.state, r.refund_amount AS "refundAmount", r.created_at AS "registeredAt",
                t.id, t.method, t.amount, t.currency,
                t.card_bin AS "cardBin", t.card_last4 AS "cardLast4", t.connector_id AS "connectorId",
                t.processor_reference AS "processorReference", t.created_at AS "createdAt"`;
    if (!refund) break;
    try {
      const to = refund.state === 'REGISTERED' ? 'IN_PROCESS' : REFUND_STATE_OF[(await askConnector(prisma, refund)).outcome];
      if (to !== null) await prisma.$transaction((tx) => moveRefund(tx, refund.refundId, refund.state, to, now));
    } catch (error) {
      // One refund that cannot be asked keeps its lease and does not stop the others.
      logError('refund processing failed', error, { refund_id: refund.refundId });
    }
  }
  return taken;
}
