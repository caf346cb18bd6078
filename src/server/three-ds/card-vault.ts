import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { env, type CardVaultKey } from '@/env';
import { generatedCardVaultKey, keptCardVaultKey } from '@/server/auth/service-keys';
import type { Db } from '@/server/db/client';
import { isUuid } from '@/server/domain/uuid';

// The card data of a payment waiting for its 3-D Secure challenge (docs/ORCHESTRATION.md 5): the
// authorization after the challenge needs the PAN, expiry and security code, which the service
// otherwise never keeps (docs/DESIGN.md 7). So they are held only encrypted, for the challenge's
// lifetime, in `card_vault`: AES-256-GCM with a fresh 12-byte IV per card and its 16-byte tag,
// the transaction id as additional data (a row copied onto another transaction does not
// decrypt), and the id of the key, so keys can rotate. The card is taken (decrypted and deleted)
// once, by the authorization, or dropped when the payment is cancelled or expires.

export type VaultedCard = { pan: string; expiry_date: string; security_code: string };

/** The key that encrypts and every key that decrypts, by id. */
export type CardVaultKeys = { current: CardVaultKey; byId: ReadonlyMap<string, Buffer> };

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

let configuredRing: Promise<CardVaultKeys> | undefined;

/**
 * CARD_VAULT_KEYS (the first encrypts) when set, with the generated key still decrypting what
 * it encrypted before the setting; otherwise the generated key kept in `service_keys`.
 */
export async function cardVaultKeys(db: Db): Promise<CardVaultKeys> {
  const configured = env().CARD_VAULT_KEYS;
  if (!configured) return keyRing([await generatedCardVaultKey(db)]);
  // Read once per process: with the keys configured the service never makes the generated one.
  configuredRing ??= keptCardVaultKey(db).then((kept) =>
    keyRing(kept && !configured.some((each) => each.kid === kept.kid) ? [...configured, kept] : configured),
  );
  configuredRing.catch(() => (configuredRing = undefined));
  return configuredRing;
}

/** A key ring from keys in order of preference: the first encrypts. */
export function keyRing(keys: readonly CardVaultKey[]): CardVaultKeys {
  if (keys.length === 0) throw new Error('the card vault needs at least one key');
  for (const { key } of keys) if (key.length !== 32) throw new Error('card vault keys are 32 bytes');
  return { current: keys[0]!, byId: new Map(keys.map(({ kid, key }) => [kid, key])) };
}

type Sealed = { keyId: string; iv: Uint8Array<ArrayBuffer>; ciphertext: Uint8Array<ArrayBuffer>; tag: Uint8Array<ArrayBuffer> };

function seal(keys: CardVaultKeys, transactionId: string, card: VaultedCard): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, keys.current.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(transactionId, 'utf8'));
  const plain = Buffer.from(JSON.stringify({ pan: card.pan, expiry_date: card.expiry_date, security_code: card.security_code }));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  plain.fill(0);
  return { keyId: keys.current.kid, iv: bytes(iv), ciphertext: bytes(ciphertext), tag: bytes(cipher.getAuthTag()) };
}

/** Decrypts a row; throws (without any card data in the message) when the key is unknown or the row was altered or moved. */
function open(
  keys: CardVaultKeys,
  transactionId: string,
  row: { keyId: string; iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array },
): VaultedCard {
  const key = keys.byId.get(row.keyId);
  if (!key) throw new Error(`the card vault has no key ${row.keyId}`);
  if (row.iv.length !== IV_BYTES || row.tag.length !== TAG_BYTES) throw new Error('a card vault row is malformed');
  // authTagLength pins the tag's length: GCM would otherwise accept a truncated tag.
  const decipher = createDecipheriv(ALGORITHM, key, row.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(transactionId, 'utf8'));
  decipher.setAuthTag(row.tag);
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(row.ciphertext), decipher.final()]);
  } catch {
    throw new Error('a card vault row does not decrypt: altered, or of another transaction');
  }
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

/** A copy Prisma writes as bytea (it takes a Uint8Array over a plain ArrayBuffer). */
function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer);
}

/** Holds the card of a transaction waiting for its challenge, encrypted, until `expiresAt` (the payment's expiry). */
export async function vaultCard(
  db: Db,
  transactionId: string,
  card: VaultedCard,
  expiresAt: Date,
  keys?: CardVaultKeys,
): Promise<void> {
  const sealed = seal(keys ?? (await cardVaultKeys(db)), transactionId, card);
  await db.cardVaultEntry.create({ data: { transactionId, ...sealed, expiresAt } });
}

type Row = { key_id: string; iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array; expires_at: Date };

/**
 * The card, once: the row is deleted by the same statement that reads it, so two completions
 * of one challenge cannot both get it. Null when there is none or it has expired (then it is
 * gone too). Throws when the row does not decrypt (it is gone then as well: it was unusable).
 */
export async function takeVaultedCard(
  db: Db,
  transactionId: string,
  keys?: CardVaultKeys,
  now = new Date(),
): Promise<VaultedCard | null> {
  if (!isUuid(transactionId)) return null;
  const ring = keys ?? (await cardVaultKeys(db));
  const [row] = await db.$queryRaw<Row[]>`
    DELETE FROM card_vault WHERE transaction_id = ${transactionId}::uuid
    RETURNING key_id, iv, ciphertext, tag, expires_at`;
  if (!row || row.expires_at <= now) return null;
  return open(ring, transactionId, { keyId: row.key_id, iv: row.iv, ciphertext: row.ciphertext, tag: row.tag });
}

/**
 * The card without taking it: the sandbox ACS needs the PAN to check a challenge code
 * (directory.ts `verifyChallenge`) while the card stays for the authorization. Null when there
 * is none or it has expired.
 */
export async function readVaultedCard(
  db: Db,
  transactionId: string,
  keys?: CardVaultKeys,
  now = new Date(),
): Promise<VaultedCard | null> {
  if (!isUuid(transactionId)) return null;
  const ring = keys ?? (await cardVaultKeys(db));
  const row = await db.cardVaultEntry.findUnique({ where: { transactionId } });
  if (!row || row.expiresAt <= now) return null;
  return open(ring, transactionId, row);
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
