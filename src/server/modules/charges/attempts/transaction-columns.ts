import { Prisma, type OutboxEvent, type Transaction } from '@/generated/prisma/client';
import type { OutboxEventRow } from '@/server/modules/events/event-of';
import { endpointFanOutClause, FAN_OUT_RETURNING } from '@/server/modules/events/callbacks/endpoint-fan-out';

// The charge statements write rows through jsonb_populate_record(set), which reads a record's
// fields by column name: these are the columns they write and the helpers that name them. The
// lists are checked against schema.prisma's models: a column renamed or dropped there fails tsc.

/** `cardLast4` -> `card_last4`: the schema maps every field to its snake_case column. */
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;
type ColumnOf<Model> = Snake<Extract<keyof Model, string>>;
type TransactionColumn = ColumnOf<Transaction>;

/** The columns an attempt's claim holds and its outcome sets again: its state and what the payer sees of it. */
const STATE_COLUMNS = [
  'state',
  'state_reason',
  'expires_at',
  'continue_url',
  'payer_token',
  'card_bin',
  'card_last4',
  'masked_pan',
  'card_brand',
  'card_type',
  'card_country',
  'card_issuer',
] as const satisfies readonly TransactionColumn[];

export const TRANSACTION_COLUMNS = [
  'id',
  'merchant_id',
  'method',
  'amount',
  'currency',
  ...STATE_COLUMNS,
  'payer_email',
  'payer_name',
  'callback_url',
  'redirect_url',
  'method_details',
  'processor_response',
  'additional_fields',
  'request_hash',
  'connector_id',
  'routing',
  'status_check_at',
  'capture_status',
  'capture_before',
  'card_save_id',
  'saved_card_id',
  'created_at',
  'updated_at',
] as const satisfies readonly TransactionColumn[];

/** What an attempt's outcome sets over its claimed row (the rest was claimed with it). */
export const OUTCOME_COLUMNS = [
  ...STATE_COLUMNS,
  'method_details',
  'processor_response',
  'additional_fields',
  'saved_card_id',
  'processor_reference',
  'authorization_reply',
  'decline_class',
  'three_ds',
  'latency_ms',
  'status_check_at',
  'status_checks',
  'updated_at',
] as const satisfies readonly TransactionColumn[];

/** The columns of a transaction written once, with its outcome, from its claim. */
export const WRITTEN_COLUMNS = [
  ...TRANSACTION_COLUMNS,
  'processor_reference',
  'authorization_reply',
  'decline_class',
  'three_ds',
  'latency_ms',
  'status_checks',
] as const satisfies readonly TransactionColumn[];

export const OUTBOX_COLUMNS = [
  'id',
  'merchant_id',
  'type',
  'aggregate_id',
  'callback_url',
  'destination',
  'status',
  'payload',
] as const satisfies readonly ColumnOf<OutboxEvent>[];

export type TransactionColumns = Record<(typeof TRANSACTION_COLUMNS)[number], unknown>;
export type OutcomeColumns = Record<(typeof OUTCOME_COLUMNS)[number], unknown>;
export type WrittenColumns = Record<(typeof WRITTEN_COLUMNS)[number], unknown>;

/** An event row under the outbox table's column names. */
export function eventColumns(event: OutboxEventRow): Record<(typeof OUTBOX_COLUMNS)[number], unknown> {
  return {
    id: event.id,
    merchant_id: event.merchantId,
    type: event.type,
    aggregate_id: event.aggregateId,
    callback_url: event.callbackUrl,
    destination: event.destination,
    status: event.status,
    payload: event.payload,
  };
}

/**
 * The CTEs that write what a statement's moved rows announce, named `<name>_lifecycle`,
 * `<name>_events` and `<name>_events_endpoints`: each row's lifecycle entries and outbox events in
 * the order given (JSON arrays in `lifecycle` and `events`, statement parameters), and the events'
 * fan-out to the merchant's webhook endpoints. `rows` is a CTE returning the rows' `id`; `with`
 * names other CTEs the event payload may read, and `payload` the expression of its column.
 */
