import type { Db } from '@/server/db/client';
import type { ActingMerchant } from '@/server/auth/acting-merchant';
import { AppError } from '@/server/domain/errors';
import { successMeta } from '@/server/domain/envelope';
import { toOperationObject, transactionSelect } from './transaction-view';
import { isUuid } from '@/server/domain/uuid';

// GET /charges/{merchant_code}/{merchant_operation_number}/{transaction_id} (docs/interface.md 4.3).
export async function getTransaction(
  prisma: Db,
  merchant: ActingMerchant,
  merchantOperationNumber: string,
  transactionId: string,
) {
  const notFound = new AppError('NOT_FOUND', 'no such transaction in this operation');
  if (!isUuid(transactionId)) throw notFound;
  const operation = await prisma.operation.findUnique({
    where: { merchantId_merchantOperationNumber: { merchantId: merchant.id, merchantOperationNumber } },
    select: { transactions: { select: transactionSelect, orderBy: { attempt: 'asc' } } },
  });
  if (!operation?.transactions.some((transaction) => transaction.id === transactionId.toLowerCase())) throw notFound;
  return {
    success: true as const,
    merchant_code: merchant.code,
    operation: toOperationObject(merchantOperationNumber, operation.transactions, 'millis', true),
    meta: successMeta(),
  };
}
