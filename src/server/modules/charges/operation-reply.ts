import type { Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { successMeta } from '@/server/core/domain/envelope';
import { toTimeObject } from '@/server/core/domain/time';
import { toOperationObject, transactionSelect } from './transaction-view';

/** The operation as DELETE and a capture answer it (docs/interface.md 4.4): its transactions, times in seconds. */
export async function operationReply(
  tx: Tx,
  merchant: ActingMerchant,
  merchantOperationNumber: string,
  operation: { id: string; createdAt: Date },
) {
  const transactions = await tx.transaction.findMany({
    where: { operationId: operation.id },
    orderBy: { attempt: 'asc' },
    select: transactionSelect,
  });
  return {
    success: true as const,
    merchant_code: merchant.code,
    merchant_operation_number: merchantOperationNumber,
    operation: {
      ...toOperationObject(merchantOperationNumber, transactions, 'seconds'),
      created_at: toTimeObject(operation.createdAt, 'seconds'),
    },
    meta: successMeta(),
  };
}
