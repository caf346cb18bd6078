import type { Db, Tx } from '@/server/platform/db/client';
import { persistently } from '@/server/platform/db/transient-faults';
import type { TransactionState } from '@/server/core/domain/states';
import { NIL_UUID } from '@/server/core/domain/uuid';
import type { OutboxEventRow } from '@/server/modules/events/event-of';
import type { ClaimRows } from './claim-charge';
import {
  asJson,
  eventColumns,
  movesWritten,
  OUTCOME_COLUMNS,
  TRANSACTION_COLUMNS,
  WRITTEN_COLUMNS,
  type OutcomeColumns,
  type WrittenColumns,
} from './transaction-columns';

// What a processor answered to one attempt, in one SQL statement (docs/ORCHESTRATION.md 3): the
// attempt's row moves on from the state it was claimed in (only if it is still there, so a
// status sync and the request cannot both settle it), with its lifecycle entries and events,
// and, when routing moves on, the next attempt is inserted REGISTRADO in the same statement:
// there is no moment at which the operation shows a declined attempt and no attempt in flight.

const RECORD_ATTEMPT = `
WITH moved AS (
  UPDATE transactions t SET ${OUTCOME_COLUMNS.map((column) => `${column} = v.${column}`).join(', ')}
  FROM jsonb_populate_record(NULL::transactions, $2::jsonb) v
  WHERE t.id = $1::uuid AND t.state = $3::"TransactionState"
  RETURNING t.id, t.operation_id
), ${movesWritten('moved', 'moved', { lifecycle: '$4', events: '$5' })}, next AS (
  INSERT INTO transactions (operation_id, attempt, ${TRANSACTION_COLUMNS.join(', ')})
  SELECT m.operation_id, $9::int, ${TRANSACTION_COLUMNS.map((column) => `n.${column}`).join(', ')}
  FROM moved m, jsonb_populate_record(NULL::transactions, $6::jsonb) n
  WHERE $6::jsonb IS NOT NULL
  RETURNING id
), ${movesWritten('next', 'next', { lifecycle: '$7', events: '$8' })}
SELECT count(*)::int AS moved FROM moved`;

export type AttemptOutcomeRows = {
  transactionId: string;
  /** The state the row must still be in. */
  from: TransactionState;
  columns: OutcomeColumns;
  lifecycle: { state: string; at: Date }[];
  events: OutboxEventRow[];
  /** The attempt routing moves on to, with its number. */
  next: (ClaimRows & { attempt: number }) | null;
};

/**
 * False when the row had already moved on (another process settled it first): nothing was written.
 * The attempt's final answer (no next attempt) is run again while the database is briefly away (a
 * restart): one statement, so it landed whole or not at all, and a run after one whose commit was
 * lost finds the row moved and reads the answer it stored. An attempt that moves on to another is
 * not: a lost commit would leave the caller without the next attempt it wrote, and the status
 * sync settles the claimed row instead.
 */
export async function recordAttempt(prisma: Db, rows: AttemptOutcomeRows): Promise<boolean> {
  const write = () =>
    prisma.$queryRawUnsafe<{ moved: number }[]>(
      RECORD_ATTEMPT,
      rows.transactionId,
      asJson(rows.columns),
      rows.from,
      JSON.stringify(rows.lifecycle),
      JSON.stringify(rows.events.map(eventColumns)),
      rows.next ? asJson(rows.next.transaction) : null,
      JSON.stringify(rows.next?.lifecycle ?? []),
      JSON.stringify(rows.next?.events.map(eventColumns) ?? []),
      rows.next?.attempt ?? 0,
    );
  const [result] = await (rows.next ? write() : persistently(write));
  return (result?.moved ?? 0) > 0;
}

/** An outcome for a transaction that does not exist: it writes nothing, and readies the statement on the connection (warm-up). */
export async function warmRecordAttempt(tx: Tx): Promise<void> {
  await tx.$queryRawUnsafe(RECORD_ATTEMPT, NIL_UUID, '{}', 'REGISTRADO', '[]', '[]', null, '[]', '[]', 0);
}

// A claim's outcome (an attempt in flight, charge_claims), in one SQL statement: the claim is
// deleted (only if it is still there, so a status sync and the request cannot both settle it)
// and its transaction written once, in its final state, as it was claimed with the outcome's
// columns over it, with its whole lifecycle (REGISTRADO at the claim's time first) and the events
// of its moves after REGISTRADO (whose event the claim wrote).
const SETTLE_CLAIM = `
WITH settled AS (
  DELETE FROM charge_claims c WHERE c.transaction_id = $1::uuid
  RETURNING c.operation_id, c.attempt, c.status_checks, c.attempt_row
), written AS (
  INSERT INTO transactions (operation_id, attempt, ${WRITTEN_COLUMNS.join(', ')})
  SELECT s.operation_id, s.attempt, ${WRITTEN_COLUMNS.map((column) => `v.${column}`).join(', ')}
  FROM settled s,
       jsonb_populate_record(NULL::transactions, s.attempt_row || jsonb_build_object('status_checks', s.status_checks) || $2::jsonb) v
  RETURNING id, operation_id
), ${movesWritten('written', 'written', { lifecycle: '$3', events: '$4' })}
SELECT count(*)::int AS moved FROM written`;

export type ClaimOutcomeRows = {
  transactionId: string;
  /** What the outcome sets over the claimed row. */
  columns: Partial<WrittenColumns>;
  /** The whole lifecycle, REGISTRADO first. */
  lifecycle: { state: string; at: Date }[];
  /** The events of the moves after REGISTRADO. */
  events: OutboxEventRow[];
};

/** False when the claim was gone (another process settled it first): nothing was written. */
export async function settleClaim(prisma: Db, rows: ClaimOutcomeRows): Promise<boolean> {
  const [result] = await prisma.$queryRawUnsafe<{ moved: number }[]>(
    SETTLE_CLAIM,
    rows.transactionId,
    asJson(rows.columns),
    JSON.stringify(rows.lifecycle),
    JSON.stringify(rows.events.map(eventColumns)),
  );
  return (result?.moved ?? 0) > 0;
}

/** An outcome for a claim that does not exist: it writes nothing, and readies the statement on the connection (warm-up). */
export async function warmSettleClaim(tx: Tx): Promise<void> {
  await tx.$queryRawUnsafe(SETTLE_CLAIM, NIL_UUID, '{}', '[]', '[]');
}