export function movesWritten(
  name: string,
  rows: string,
  parameters: { lifecycle: string; events: string },
  options: { with?: string; payload?: string } = {},
): string {
  return `${name}_lifecycle AS (
  INSERT INTO lifecycle_entries (transaction_id, state, at)
  SELECT r.id, e.state, e.at
  FROM ${rows} r, jsonb_populate_recordset(NULL::lifecycle_entries, ${parameters.lifecycle}::jsonb) WITH ORDINALITY e
  ORDER BY e.ordinality
), ${eventsWritten(name, rows, parameters.events, options)}`;
}

/** The events half of movesWritten: what an attempt in flight announces has no lifecycle entry yet. */
export function eventsWritten(
  name: string,
  rows: string,
  events: string,
  options: { with?: string; payload?: string } = {},
): string {
  const columns = OUTBOX_COLUMNS.map((column) => (column === 'payload' ? (options.payload ?? 'e.payload') : `e.${column}`));
  return `${name}_events AS (
  INSERT INTO outbox_events (${OUTBOX_COLUMNS.join(', ')})
  SELECT ${columns.join(', ')}
  FROM ${rows} r${options.with ? `, ${options.with}` : ''}, jsonb_populate_recordset(NULL::outbox_events, ${events}::jsonb) WITH ORDINALITY e
  ORDER BY e.ordinality
  ${FAN_OUT_RETURNING}
), ${endpointFanOutClause(`${name}_events`)}`;
}

/**
 * The CTE `next` that claims an attempt (charge_claims) from the row JSON `row` (TransactionColumns,
 * its attempt number set) for the operation of the CTE `from` (which returns `operation_id`), when
 * `row` is not NULL: a failover's or a step-up's next attempt, in the statement that records the
 * one before it. Its REGISTRADO event (`events`) follows as `next_events`. An INSTALLMENT MIT's
 * next attempt takes the instalment over from the one before it (`instalment_card_of`, the
 * card_instalments migration).
 */
export function nextClaimWritten(from: string, row: string, events: string, attempt: string): string {
  return `next AS (
  INSERT INTO charge_claims (transaction_id, operation_id, attempt, merchant_id, connector_id, request_hash,
                             attempt_row, claimed_at, status_check_at, instalment_card_id)
  SELECT n.id, f.operation_id, ${attempt}::int, n.merchant_id, n.connector_id, n.request_hash, ${row}::jsonb,
         n.created_at, n.status_check_at, instalment_card_of(n)
  FROM ${from} f, jsonb_populate_record(NULL::transactions, ${row}::jsonb) n
  WHERE ${row}::jsonb IS NOT NULL
  RETURNING transaction_id AS id
), ${eventsWritten('next', 'next', events)}`;
}

/** JSON for the statements: bigints as text, which jsonb_populate_record reads into BIGINT. */
export function asJson(value: unknown): string {
  return JSON.stringify(value, (_key, each: unknown) => (typeof each === 'bigint' ? each.toString() : each));
}

/** A raw query's unique violation (SQLSTATE 23505), as Prisma reports it from the driver adapter. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2010') return false;
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: string } } | undefined)?.cause;
  return cause?.originalCode === '23505';
}

/**
 * What an approved charge of a saved card leaves on the card, in the statement that records the
 * approval (docs/DECISIONS.md "Card on file"): an MIT counts against the consent, the approval's
 * network transaction id becomes the latest, and a token the processor made is kept beside the
 * card's others. Nothing when `from` wrote no row (the attempt was settled elsewhere first) or
 * the card parameter is null (any other charge).
 */
export function savedCardCharged(
  from: string,
  parameters: { card: string; mit: string; nti: string; connector: string; token: string; customer: string },
): string {
  return `card_charged AS (
  UPDATE saved_cards SET mit_count = mit_count + CASE WHEN ${parameters.mit}::boolean THEN 1 ELSE 0 END,
    latest_nti = COALESCE(${parameters.nti}::text, latest_nti), updated_at = now()
  WHERE id = ${parameters.card}::uuid AND EXISTS (SELECT 1 FROM ${from})
), card_token AS (
  INSERT INTO processor_card_tokens (card_id, connector_id, token, processor_customer_id)
  SELECT ${parameters.card}::uuid, ${parameters.connector}::text, ${parameters.token}::text, ${parameters.customer}::text
  FROM ${from} WHERE ${parameters.card}::uuid IS NOT NULL AND ${parameters.token}::text IS NOT NULL
  ON CONFLICT (card_id, connector_id) DO UPDATE SET token = EXCLUDED.token, processor_customer_id = EXCLUDED.processor_customer_id
)`;
}
