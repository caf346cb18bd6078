import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { isUuid } from '@/server/core/domain/uuid';
import { keyRing, open, seal, sealingKeys, type KeyRing } from '@/server/platform/security/sealed-box';

// The card data of a payment waiting for its 3-D Secure challenge (docs/ORCHESTRATION.md 5): the
// authorization after the challenge needs the PAN, expiry and security code, which the service
// otherwise never keeps (docs/DESIGN.md 7). So they are held only sealed (sealed-box.ts: AES-256-GCM,
// the transaction id as additional data, the key's id for rotation), for the challenge's lifetime,
// in `card_vault`. The card is taken (decrypted and deleted) once, by the authorization, or
// dropped when the payment is cancelled or expires.

export type VaultedCard = { pan: string; expiry_date: string; security_code: string };

export type CardVaultKeys = KeyRing;
export { keyRing };

/** CARD_VAULT_KEYS when set, else the generated key kept in `service_keys` (sealed-box.ts). */
export function cardVaultKeys(db: Db): Promise<CardVaultKeys> {
  return sealingKeys(db, 'card-vault-key', env().CARD_VAULT_KEYS);
}

const WHAT = 'card vault row';

function sealCard(keys: CardVaultKeys, transactionId: string, card: VaultedCard) {
  const plain = Buffer.from(JSON.stringify({ pan: card.pan, expiry_date: card.expiry_date, security_code: card.security_code }));
  try {
    return seal(keys, transactionId, plain);
  } finally {
    plain.fill(0);
  }
}

/** Decrypts a row; throws (without any card data in the message) when the key is unknown or the row was altered or moved. */
function openCard(
  keys: CardVaultKeys,
  transactionId: string,
  row: { keyId: string; iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array },
): VaultedCard {
  const plain = open(keys, transactionId, row, WHAT);
  try {
    const card = JSON.parse(plain.toString('utf8')) as VaultedCard;
    return { pan: card.pan, expiry_date: card.expiry_date, security_code: card.security_code };
  } catch {
    // JSON.parse's message quotes its input: never let it carry card data.
    throw new Error('a card vault row holds no card');
  } finally {
    plain.fill(0);
  }
}

export type SealedCard = ReturnType<typeof sealCard>;

/** The card of a transaction about to wait for its challenge, sealed for its vault row (the charge's statement writes it). */
export async function sealForVault(db: Db, transactionId: string, card: VaultedCard): Promise<SealedCard> {
  return sealCard(await cardVaultKeys(db), transactionId, card);
}

/** Holds the card of a written transaction waiting for its challenge, encrypted, until `expiresAt` (the payment's expiry). */
export async function vaultCard(
  db: Db,
  transactionId: string,
  card: VaultedCard,
  expiresAt: Date,
  keys?: CardVaultKeys,
): Promise<void> {
  const sealed = sealCard(keys ?? (await cardVaultKeys(db)), transactionId, card);
  await db.cardVaultEntry.create({ data: { transactionId, ...sealed, expiresAt } });
}

type Row = { key_id: string; iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array; expires_at: Date };

/**
 * The card, once: the row is deleted by the same statement that reads it, so two completions
 * of one challenge cannot both get it. Null when there is none or it has expired (then it is
 * gone too). Throws when the row does not decrypt (it is gone then as well: it was unusable).
 */
export function takeVaultedCard(db: Db, transactionId: string, keys?: CardVaultKeys, now = new Date()) {
  return vaultedCard(db, transactionId, keys, now, async () => {
    const [row] = await db.$queryRaw<Row[]>`
      DELETE FROM card_vault WHERE transaction_id = ${transactionId}::uuid
      RETURNING key_id, iv, ciphertext, tag, expires_at`;
    return row ? { keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, tag: row.tag, expiresAt: row.expires_at } : null;
  });
}

/**
 * The card without taking it: the sandbox ACS needs the PAN to check a challenge code
 * (directory.ts `verifyChallenge`) while the card stays for the authorization. Null when there
 * is none or it has expired.
 */
export function readVaultedCard(db: Db, transactionId: string, keys?: CardVaultKeys, now = new Date()) {
  return vaultedCard(db, transactionId, keys, now, () => db.cardVaultEntry.findUnique({ where: { transactionId } }));
}

type Sealed = { keyId: string; iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array; expiresAt: Date };

async function vaultedCard(
  db: Db,
  transactionId: string,
  keys: CardVaultKeys | undefined,
  now: Date,
  find: () => Promise<Sealed | null>,
): Promise<VaultedCard | null> {
  if (!isUuid(transactionId)) return null;
  const ring = keys ?? (await cardVaultKeys(db));
  const row = await find();
  if (!row || row.expiresAt <= now) return null;
  return openCard(ring, transactionId, row);
}

/** Drops the card of a payment cancelled or ended without its authorization; whether there was one. */
export async function dropVaultedCard(db: Db, transactionId: string): Promise<boolean> {
  if (!isUuid(transactionId)) return false;
  const { count } = await db.cardVaultEntry.deleteMany({ where: { transactionId } });
  return count > 0;
}

/** Drops every card whose payment's expiry has passed (the worker's sweep); how many. */
export async function dropExpiredCards(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.cardVaultEntry.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}
