import type { Tx } from '@/server/platform/db/client';

/** Locks an existing operation of the merchant, or returns null. */
export async function lockOperation(tx: Tx, merchantId: string, merchantOperationNumber: string) {
  const rows = await tx.$queryRaw<{ id: string; created_at: Date }[]>`
    SELECT id, created_at FROM operations
    WHERE merchant_id = ${merchantId}::uuid AND merchant_operation_number = ${merchantOperationNumber}
    FOR UPDATE`;
  const row = rows[0];
  return row ? { id: row.id, createdAt: row.created_at } : null;
}
