import type { Db } from '@/server/db/client';
import type { ActingMerchant } from '@/server/auth/acting-merchant';
import { AppError } from '@/server/domain/errors';
import { cancelOperation } from '@/server/services/cancel-operation';
import { requestRefunds } from '@/server/services/request-refunds';
import type { RefundRequest } from '@/server/schemas/refund';
import { assertInScope, type MerchantScope } from './merchant-scope';

// Console actions go through the same services and rules as the REST API.
async function actingMerchantById(prisma: Db, merchantId: string): Promise<ActingMerchant> {
  const merchant = await prisma.merchant.findUniqueOrThrow({
    where: { id: merchantId },
    select: { id: true, code: true, name: true, enabledMethods: true, expirySeconds: true },
  });
  return { ...merchant, expirySeconds: (merchant.expirySeconds ?? {}) as Record<string, number> };
}

async function operationOf(prisma: Db, scope: MerchantScope, transactionId: string) {
  const row = await prisma.transaction.findUnique({
    where: { id: transactionId },
    select: { merchantId: true, operation: { select: { merchantOperationNumber: true } } },
  });
  if (!row) throw new AppError('NOT_FOUND', 'no such operation');
  assertInScope(scope, row.merchantId);
  return {
    merchant: await actingMerchantById(prisma, row.merchantId),
    merchantOperationNumber: row.operation.merchantOperationNumber,
  };
}

export async function cancelFromConsole(prisma: Db, scope: MerchantScope, transactionId: string, actor: string) {
  const { merchant, merchantOperationNumber } = await operationOf(prisma, scope, transactionId);
  return cancelOperation(prisma, merchant, merchantOperationNumber, actor);
}

export async function refundFromConsole(
  prisma: Db,
  scope: MerchantScope,
  transactionId: string,
  fields: RefundRequest['operations'][number]['additional_fields'],
) {
  const { merchant, merchantOperationNumber } = await operationOf(prisma, scope, transactionId);
  const transaction = await prisma.transaction.findUniqueOrThrow({ where: { id: transactionId }, select: { amount: true } });
  return requestRefunds(prisma, merchant, {
    merchant_code: merchant.code,
    operations: [
      {
        type: 'TOTAL',
        merchant_operation_number: merchantOperationNumber,
        transaction_id: transactionId,
        refund_amount: transaction.amount.toString(),
        additional_fields: fields,
      },
    ],
  });
}
