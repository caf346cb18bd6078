import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '@/server/platform/db/client';
import { RETRYABLE_CHARGE_STATES } from '@/server/core/domain/states';
import { NIL_UUID } from '@/server/core/domain/uuid';
import type { OutboxEventRow } from '@/server/modules/events/event-of';
import { asJson, eventColumns, eventsWritten, isUniqueViolation, type TransactionColumns } from './transaction-columns';

// The first write of a charge, before any processor is asked (docs/ORCHESTRATION.md 3): in one
// SQL statement, create (for a merchant that exists: the database has no foreign key there, see
// the operations_merchant_unlocked migration) or lock the operation, read its latest attempt (in
// flight or written), and (only when the request may add one) claim the first attempt with the
// connector routing chose: a row of charge_claims holding the transaction as it will be written,
// and its REGISTRADO event. Its transaction is written once, with its outcome (record-attempt.ts),
// which deletes the claim; a crash while the processor is asked leaves the claim, which the
// worker's status sync settles (status_check_at), never a payment the service forgot.
//
// The attempt number is the operation's (1, 2, … across every request), decided inside the
// statement; it is written into additional_fields.attempt of the claimed row and of the event.
//
// Two concurrent charges of one operation: the second waits on the operation's row lock, and
// reads the latest attempt (claimed or written) only once it holds it, through
// charge_attempt_latest, whose snapshot is its own (the statement's predates the lock): it sees
// the first's claim or outcome, whichever committed. Should anything get past that, the unique
// (operation_id) of charge_claims stops the insert before any processor is asked, and the
// statement is run again. An identical request whose first is still being carried (no reply
// stored yet) is `in_flight`; another request while an attempt is carried is a conflict.
//
// An INSTALLMENT MIT takes one of the instalments its card's consent covers, decided here and
// nowhere else: card_instalments (the card_instalments migration) locks the card and counts, with
// a snapshot of its own taken once it holds the lock, the card's approved MITs and its instalment
// MITs still in flight (claimed, or written PENDIENTE), so two MITs sent at once for the last
// instalment cannot both be carried. Past the count the operation is not even registered
// (`instalments_taken`, 409 `41`); a request of an operation that exists is answered as any other
// (its replay is the stored answer), and adds an attempt only within the count.

/** How long an attempt without a stored answer counts as still being carried. */
const IN_FLIGHT_SECONDS = 60;

const CLAIM_CHARGE = `
WITH claimed AS (
  SELECT t.*, instalment_card_of(t) AS instalment_card_id FROM jsonb_populate_record(NULL::transactions, $6::jsonb) t
), instalment AS (
  SELECT i.covered, i.taken >= i.covered AS taken
  FROM claimed c, card_instalments(c.instalment_card_id) i WHERE c.instalment_card_id IS NOT NULL
), operation AS (
  INSERT INTO operations (id, merchant_id, merchant_operation_number, created_at)
  SELECT $3::uuid, m.id, $2, now() FROM merchants m
  WHERE m.id = $1::uuid
    AND (NOT EXISTS (SELECT 1 FROM instalment WHERE taken)
         OR EXISTS (SELECT 1 FROM operations o WHERE o.merchant_id = m.id AND o.merchant_operation_number = $2))
  ON CONFLICT (merchant_id, merchant_operation_number)
  DO UPDATE SET merchant_operation_number = EXCLUDED.merchant_operation_number
  RETURNING id
), latest AS (
  SELECT l.* FROM operation o, charge_attempt_latest(o.id) l
), decision AS (
  SELECT o.id AS operation_id,
         CASE WHEN l.request_hash = $4 AND l.authorization_reply IS NOT NULL THEN 'replay'
              WHEN l.request_hash = $4 THEN 'in_flight'
              WHEN l.authorization_reply IS NULL AND l.updated_at > now() - interval '${IN_FLIGHT_SECONDS} seconds' THEN 'conflict'
              WHEN l.state IS NOT NULL AND NOT l.state::text IN (SELECT jsonb_array_elements_text($5::jsonb)) THEN 'conflict'
              WHEN EXISTS (SELECT 1 FROM instalment WHERE taken) THEN 'instalments_taken'
              ELSE 'create' END AS outcome,
         COALESCE(l.attempt, 0) + 1 AS attempt,
         l.authorization_reply AS reply
  FROM operation o LEFT JOIN latest l ON true
), inserted AS (
  INSERT INTO charge_claims (transaction_id, operation_id, attempt, merchant_id, connector_id, request_hash,
                             attempt_row, claimed_at, status_check_at, instalment_card_id)
  SELECT t.id, d.operation_id, d.attempt, t.merchant_id, t.connector_id, t.request_hash,
         jsonb_set($6::jsonb, '{additional_fields,attempt}', to_jsonb(d.attempt)), t.created_at, t.status_check_at,
         t.instalment_card_id
  FROM decision d, claimed t
  WHERE d.outcome = 'create'
  RETURNING transaction_id AS id
), ${eventsWritten('claimed', 'inserted', '$7', {
  with: 'decision d',
  payload: "jsonb_set(e.payload, '{transaction,additional_fields,attempt}', to_jsonb(d.attempt))",
})}
SELECT outcome, reply, attempt, (SELECT covered FROM instalment) AS covered FROM decision
UNION ALL
SELECT 'instalments_taken', NULL, NULL, covered FROM instalment WHERE NOT EXISTS (SELECT 1 FROM decision)`;

/** An attempt's claim: its transaction as it will be written, and its REGISTRADO event. */
export type ClaimRows = {
  transaction: TransactionColumns;
  events: OutboxEventRow[];
};

export type ClaimOutcome =
  | { kind: 'created'; attempt: number }
  | { kind: 'replay'; reply: unknown }
  | { kind: 'in_flight' }
  | { kind: 'conflict' }
  /** An INSTALLMENT MIT when the consent's `covered` instalments are all approved or in flight. */
  | { kind: 'instalments_taken'; covered: number };

const TRIES = 3;

/** The claim for a merchant that does not exist: it writes nothing, and readies the statement on the connection (warm-up). */
export async function warmClaimCharge(tx: Tx): Promise<void> {
  await tx.$queryRawUnsafe(CLAIM_CHARGE, NIL_UUID, 'warm-up', NIL_UUID, '', '[]', '{}', '[]');
}

export async function claimCharge(
  prisma: Db,
  operation: { merchantId: string; merchantOperationNumber: string; requestHash: string },
  rows: ClaimRows,
): Promise<ClaimOutcome> {
  const parameters = [
    operation.merchantId,
    operation.merchantOperationNumber,
    randomUUID(),
    operation.requestHash,
    JSON.stringify(RETRYABLE_CHARGE_STATES),
    asJson(rows.transaction),
    JSON.stringify(rows.events.map(eventColumns)),
  ];
  for (let attempt = 1; ; attempt += 1) {
    try {
      const [decided] = await prisma.$queryRawUnsafe<
        { outcome: string; reply: unknown; attempt: number | null; covered: number | null }[]
      >(CLAIM_CHARGE, ...parameters);
      if (!decided) throw new Error(`no merchant ${operation.merchantId} to charge for`);
      if (decided.outcome === 'replay') return { kind: 'replay', reply: decided.reply };
      if (decided.outcome === 'create') return { kind: 'created', attempt: Number(decided.attempt) };
      if (decided.outcome === 'instalments_taken') return { kind: 'instalments_taken', covered: Number(decided.covered) };
      return { kind: decided.outcome as 'in_flight' | 'conflict' };
    } catch (error) {
      if (attempt >= TRIES || !isUniqueViolation(error)) throw error;
    }
  }
}
