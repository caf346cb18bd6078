import { moneyBackCall } from '@/server/modules/processors/bulkheads';
import type { ChargeClaim, Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { PaymentMethod, TransactionState } from '@/server/core/domain/states';
import { logError, logInfo } from '@/server/platform/log';
import { transactionReference, type StatusResult } from '@/server/payments';
import { connectorForTransaction } from '@/server/modules/processors/connectors';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { statusWithin } from '@/server/modules/charges/attempts/ask-processor';
import { moveTransaction } from '@/server/modules/charges/moves/move-transaction';
import { claimAsTransaction } from '@/server/modules/charges/attempts/in-flight';
import { recordAttempt } from '@/server/modules/charges/attempts/record-attempt';
import { toTransactionObject } from '@/server/modules/charges/transaction-view';
import { eventOf } from '@/server/modules/events/event-of';
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
  /** An attempt in flight (charge_claims) rather than a row: settled by writing its transaction. */
  claim: ClaimDue | null;
};

type ClaimDue = { claim: ChargeClaim; merchantCode: string; merchantOperationNumber: string };

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
      logError('status sync failed', error, { transaction_id: row.id });
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
  const fields = row.additionalFields as Prisma.JsonObject | null;
  return {
    id: row.id,
    state: 'REGISTRADO',
    connector_id: row.connectorId,
    method: row.method,
    amount: row.amount,
    currency: row.currency,
    card_bin: row.cardBin,
    card_last4: row.cardLast4,
    processor_reference: typeof fields?.processor_reference === 'string' ? fields.processor_reference : null,
    additional_fields: fields,
    created_at: row.createdAt,
    status_checks: row.statusChecks,
    claim: { claim, merchantCode, merchantOperationNumber },
  };
}

/** A written attempt due (an answer being verified), leased to this worker. */
async function leaseRow(prisma: Db, now: Date, leaseUntil: Date): Promise<Due | null> {
  const [row] = await prisma.$queryRaw<Omit<Due, 'claim'>[]>`
    UPDATE transactions SET status_check_at = ${leaseUntil}
    WHERE id IN (
      SELECT id FROM transactions
      WHERE status_check_at <= ${now} AND state IN ('REGISTRADO', 'PENDIENTE')
      ORDER BY status_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, state, connector_id, method, amount, currency, card_bin, card_last4, additional_fields,
              additional_fields->>'processor_reference' AS processor_reference, created_at, status_checks`;
  return row ? { ...row, claim: null } : null;
}

/** Asks again later: the attempt stays as it is. */
async function postpone(prisma: Db | Tx, row: Pick<Due, 'id' | 'state' | 'claim'>, checks: number, at: Date): Promise<void> {
  const data = { statusChecks: checks, statusCheckAt: at };
  if (row.claim) await prisma.chargeClaim.updateMany({ where: { transactionId: row.id }, data });
  else await prisma.transaction.updateMany({ where: { id: row.id, state: row.state }, data });
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
    const reversal = await moneyBackCall(connector, () => connector.reverse(reference));
    if (reversal.outcome !== 'reversed' && reversal.outcome !== 'not_supported') {
      logError('status sync cannot settle an attempt', null, { transaction_id: row.id, reversal: reversal.outcome });
      await postpone(prisma, row, checks, new Date(now.getTime() + STUCK_RETRY_MS));
      return false;
    }
  }
  const giveUp = !decides(status) && checks >= MAX_CHECKS;
  const moved = row.claim
    ? await settleClaimed(prisma, row.claim, status, giveUp, checks, now)
    : await prisma.$transaction((tx) => settle(tx, row, status, giveUp, checks, now));
  logInfo('status sync', { transaction_id: row.id, connector: connector.id, status: status.outcome, checks, moved });
  return moved;
}

async function settle(tx: Tx, row: Due, status: StatusResult, giveUp: boolean, checks: number, now: Date): Promise<boolean> {
  const verdict = inquiryVerdict(status, giveUp);
  if (!verdict) {
    await postpone(tx, row, checks, backoffFrom(now, checks));
    return false;
  }
  if (row.state === 'REGISTRADO') {
    const pending = await moveTransaction(tx, row.id, 'REGISTRADO', 'PENDIENTE', { stateReason: STATE_REASONS.verifying }, now);
    if (!pending) return false;
  }
  const data = { ...verdictColumns(verdict, row.additional_fields), statusChecks: checks, statusCheckAt: null };
  return (await moveTransaction(tx, row.id, 'PENDIENTE', verdict.to, data, now)) !== null;
}

const backoffFrom = (now: Date, checks: number) => new Date(now.getTime() + FIRST_BACKOFF_MS * 2 ** (checks - 1));

/**
 * A claim's verdict: its transaction written once, as the status sync's two moves of a written
 * attempt leave it (REGISTRADO, PENDIENTE while verified, the verdict), with their two events.
 */
async function settleClaimed(
  prisma: Db,
  due: ClaimDue,
  status: StatusResult,
  giveUp: boolean,
  checks: number,
  now: Date,
): Promise<boolean> {
  const verdict = inquiryVerdict(status, giveUp);
  if (!verdict) {
    await postpone(prisma, { id: due.claim.transactionId, state: 'REGISTRADO', claim: due }, checks, backoffFrom(now, checks));
    return false;
  }
  const claimed = claimAsTransaction(due.claim);
  const columns = verdictColumns(verdict, claimed.additionalFields as Prisma.JsonObject | null);
  const pending = {
    ...claimed,
    state: 'PENDIENTE' as const,
    stateReason: STATE_REASONS.verifying,
    lifecycle: [...claimed.lifecycle, { state: 'PENDIENTE' as const, at: now }],
  };
  const settled = {
    ...pending,
    ...columns,
    processorResponse: ('processorResponse' in columns ? columns.processorResponse : null) as Prisma.JsonValue,
    state: verdict.to,
    lifecycle: [...pending.lifecycle, { state: verdict.to, at: now }],
  };
  const audience = {
    merchantId: due.claim.merchantId,
    merchantCode: due.merchantCode,
    merchantOperationNumber: due.merchantOperationNumber,
    callbackUrl: claimed.callbackUrl,
  };
  const events = [pending, settled].map((row) =>
    eventOf({ ...audience, to: row.state, transaction: toTransactionObject(row, 'millis', { queryDetails: true }) }),
  );
  return recordAttempt(prisma, {
    transactionId: claimed.id,
    from: 'claim',
    columns: {
      state: settled.state,
      state_reason: settled.stateReason,
      expires_at: settled.expiresAt,
      processor_response: settled.processorResponse,
      additional_fields: settled.additionalFields,
      decline_class: settled.declineClass,
      status_check_at: null,
      status_checks: checks,
      updated_at: now,
    },
    lifecycle: settled.lifecycle,
    events,
    next: null,
  });
}
