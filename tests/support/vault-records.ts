import type { Db } from '@/server/platform/db/client';
import { openCard } from '@/server/modules/customers/vault';
import { vaultKeys, type VaultKeys } from '@/server/platform/security/vault-keys';

/** The card a vault record holds, read from the database; null once the record is gone. */
export async function cardInVault(db: Db, vaultId: string, keys: VaultKeys = vaultKeys()) {
  const record = await db.vaultRecord.findUnique({ where: { id: vaultId } });
  return record ? openCard(record, keys) : null;
}
