import type { Db } from '@/server/platform/db/client';
import { openCard, type StoredRecord } from '@/server/modules/customers/vault';
import { keyRing, open } from '@/server/platform/security/sealed-box';
import { vaultKeys, type VaultKeys } from '@/server/platform/security/vault-keys';

/** The card a vault record holds, read from the database; null once the record is gone. */
export async function cardInVault(db: Db, vaultId: string, keys: VaultKeys = vaultKeys()) {
  const record = await db.vaultRecord.findUnique({ where: { id: vaultId } });
  return record ? openCard(record, keys) : null;
}

/** Everything a vault record holds, decrypted by hand: every field, not only those the vault reads (no security code). */
export function vaultPlaintext(record: StoredRecord, keys: VaultKeys = vaultKeys()): Record<string, unknown> {
  const wrapped = { keyId: record.kekId, iv: record.keyIv, ciphertext: record.wrappedKey, tag: record.keyTag };
  const dataKey = open(keys.ring, record.id, wrapped, 'vault record');
  const plain = open(keyRing([{ kid: 'data-key', key: dataKey }]), record.id, { keyId: 'data-key', ...record }, 'vault record');
  return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
}
