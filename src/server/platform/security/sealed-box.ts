import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealingKey } from '@/env';
import { generatedSealingKey, keptSealingKey, type SealingKeyName } from '@/server/platform/security/service-keys';
import type { Db, Tx } from '@/server/platform/db/client';

// Data the service must keep but never show (a card waiting for its 3-D Secure challenge, a
// merchant's processor secrets): AES-256-GCM with a fresh 12-byte IV per value and its 16-byte
// tag, the row's id as additional data (a value copied onto another row does not decrypt), and
// the id of the key, so keys can rotate: the first key of a ring encrypts, every key decrypts.

/** The key that encrypts and every key that decrypts, by id. */
export type KeyRing = { current: SealingKey; byId: ReadonlyMap<string, Buffer> };

export type Sealed = {
  keyId: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
  tag: Uint8Array<ArrayBuffer>;
};

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key ring from keys in order of preference: the first encrypts. */
export function keyRing(keys: readonly SealingKey[]): KeyRing {
  if (keys.length === 0) throw new Error('a key ring needs at least one key');
  for (const { key } of keys) if (key.length !== 32) throw new Error('sealing keys are 32 bytes');
  return { current: keys[0]!, byId: new Map(keys.map(({ kid, key }) => [kid, key])) };
}

const configuredRings = new Map<SealingKeyName, Promise<KeyRing>>();

/**
 * The ring of one use: the configured keys when set (the first encrypts), with the generated key
 * still decrypting what it encrypted before the setting; otherwise the generated key kept in
 * `service_keys` under `name`.
 */
export async function sealingKeys(
  db: Db | Tx,
  name: SealingKeyName,
  configured: readonly SealingKey[] | undefined,
): Promise<KeyRing> {
  if (!configured) return keyRing([await generatedSealingKey(db, name)]);
  // Read once per process: with the keys configured the service never makes the generated one.
  let ring = configuredRings.get(name);
  if (!ring) {
    ring = keptSealingKey(db, name).then((kept) =>
      keyRing(kept && !configured.some((each) => each.kid === kept.kid) ? [...configured, kept] : configured),
    );
    configuredRings.set(name, ring);
    ring.catch(() => configuredRings.delete(name));
  }
  return ring;
}

/** A copy Prisma writes as bytea (it takes a Uint8Array over a plain ArrayBuffer). */
function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer);
}

/** Encrypts `plain` for the row `aad` names; the caller zeroes `plain` when it is done with it. */
export function seal(ring: KeyRing, aad: string, plain: Buffer): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, ring.current.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { keyId: ring.current.kid, iv: bytes(iv), ciphertext: bytes(ciphertext), tag: bytes(cipher.getAuthTag()) };
}

/**
 * Decrypts a sealed value of the row `aad` names; throws (never quoting the value) when the key is
 * unknown or the value was altered or moved. The caller zeroes the result when it is done with it.
 */
export function open(
  ring: KeyRing,
  aad: string,
  sealed: { keyId: string; iv: Uint8Array; ciphertext: Uint8Array; tag: Uint8Array },
  what: string,
): Buffer {
  const key = ring.byId.get(sealed.keyId);
  if (!key) throw new Error(`no key ${sealed.keyId} opens a ${what}`);
  if (sealed.iv.length !== IV_BYTES || sealed.tag.length !== TAG_BYTES) throw new Error(`a ${what} is malformed`);
  // authTagLength pins the tag's length: GCM would otherwise accept a truncated tag.
  const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.tag);
  try {
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new Error(`a ${what} does not decrypt: altered, or of another row`);
  }
}
