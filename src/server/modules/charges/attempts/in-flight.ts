import type { ChargeClaim, Prisma, Transaction } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { TransactionState } from '@/server/core/domain/states';

// An attempt its processor has now is a claim (charge_claims) until the statement that writes
// its outcome deletes the claim and writes its transaction (docs/DECISIONS.md, "A charge written
// once"). Whatever shows or acts on an operation's attempts reads a claim as the transaction it
// stands for: REGISTRADO since it was claimed, one lifecycle entry, no answer yet, asked about by
// the status sync at its status_check_at. This module is that reading, in SQL and in TypeScript.

/** SQL: the claim `alias` as the JSON of its transactions row (for jsonb_populate_record). */
export function claimRowJson(alias: string): string {
  return `(${alias}.attempt_row || jsonb_build_object('operation_id', ${alias}.operation_id, 'attempt', ${alias}.attempt,
    'state', 'REGISTRADO', 'status_check_at', ${alias}.status_check_at, 'status_checks', ${alias}.status_checks,
    'refunded_amount', 0, 'method_details', COALESCE(${alias}.attempt_row->'method_details', '{}'::jsonb),
    'created_at', ${alias}.claimed_at, 'updated_at', ${alias}.claimed_at))`;
}

/** SQL, a FROM item: the claims `where` (on claim `c`) as rows of transactions. */
export function claimedTransactions(where: string): string {
  return `(SELECT r.* FROM charge_claims c, jsonb_populate_record(NULL::transactions, ${claimRowJson('c')}) r WHERE ${where})`;
}

/** SQL: the lifecycle of a claim `alias` as json_agg of lifecycle_entries would give it. */
export function claimLifecycleJson(alias: string): string {
  return `json_build_array(json_build_object('state', 'REGISTRADO', 'at', ${alias}.claimed_at))`;
}

type Columns = Record<string, unknown>;

// The row as JSON: text, numbers and instants (as ISO text) are strings or numbers there.
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const instant = (value: unknown): Date | null => (typeof value === 'string' ? new Date(value) : null);
const json = (value: unknown): Prisma.JsonValue | null => (value === undefined ? null : value);

/** The claim as its transaction, REGISTRADO, with the lifecycle it has so far. */
export function claimAsTransaction(claim: ChargeClaim): Transaction & { lifecycle: { state: TransactionState; at: Date }[] } {
  const row = claim.attemptRow as Columns;
  return {
    id: claim.transactionId,
    operationId: claim.operationId,
    attempt: claim.attempt,
    merchantId: claim.merchantId,
    method: row.method as Transaction['method'],
    amount: BigInt(row.amount as string | number),
    currency: text(row.currency) ?? '',
    state: 'REGISTRADO',
    stateReason: text(row.state_reason) ?? '',
    expiresAt: null,
    continueUrl: null,
    payerToken: null,
    cardBin: text(row.card_bin),
    cardLast4: text(row.card_last4),
    maskedPan: text(row.masked_pan),
    cardBrand: text(row.card_brand),
    cardType: text(row.card_type),
    cardCountry: text(row.card_country),
    cardIssuer: text(row.card_issuer),
    payerEmail: text(row.payer_email),
    payerName: text(row.payer_name),
    callbackUrl: text(row.callback_url),
    redirectUrl: text(row.redirect_url),
    methodDetails: json(row.method_details) ?? {},
    processorResponse: null,
    additionalFields: json(row.additional_fields),
    // Set by the processor's answer, which a claim has not had.
    processorReference: null,
    cardSaveId: text(row.card_save_id),
    savedCardId: text(row.saved_card_id),
    requestHash: claim.requestHash,
    authorizationReply: null,
    connectorId: claim.connectorId,
    routing: json(row.routing),
    declineClass: null,
    threeDs: null,
    latencyMs: null,
    statusCheckAt: claim.statusCheckAt,
    statusChecks: claim.statusChecks,
    undoUntil: null,
    captureStatus: text(row.capture_status),
    captureBefore: instant(row.capture_before),
    capturedAmount: null,
    captureRequested: null,
    captureCheckAt: null,
    refundedAmount: 0n,
    createdAt: claim.claimedAt,
    updatedAt: claim.claimedAt,
    lifecycle: [{ state: 'REGISTRADO', at: claim.claimedAt }],
  };
}

/** An operation's latest attempt, `select`ed: its claim while it is in flight (read whole), else its latest transaction. */
export async function latestAttempt<Select extends Prisma.TransactionSelect>(tx: Tx, operationId: string, select: Select) {
  const claim = await tx.chargeClaim.findUnique({ where: { operationId } });
  if (claim) return claimAsTransaction(claim);
  return tx.transaction.findFirstOrThrow({ where: { operationId }, orderBy: { attempt: 'desc' }, select });
}

/** Below this many pages the claims are not vacuumed (see vacuumClaims). */
const VACUUMED_FROM_PAGES = 10;

/**
 * Dead claims that make a vacuum due: the threshold PostgreSQL's autovacuum has for the table
 * (the charge_claims migration). About two seconds of a saturated embedded database's charges.
 */
export const DEAD_CLAIMS_PER_VACUUM = 1000;

/**
 * Vacuums the claims once `deadAtLeast` of them are dead (as the database's statistics count
 * them): a row per charge is inserted and deleted within a second or so, and the embedded
 * database runs no autovacuum. Without it the table and its indexes grow with every charge ever
 * claimed; vacuumed once a minute, they held a minute of claims (50 MB at 600 charges a second),
 * which a fresh instance read cold: its first status sync alone read 2,000 pages to pass the
 * index entries of claims its predecessor left dead (docs/BENCHMARKS.md). Returns whether it ran.
 *
 * The table is never truncated, and not vacuumed while it is under ten pages. A vacuum records
 * the table's pages and rows for the planner and makes every cached plan that reads it be made
 * again. A vacuum that finds the table (nearly always) empty and truncates it to nothing leaves
 * the planner sure it is empty, so each charge's lookups by claim and by operation were planned
 * as reads of the whole table, and kept as the table filled with dead claims: on a saturated
 * embedded database charges fell from about 500 to 210-420 a second (docs/BENCHMARKS.md). Left
 * at its size, the table costs its pages to read whole, and the planner takes the index.
 */
export async function vacuumClaims(prisma: Db, deadAtLeast = DEAD_CLAIMS_PER_VACUUM): Promise<boolean> {
  const [table] = await prisma.$queryRaw<{ pages: number; dead: number }[]>`
    SELECT (pg_relation_size('charge_claims') / current_setting('block_size')::int)::int AS pages,
           pg_stat_get_dead_tuples('charge_claims'::regclass)::int AS dead`;
  if (table === undefined || table.pages < VACUUMED_FROM_PAGES || table.dead < deadAtLeast) return false;
  await prisma.$executeRawUnsafe('VACUUM (TRUNCATE false) charge_claims');
  return true;
}
