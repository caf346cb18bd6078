import { randomUUID } from 'node:crypto';
import type { Tx } from '@/server/db/client';

/**
 * Creates the operation if it is new and holds its row lock until the database transaction
 * ends: concurrent charges and cancellations of one operation run one after the other.
 * ON CONFLICT DO UPDATE locks the existing row and returns it in the same round trip.
 */
export async function lockOrCreateOperation(tx: Tx, merchantId: string, merchantOperationNumber: string) {
  const rows = await tx.$queryRaw<{ id: string; created_at: Date }[]>`
    INSERT INTO operations (id, merchant_id, merchant_operation_number, created_at)
    VALUES (${randomUUID()}::uuid, ${merchantId}::uuid, ${merchantOperationNumber}, now())
    ON CONFLICT (merchant_id, merchant_operation_number)
    DO UPDATE SET merchant_operation_number = EXCLUDED.merchant_operation_number
    RETURNING id, created_at`;
  const row = rows[0];
  if (!row) throw new Error('operation upsert returned no row');
  return { id: row.id, createdAt: row.created_at };
}

/** Locks an existing operation of the merchant, or returns null. */
export async function lockOperation(tx: Tx, merchantId: string, merchantOperationNumber: string) {
  const rows = await tx.$queryRaw<{ id: string; created_at: Date }[]>`
    SELECT id, created_at FROM operations
    WHERE merchant_id = ${merchantId}::uuid AND merchant_operation_number = ${merchantOperationNumber}
    FOR UPDATE`;
  const row = rows[0];
  return row ? { id: row.id, createdAt: row.created_at } : null;
}
