import type { Db, Tx } from '@/server/platform/db/client';
import { persistently } from '@/server/platform/db/transient-faults';
import type { TransactionState } from '@/server/core/domain/states';
import { NIL_UUID } from '@/server/core/domain/uuid';
import type { OutboxEventRow } from '@/server/modules/events/event-of';
import type { VaultedChallenge } from '@/server/modules/charges/card-vault';
import type { ClaimRows } from './claim-charge';
import type { HeldCardToken } from '@/server/modules/customers/card-tokens';
import {
  asJson,
  eventColumns,
  movesWritten,
  nextClaimWritten,
  OUTCOME_COLUMNS,
  savedCardCharged,
  WRITTEN_COLUMNS,
  type WrittenColumns,
} from './transaction-columns';

// What a processor answered to one attempt, in one SQL statement (docs/ORCHESTRATION.md 3), and,
// when routing moves on, the next attempt's claim in the same statement: there is no moment at
// which the operation shows a declined attempt and no attempt in flight.
//
// An attempt in flight is a claim (claim-charge.ts): its outcome deletes the claim (only if it is
// still there, so a status sync and the request cannot both settle it) and writes its transaction
// once, in its final state, from the claimed row with the outcome's columns over it, with its
// whole lifecycle (REGISTRADO at the claim's time first) and the events of its moves after
// REGISTRADO (whose event the claim wrote). A card waiting for its 3-D Secure challenge is vaulted
// in that statement (its vault record, and the `card_vault` row naming it), so the vault never
// holds a challenge's card without its payment nor the reverse.
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
), ${movesWritten('written', 'written', { lifecycle: '$3', events: '$4' })}, challenge_record AS (
  INSERT INTO vault_records (id, kek_id, key_iv, wrapped_key, key_tag, iv, ciphertext, tag)
  SELECT (p.v->>'id')::uuid, p.v->>'kek_id', ${['key_iv', 'wrapped_key', 'key_tag', 'iv', 'ciphertext', 'tag'].map((column) => `decode(p.v->>'${column}', 'base64')`).join(', ')}
  FROM written w, (SELECT $5::jsonb AS v) p WHERE p.v IS NOT NULL
  RETURNING id
), vaulted AS (
  INSERT INTO card_vault (transaction_id, vault_id, held_connector, held_token, expires_at)
  SELECT w.id, r.id, $5::jsonb->>'held_connector', $5::jsonb->>'held_token', ($5::jsonb->>'expires_at')::timestamptz
  FROM written w, challenge_record r
), ${nextClaimWritten('written', '$6', '$7', '$8')},
${savedCardCharged('written', { card: '$9', mit: '$10', nti: '$11', connector: '$12', token: '$13', customer: '$14' })}
SELECT count(*)::int AS moved FROM written`;

// A written attempt (a payment that waited PENDIENTE for its payer's 3-D Secure challenge, or
// whose answer is being verified) moves on from the state it is in, with its new lifecycle
// entries and events: the outcome columns the answer names change, the others stay. A payment a
// cancellation holds while its processor is asked (undo_until) does not move.
const MOVE_WRITTEN = `
WITH moved AS (
  UPDATE transactions t SET ${OUTCOME_COLUMNS.map((column) => `${column} = CASE WHEN $2::jsonb ? '${column}' THEN v.${column} ELSE t.${column} END`).join(', ')}
  FROM jsonb_populate_record(NULL::transactions, $2::jsonb) v
  WHERE t.id = $1::uuid AND t.state = $3::"TransactionState" AND (t.undo_until IS NULL OR t.undo_until < now())
  RETURNING t.id, t.operation_id
), ${movesWritten('moved', 'moved', { lifecycle: '$4', events: '$5' })}, ${nextClaimWritten('moved', '$6', '$7', '$8')},
${savedCardCharged('moved', { card: '$9', mit: '$10', nti: '$11', connector: '$12', token: '$13', customer: '$14' })}
SELECT count(*)::int AS moved FROM moved`;

export type AttemptOutcomeRows = {
  transactionId: string;
  /** Where the attempt is: its claim, or its written row in this state. */
  from: 'claim' | TransactionState;
  /** What the outcome sets over the claimed row (the outcome columns of a written one). */
  columns: Partial<WrittenColumns>;
  /** The lifecycle entries to write: from REGISTRADO for a claim, the new ones for a written row. */
  lifecycle: { state: string; at: Date }[];
  /** The events of the moves after those already announced. */
  events: OutboxEventRow[];
  /** The card of a payment that waits for its challenge (a claim only). */
  vault?: VaultedChallenge | null;
  /** The attempt routing moves on to, with its number. */
  next: (ClaimRows & { attempt: number }) | null;
  /** What the approval of a saved card's charge leaves on the card (save-on-approval.ts). */
  card?: CardCharged | null;
};

/** A saved card charged and approved: its id, whether by an MIT, the approval's NTI and a token the processor made. */
export type CardCharged = { id: string; mit: boolean; nti: string | null; token: HeldCardToken | null };

/**
 * False when the attempt had already been settled (another process settled it first): nothing was
 * written. The attempt's final answer (no next attempt) is run again while the database is briefly
 * away (a restart): one statement, so it landed whole or not at all, and a run after one whose
 * commit was lost finds the attempt settled and reads the answer it stored. An attempt that moves
 * on to another is not: a lost commit would leave the caller without the next attempt it wrote,
 * and the status sync settles the claim instead. Nor is one written in the caller's database
 * transaction (`inTransaction`), which a lost connection ends whole.
 */
export async function recordAttempt(prisma: Db | Tx, rows: AttemptOutcomeRows, { inTransaction = false } = {}): Promise<boolean> {
  const next = [
    rows.next ? asJson(rows.next.transaction) : null,
    JSON.stringify(rows.next?.events.map(eventColumns) ?? []),
    rows.next?.attempt ?? 0,
  ];
  const lifecycle = JSON.stringify(rows.lifecycle);
  const events = JSON.stringify(rows.events.map(eventColumns));
  const { card } = rows;
  const charged = [
    card?.id ?? null,
    card?.mit ?? false,
    card?.nti ?? null,
    card?.token?.connectorId ?? null,
    card?.token?.token ?? null,
    card?.token?.processorCustomerId ?? null,
  ];
  const write = () => {
    if (rows.from === 'claim') {
      return prisma.$queryRawUnsafe<{ moved: number }[]>(
        SETTLE_CLAIM,
        rows.transactionId,
        asJson(rows.columns),
        lifecycle,
        events,
        rows.vault ? vaultedJson(rows.vault) : null,
        ...next,
        ...charged,
      );
    }
    return prisma.$queryRawUnsafe<{ moved: number }[]>(
      MOVE_WRITTEN,
      rows.transactionId,
      asJson(rows.columns),
      rows.from,
      lifecycle,
      events,
      ...next,
      ...charged,
    );
  };
  const once = rows.next !== null || inTransaction;
  const [result] = await (once ? write() : persistently(write));
  return (result?.moved ?? 0) > 0;
}

/** The outcomes of attempts that do not exist: they write nothing, and ready the statements on the connection (warm-up). */
export async function warmRecordAttempt(tx: Tx): Promise<void> {
  const noCard = [null, false, null, null, null, null];
  await tx.$queryRawUnsafe(SETTLE_CLAIM, NIL_UUID, '{}', '[]', '[]', null, null, '[]', 0, ...noCard);
  await tx.$queryRawUnsafe(MOVE_WRITTEN, NIL_UUID, '{}', 'PENDIENTE', '[]', '[]', null, '[]', 0, ...noCard);
}

/** A challenge's vault record and `card_vault` row as the statement's one JSON parameter (bytes in base64). */
function vaultedJson({ record, held, expiresAt }: VaultedChallenge): string {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  return JSON.stringify({
    id: record.id,
    kek_id: record.kekId,
    key_iv: base64(record.keyIv),
    wrapped_key: base64(record.wrappedKey),
    key_tag: base64(record.keyTag),
    iv: base64(record.iv),
    ciphertext: base64(record.ciphertext),
    tag: base64(record.tag),
    held_connector: held?.connectorId ?? null,
    held_token: held?.token ?? null,
    expires_at: expiresAt.toISOString(),
  });
}
