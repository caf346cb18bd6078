import type { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { PaymentMethod, TransactionState } from '@/server/core/domain/states';
import { logError, logInfo } from '@/server/platform/log';
import { transactionReference, type StatusResult } from '@/server/payments';
import { connectorForTransaction } from '@/server/modules/processors/connectors';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { statusWithin } from '@/server/modules/charges/attempts/ask-processor';
import { moveTransaction } from '@/server/modules/charges/moves/move-transaction';
import { decides, inquiryVerdict, verdictColumns } from '@/server/modules/charges/verdict';

// The worker's status sync (docs/ORCHESTRATION.md 3): an attempt whose processor gave no answer
// and no status (PENDIENTE, "verifying"), or that nobody settled because its instance stopped
// while the processor had it (REGISTRADO past its status_check_at), is asked about again with
// backoff until the processor says approved or declined; after MAX_CHECKS unknown answers it is
// reversed at the processor, so that nothing it may have approved stays charged, and declined.
// The merchant learns the outcome by callback (the move's event).

const BATCH = 20;
/**
 * An attempt claimed by one worker is not claimed by another for this long: longer than its
 * status inquiry and a reversal together take (each bounded by its connector's timeout, 10 s for
 * a merchant's processor account). Attempts are claimed one at a time, so a lease never runs out
 * while its attempt waits behind others.
 */
const LEASE_MS = 5 * 60_000;
/** After a give-up the processor would not confirm, the attempt is asked about again this often. */
const STUCK_RETRY_MS = 60 * 60_000;
const FIRST_BACKOFF_MS = 30_000;
export const MAX_CHECKS = 8;

type Due = {
  id: string;
  state: TransactionState;
  connector_id: string | null;
  method: string;
  amount: bigint;
  currency: string;
  card_bin: string | null;
  card_last4: string | null;
  processor_reference: string | null;
  additional_fields: Prisma.JsonObject | null;
  created_at: Date;
  status_checks: number;
};

/** Returns how many attempts were settled. */
export async function syncStatuses(prisma: Db, now = new Date()): Promise<number> {
  let settled = 0;
  for (let taken = 0; taken < BATCH; taken += 1) {
    const [row] = await prisma.$queryRaw<Due[]>`
      UPDATE transactions SET status_check_at = ${new Date(Date.now() + LEASE_MS)}
      WHERE id IN (
        SELECT id FROM transactions
        WHERE status_check_at <= ${now} AND state IN ('REGISTRADO', 'PENDIENTE')
        ORDER BY status_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, state, connector_id, method, amount, currency, card_bin, card_last4, additional_fields,
                additional_fields->>'processor_reference' AS processor_reference, created_at, status_checks`;
    if (!row) break;
    try {
      if (await syncOne(prisma, row, now)) settled += 1;
    } catch (error) {
      // One attempt that cannot be asked (its connector gone, its account's secret unopenable)
      // keeps its lease and does not stop the others.
      logError('status sync failed', error, { transaction_id: row.id });
    }
  }
  return settled;
}

async function syncOne(prisma: Db, row: Due, now: Date): Promise<boolean> {
  const connector = await connectorForTransaction(prisma, {
    connectorId: row.connector_id,
    method: row.method as PaymentMethod,
  });
  const reference = transactionReference({
    id: row.id,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    cardBin: row.card_bin,
    cardLast4: row.card_last4,
    processorReference: row.processor_reference,
    createdAt: row.created_at,
  });
  const status = await statusWithin(connector, reference);
  const checks = row.status_checks + 1;
  if (!decides(status) && checks >= MAX_CHECKS) {
    // Give up only once the processor has undone whatever it may have made: a reversal it
    // refused or could not answer leaves the attempt in doubt, asked about again hourly.
    const reversal = await connector.reverse(reference);
    if (reversal.outcome !== 'reversed' && reversal.outcome !== 'not_supported') {
      logError('status sync cannot settle an attempt', null, { transaction_id: row.id, reversal: reversal.outcome });
      await prisma.transaction.updateMany({
        where: { id: row.id, state: row.state },
        data: { statusChecks: checks, statusCheckAt: new Date(now.getTime() + STUCK_RETRY_MS) },
      });
      return false;
    }
  }
  const giveUp = !decides(status) && checks >= MAX_CHECKS;
  const moved = await prisma.$transaction((tx) => settle(tx, row, status, giveUp, checks, now));
  logInfo('status sync', { transaction_id: row.id, connector: connector.id, status: status.outcome, checks, moved });
  return moved;
}

async function settle(tx: Tx, row: Due, status: StatusResult, giveUp: boolean, checks: number, now: Date): Promise<boolean> {
  const verdict = inquiryVerdict(status, giveUp);
  if (!verdict) {
    const backoff = FIRST_BACKOFF_MS * 2 ** (checks - 1);
    await tx.transaction.updateMany({
      where: { id: row.id, state: row.state },
      data: { statusChecks: checks, statusCheckAt: new Date(now.getTime() + backoff) },
    });
    return false;
  }
  if (row.state === 'REGISTRADO') {
    const pending = await moveTransaction(tx, row.id, 'REGISTRADO', 'PENDIENTE', { stateReason: STATE_REASONS.verifying }, now);
    if (!pending) return false;
  }
  const data = { ...verdictColumns(verdict, row.additional_fields), statusChecks: checks, statusCheckAt: null };
  return (await moveTransaction(tx, row.id, 'PENDIENTE', verdict.to, data, now)) !== null;
}
