import type { Db, Tx } from '@/server/platform/db/client';
import { isUuid } from '@/server/core/domain/uuid';
import { openCardColumns, sealCard, type VaultRecordColumns, type VaultRecordData } from '@/server/modules/customers/vault';

// The card of a payment waiting for its 3-D Secure challenge (docs/ORCHESTRATION.md 5): the
// authorization after the challenge needs the PAN and expiry, which the service otherwise keeps
// only for a saved card. So they are a record of the one vault (customers/vault.ts: a data key of
// their own, wrapped by the vault's key-encryption key), named by `card_vault` for the
// challenge's lifetime. The security code is never kept, not even sealed (../shared
// CARD-ON-FILE.md 1): the authorization after the challenge goes without it, to a processor that
// takes a card without its code, or with the one-use token the waiting processor made of the card
// before the challenge, while the code was still in memory (`held`, connector.ts `holdCard`). The
// card is taken (opened and deleted) once, by the authorization, or dropped when the payment is
// cancelled or expires.

/** A one-use token of the card made by the processor the payment waits for (connector.ts `holdCard`). */
export type HeldCard = { connectorId: string; token: string };

export type ChallengeCard = { pan: string; expiryDate: string; held: HeldCard | null };

/** What the charge's statement writes for a payment about to wait for its challenge (record-attempt.ts). */
export type VaultedChallenge = { record: VaultRecordData; held: HeldCard | null; expiresAt: Date };

/** The card of a payment about to wait for its challenge, sealed as a vault record. */
export function sealForChallenge(
  card: { pan: string; expiryDate: string },
  held: HeldCard | null,
  expiresAt: Date,
): VaultedChallenge {
  return { record: sealCard(card), held, expiresAt };
}

type Row = { id: string; held_connector: string | null; held_token: string | null; expires_at: Date } & VaultRecordColumns;

const COLUMNS = `v.id, v.kek_id, v.key_iv, v.wrapped_key, v.key_tag, v.iv, v.ciphertext, v.tag, c.held_connector, c.held_token, c.expires_at`;

/**
 * The card, once: its vault record is deleted (and with it the `card_vault` row) by the statement
 * that reads it, so two completions of one challenge cannot both get it. Null when there is none
 * or it has expired (then it is gone too). Throws when the record does not open (gone as well:
 * it was unusable).
 */
export async function takeVaultedCard(db: Db, transactionId: string, now = new Date()): Promise<ChallengeCard | null> {
  if (!isUuid(transactionId)) return null;
  const [row] = await db.$queryRawUnsafe<Row[]>(
    `DELETE FROM vault_records v USING card_vault c WHERE c.transaction_id = $1::uuid AND v.id = c.vault_id RETURNING ${COLUMNS}`,
    transactionId,
  );
  return opened(row, now);
}

/**
 * The card without taking it: the sandbox ACS needs the PAN to check a challenge code
 * (directory.ts `verifyChallenge`) while the card stays for the authorization. Null when there
 * is none or it has expired.
 */
export async function readVaultedCard(db: Db, transactionId: string, now = new Date()): Promise<ChallengeCard | null> {
  if (!isUuid(transactionId)) return null;
  const [row] = await db.$queryRawUnsafe<Row[]>(
    `SELECT ${COLUMNS} FROM card_vault c JOIN vault_records v ON v.id = c.vault_id WHERE c.transaction_id = $1::uuid`,
    transactionId,
  );
  return opened(row, now);
}

function opened(row: Row | undefined, now: Date): ChallengeCard | null {
  if (!row || row.expires_at <= now) return null;
  const card = openCardColumns(row.id, row);
  const held = row.held_connector && row.held_token ? { connectorId: row.held_connector, token: row.held_token } : null;
  return { pan: card.pan, expiryDate: card.expiryDate, held };
}

/** Drops the card of a payment cancelled or ended without its authorization (its data key is destroyed); whether there was one. */
export async function dropVaultedCard(db: Db | Tx, transactionId: string): Promise<boolean> {
  if (!isUuid(transactionId)) return false;
  const { count } = await db.vaultRecord.deleteMany({ where: { challenge: { is: { transactionId } } } });
  return count > 0;
}

/** Drops every card whose payment's challenge expired (the worker's sweep); how many. */
export async function dropExpiredCards(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.vaultRecord.deleteMany({ where: { challenge: { is: { expiresAt: { lte: now } } } } });
  return count;
}
