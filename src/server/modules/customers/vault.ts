import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { keyRing, open, seal } from '@/server/platform/security/sealed-box';
import { retireVaultKeys, rotateVaultKey, vaultKeys, type VaultKeys } from '@/server/platform/security/vault-keys';

// The vault of saved cards (docs/DECISIONS.md "The vault"): envelope encryption. Each record's
// PAN and expiry are sealed (AES-256-GCM) under a data key of its own, made here and never
// stored in clear; the data key is sealed under the vault's key-encryption key, whose id the
// record names. The record's id is the additional data of both, so neither moves to another row.
// Deleting a record destroys its data key: the card is gone even from a backup's ciphertext once
// the backup ages out (crypto-shredding). A rotation re-wraps data keys only.

export type VaultedCard = { pan: string; expiryDate: string };

const DATA_KEY_ID = 'data-key';
const WHAT = 'vault record';

export type VaultRecordData = {
  id: string;
  kekId: string;
  keyIv: Uint8Array<ArrayBuffer>;
  wrappedKey: Uint8Array<ArrayBuffer>;
  keyTag: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
  tag: Uint8Array<ArrayBuffer>;
};

/** A record as stored (its bytes as the database gives them). */
export type StoredRecord = Pick<VaultRecordData, 'id' | 'kekId'> & {
  keyIv: Uint8Array;
  wrappedKey: Uint8Array;
  keyTag: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
};

/** The PAN's keyed fingerprint: finds a PAN saved before without a hash anyone could compute from a PAN list. */
export function fingerprintOf(pan: string, keys: VaultKeys = vaultKeys()): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHmac('sha256', keys.fingerprintKey).update(pan, 'utf8').digest());
}

/** A new record holding the card, sealed under a fresh data key wrapped by the current key-encryption key. */
export function sealCard(card: VaultedCard, keys: VaultKeys = vaultKeys()): VaultRecordData {
  const id = randomUUID();
  const dataKey = randomBytes(32);
  const plain = Buffer.from(JSON.stringify({ pan: card.pan, expiry_date: card.expiryDate }));
  try {
    const sealed = seal(keyRing([{ kid: DATA_KEY_ID, key: dataKey }]), id, plain);
    const wrapped = seal(keys.ring, id, dataKey);
    return {
      id,
      kekId: wrapped.keyId,
      keyIv: wrapped.iv,
      wrappedKey: wrapped.ciphertext,
      keyTag: wrapped.tag,
      iv: sealed.iv,
      ciphertext: sealed.ciphertext,
      tag: sealed.tag,
    };
  } finally {
    plain.fill(0);
    dataKey.fill(0);
  }
}

function unwrap(record: StoredRecord, keys: VaultKeys): Buffer {
  return open(
    keys.ring,
    record.id,
    { keyId: record.kekId, iv: record.keyIv, ciphertext: record.wrappedKey, tag: record.keyTag },
    WHAT,
  );
}

/** The card a record holds; throws (never quoting card data) when its key is gone or the record was altered or moved. */
export function openCard(record: StoredRecord, keys: VaultKeys = vaultKeys()): VaultedCard {
  const dataKey = unwrap(record, keys);
  let plain: Buffer | undefined;
  try {
    plain = open(keyRing([{ kid: DATA_KEY_ID, key: dataKey }]), record.id, { keyId: DATA_KEY_ID, ...record }, WHAT);
    const card = JSON.parse(plain.toString('utf8')) as { pan: string; expiry_date: string };
    return { pan: card.pan, expiryDate: card.expiry_date };
  } catch (error) {
    // JSON.parse's message quotes its input: never let it carry card data.
    throw error instanceof SyntaxError ? new Error('a vault record holds no card') : error;
  } finally {
    dataKey.fill(0);
    plain?.fill(0);
  }
}

/** A vault record's columns as a raw SQL statement reads them beside others' (a card's, a challenge's). */
export type VaultRecordColumns = {
  kek_id: string;
  key_iv: Uint8Array;
  wrapped_key: Uint8Array;
  key_tag: Uint8Array;
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
};

/** The card the record `id` holds, from its columns read by raw SQL (`openCard`). */
export function openCardColumns(id: string, row: VaultRecordColumns): VaultedCard {
  return openCard({
    id,
    kekId: row.kek_id,
    keyIv: row.key_iv,
    wrappedKey: row.wrapped_key,
    keyTag: row.key_tag,
    iv: row.iv,
    ciphertext: row.ciphertext,
    tag: row.tag,
  });
}

/**
 * Re-wraps up to `limit` records' data keys under the current key-encryption key (the worker's
 * job after `rotate-vault-key`); the ciphertexts are not touched. Then retires, from the key
 * file, keys no record names any more. Returns how many it re-wrapped and how many remain.
 */
export async function rewrapVault(db: Db, limit = 200, given?: VaultKeys): Promise<{ rewrapped: number; remaining: number }> {
  // A service with no saved card never needs (nor makes) the vault's keys.
  if (!given && !(await db.vaultRecord.findFirst({ select: { id: true } }))) return { rewrapped: 0, remaining: 0 };
  const keys = given ?? vaultKeys();
  const current = keys.ring.current.kid;
  const records = await db.vaultRecord.findMany({
    where: { kekId: { not: current } },
    select: { id: true, kekId: true, keyIv: true, wrappedKey: true, keyTag: true },
    take: limit,
  });
  let rewrapped = 0;
  for (const record of records) {
    const dataKey = unwrap({ ...record, iv: new Uint8Array(), ciphertext: new Uint8Array(), tag: new Uint8Array() }, keys);
    try {
      const wrapped = seal(keys.ring, record.id, dataKey);
      // Only if nobody re-wrapped or removed it meanwhile.
      const { count } = await db.vaultRecord.updateMany({
        where: { id: record.id, kekId: record.kekId },
        data: { kekId: wrapped.keyId, keyIv: wrapped.iv, wrappedKey: wrapped.ciphertext, keyTag: wrapped.tag },
      });
      rewrapped += count;
    } finally {
      dataKey.fill(0);
    }
  }
  const remaining = records.length < limit ? 0 : await db.vaultRecord.count({ where: { kekId: { not: current } } });
  // The worker polls often: old keys are looked for only while the ring has any.
  if (remaining === 0 && keys.ring.byId.size > 1) {
    const inUse = await db.vaultRecord.groupBy({ by: ['kekId'] });
    retireVaultKeys(new Set([current, ...inUse.map((each) => each.kekId)]));
  }
  return { rewrapped, remaining };
}

/** `rotate-vault-key`: a new key-encryption key (vault-keys.ts), and how many records the worker will re-wrap under it. */
export async function rotateVault(db: Db) {
  const rotation = rotateVaultKey();
  const toRewrap = await db.vaultRecord.count();
  return { ...rotation, records_to_rewrap: toRewrap };
}
