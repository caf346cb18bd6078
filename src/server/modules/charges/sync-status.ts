import { moneyBackCall } from '@/server/modules/processors/bulkheads';
import type { ChargeClaim } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { logError, logInfo } from '@/server/platform/log';
import { transactionReference } from '@/server/payments';
import { connectorForTransaction } from '@/server/modules/processors/connectors';
import { statusWithin } from '@/server/modules/charges/attempts/ask-processor';
import { applyVerdict, type Answered } from '@/server/modules/charges/attempts/apply-verdict';
import { claimAsTransaction } from '@/server/modules/charges/attempts/in-flight';
import { movedTransactionSelect } from '@/server/modules/charges/moves/record-transaction-moves';
import { decides, inquiryVerdict } from '@/server/modules/charges/verdict';

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

/** An attempt due, leased to this worker: how to ask its processor, and the payment the answer is about. */
type Due = {
  connectorId: string | null;
  cardBin: string | null;
  cardLast4: string | null;
  statusChecks: number;
  answered: Answered;
};

/** Returns how many attempts were settled. */
export async function syncStatuses(prisma: Db, now = new Date()): Promise<number> {
  let settled = 0;
  for (let taken = 0; taken < BATCH; taken += 1) {
    const leaseUntil = new Date(Date.now() + LEASE_MS);
    const row = (await leaseClaim(prisma, now, leaseUntil)) ?? (await leaseRow(prisma, now, leaseUntil));
    if (!row) break;
    try {
      if (await syncOne(prisma, row, now)) settled += 1;
    } catch (error) {
      // One attempt that cannot be asked (its connector gone, its account's secret unopenable)
      // keeps its lease and does not stop the others.
      logError('status sync failed', error, { transaction_id: row.answered.row.id });
    }
  }
  return settled;
}

/** A claim due (its instance stopped while the processor had it), leased to this worker. */
async function leaseClaim(prisma: Db, now: Date, leaseUntil: Date): Promise<Due | null> {
  const [leased] = await prisma.$queryRaw<(ChargeClaim & { merchantCode: string; merchantOperationNumber: string })[]>`
    UPDATE charge_claims c SET status_check_at = ${leaseUntil}
    FROM operations o, merchants m
    WHERE c.transaction_id = (
        SELECT transaction_id FROM charge_claims WHERE status_check_at <= ${now}
        ORDER BY status_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      AND o.id = c.operation_id AND m.id = o.merchant_id
    RETURNING c.transaction_id AS "transactionId", c.operation_id AS "operationId", c.attempt, c.merchant_id AS "merchantId",
              c.connector_id AS "connectorId", c.request_hash AS "requestHash", c.attempt_row AS "attemptRow",
              c.claimed_at AS "claimedAt", c.status_check_at AS "statusCheckAt", c.status_checks AS "statusChecks",
              m.code AS "merchantCode", o.merchant_operation_number AS "merchantOperationNumber"`;
  if (!leased) return null;
  const { merchantCode, merchantOperationNumber, ...claim } = leased;
  const row = claimAsTransaction(claim);
  return {
    connectorId: row.connectorId,
    cardBin: row.cardBin,
    cardLast4: row.cardLast4,
    statusChecks: row.statusChecks,
    answered: { row, audience: { merchantId: row.merchantId, merchantCode, merchantOperationNumber }, written: 'claim' },
  };
}

/** A written attempt due (an answer being verified), leased to this worker. */
async function leaseRow(prisma: Db, now: Date, leaseUntil: Date): Promise<Due | null> {
  const [leased] = await prisma.$queryRaw<{ id: string }[]>`
    UPDATE transactions SET status_check_at = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM transactions
      WHERE status_check_at <= ${now} AND state IN ('REGISTRADO', 'PENDIENTE')
      ORDER BY status_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  if (!leased) return null;
  const { connectorId, cardBin, cardLast4, statusChecks, merchantId, operation, ...row } =
    await prisma.transaction.findUniqueOrThrow({
      where: { id: leased.id },
      select: { ...movedTransactionSelect, connectorId: true, cardBin: true, cardLast4: true, statusChecks: true },
    });
  const audience = {
    merchantId,
    merchantCode: operation.merchant.code,
    merchantOperationNumber: operation.merchantOperationNumber,
  };
  return { connectorId, cardBin, cardLast4, statusChecks, answered: { row, audience, written: 'row' } };
}

/** Asks again later: the attempt stays as it is. */
async function postpone(prisma: Db, { answered }: Due, checks: number, at: Date): Promise<void> {
  const data = { statusChecks: checks, statusCheckAt: at };
  const { id, state } = answered.row;
  if (answered.written === 'claim') await prisma.chargeClaim.updateMany({ where: { transactionId: id }, data });
  else await prisma.transaction.updateMany({ where: { id, state }, data });
}

async function syncOne(prisma: Db, due: Due, now: Date): Promise<boolean> {
  const { row } = due.answered;
  const connector = await connectorForTransaction(prisma, { connectorId: due.connectorId, method: row.method });
  const reference = transactionReference({ ...row, cardBin: due.cardBin, cardLast4: due.cardLast4 });
  const status = await statusWithin(connector, reference);
  const checks = due.statusChecks + 1;
  if (!decides(status) && checks >= MAX_CHECKS) {
    // Give up only once the processor has undone whatever it may have made: a reversal it
    // refused or could not answer leaves the attempt in doubt, asked about again hourly.
    const reversal = await moneyBackCall(connector, () => connector.reverse(reference));
    if (reversal.outcome !== 'reversed' && reversal.outcome !== 'not_supported') {
      logError('status sync cannot settle an attempt', null, { transaction_id: row.id, reversal: reversal.outcome });
      await postpone(prisma, due, checks, new Date(now.getTime() + STUCK_RETRY_MS));
      return false;
    }
  }
  const verdict = inquiryVerdict(status, !decides(status) && checks >= MAX_CHECKS);
  if (!verdict) {
    await postpone(prisma, due, checks, new Date(now.getTime() + FIRST_BACKOFF_MS * 2 ** (checks - 1)));
    logInfo('status sync', { transaction_id: row.id, connector: connector.id, status: status.outcome, checks, moved: false });
    return false;
  }
  const moved = await applyVerdict(prisma, due.answered, verdict, now, { statusChecks: checks });
  logInfo('status sync', { transaction_id: row.id, connector: connector.id, status: status.outcome, checks, moved });
  return moved;
}
