import { randomUUID } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { RETRYABLE_CHARGE_STATES } from '@/server/domain/states';
import type { chargeMoves } from './state-moves/charge-moves';
import type { OutboxEventRow } from './state-moves/event-of';

// A charge's whole write in one SQL statement, so one round trip and no database transaction
// held open across the event loop (docs/DESIGN.md 6, docs/DECISIONS.md "Charges in one statement"):
// create or lock the operation, read its latest transaction, then (only when the request may
// add one) insert the transaction, its lifecycle and its outbox events. A statement commits as
// a whole, so the move and its events can never be stored apart.
//
// Two concurrent charges of one operation: the second waits on the operation's row lock; its
// snapshot may predate the first's transaction, in which case its insert meets the unique
// (operation_id, attempt) and the statement is run again, now seeing the first (replay or 409).

const TRANSACTION_COLUMNS = [
  'id',
  'merchant_id',
  'method',
  'amount',
  'currency',
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
  'payer_email',
  'payer_name',
  'callback_url',
  'redirect_url',
  'method_details',
  'processor_response',
  'request_hash',
  'authorization_reply',
  'created_at',
  'updated_at',
] as const;

const OUTBOX_COLUMNS = ['id', 'merchant_id', 'type', 'aggregate_id', 'callback_url', 'status', 'payload'] as const;

const RECORD_CHARGE = `
WITH operation AS (
  INSERT INTO operations (id, merchant_id, merchant_operation_number, created_at)
  VALUES ($3::uuid, $1::uuid, $2, now())
  ON CONFLICT (merchant_id, merchant_operation_number)
  DO UPDATE SET merchant_operation_number = EXCLUDED.merchant_operation_number
  RETURNING id
), latest AS (
  SELECT t.attempt, t.state, t.request_hash, t.authorization_reply
  FROM transactions t JOIN operation o ON t.operation_id = o.id
  ORDER BY t.attempt DESC LIMIT 1
), decision AS (
  SELECT o.id AS operation_id,
         CASE WHEN l.request_hash = $4 THEN 'replay'
              WHEN l.state IS NOT NULL AND NOT l.state::text IN (SELECT jsonb_array_elements_text($5::jsonb)) THEN 'conflict'
              ELSE 'create' END AS outcome,
         COALESCE(l.attempt, 0) + 1 AS attempt,
         l.authorization_reply AS reply
  FROM operation o LEFT JOIN latest l ON true
), inserted AS (
  INSERT INTO transactions (operation_id, attempt, ${TRANSACTION_COLUMNS.join(', ')})
  SELECT d.operation_id, d.attempt, ${TRANSACTION_COLUMNS.map((column) => `t.${column}`).join(', ')}
  FROM decision d, jsonb_populate_record(NULL::transactions, $6::jsonb) t
  WHERE d.outcome = 'create'
  RETURNING id
), lifecycle AS (
  INSERT INTO lifecycle_entries (transaction_id, state, at)
  SELECT i.id, e.state, e.at
  FROM inserted i, jsonb_populate_recordset(NULL::lifecycle_entries, $7::jsonb) WITH ORDINALITY e
  ORDER BY e.ordinality
), events AS (
  INSERT INTO outbox_events (${OUTBOX_COLUMNS.join(', ')})
  SELECT ${OUTBOX_COLUMNS.map((column) => `e.${column}`).join(', ')}
  FROM inserted i, jsonb_populate_recordset(NULL::outbox_events, $8::jsonb) WITH ORDINALITY e
  ORDER BY e.ordinality
)
SELECT outcome, reply FROM decision`;

/** The transaction by column name (jsonb_populate_record reads it by name), its lifecycle and events. */
export type ChargeRows = {
  transaction: Record<(typeof TRANSACTION_COLUMNS)[number], unknown>;
} & ReturnType<typeof chargeMoves>;

export type ChargeOutcome = { kind: 'created' } | { kind: 'replay'; reply: unknown } | { kind: 'conflict' };

const ATTEMPTS = 3;

export async function recordCharge(
  prisma: Db,
  operation: { merchantId: string; merchantOperationNumber: string; requestHash: string },
  rows: ChargeRows,
): Promise<ChargeOutcome> {
  const parameters = [
    operation.merchantId,
    operation.merchantOperationNumber,
    randomUUID(),
    operation.requestHash,
    JSON.stringify(RETRYABLE_CHARGE_STATES),
    JSON.stringify(rows.transaction, bigintAsText),
    JSON.stringify(rows.lifecycle),
    JSON.stringify(rows.events.map(eventColumns)),
  ];
  for (let attempt = 1; ; attempt += 1) {
    try {
      const [decided] = await prisma.$queryRawUnsafe<{ outcome: ChargeOutcome['kind']; reply: unknown }[]>(
        RECORD_CHARGE,
        ...parameters,
      );
      if (!decided) throw new Error('the charge statement returned no decision');
      if (decided.outcome === 'replay') return { kind: 'replay', reply: decided.reply };
      return { kind: decided.outcome };
    } catch (error) {
      if (attempt >= ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}

/** An event row under the outbox table's column names. */
function eventColumns(event: OutboxEventRow): Record<(typeof OUTBOX_COLUMNS)[number], unknown> {
  return {
    id: event.id,
    merchant_id: event.merchantId,
    type: event.type,
    aggregate_id: event.aggregateId,
    callback_url: event.callbackUrl,
    status: event.status,
    payload: event.payload,
  };
}

function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** A raw query's unique violation (SQLSTATE 23505), as Prisma reports it from the driver adapter. */
function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2010') return false;
  const cause = (error.meta?.driverAdapterError as { cause?: { originalCode?: string } } | undefined)?.cause;
  return cause?.originalCode === '23505';
}
