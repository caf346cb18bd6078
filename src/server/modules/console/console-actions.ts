import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';
import { cancelOperation } from '@/server/modules/charges/cancel-operation';
import { capturePayment } from '@/server/modules/charges/capture-payment';
import { actingMerchantById, assertInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';
import { fileRefunds, type RefundFields } from '@/server/modules/refunds/refund-batch';

// Console actions go through the same services and rules as the REST API.
async function operationOf(prisma: Db, scope: MerchantScope, transactionId: string) {
  const notFound = new AppError('NOT_FOUND', 'no such operation');
  if (!isUuid(transactionId)) throw notFound;
  const id = transactionId.toLowerCase();
  // An attempt in flight (its claim) is acted on too: the services answer what it allows.
  const row =
    (await prisma.transaction.findUnique({ where: { id }, select: { merchantId: true, operationId: true } })) ??
    (await prisma.chargeClaim.findUnique({ where: { transactionId: id }, select: { merchantId: true, operationId: true } }));
  if (!row) throw notFound;
  assertInScope(scope, row.merchantId);
  const operation = await prisma.operation.findUniqueOrThrow({
    where: { id: row.operationId },
    select: { merchantOperationNumber: true },
  });
  return {
    merchant: await actingMerchantById(prisma, row.merchantId),
    merchantOperationNumber: operation.merchantOperationNumber,
  };
}

export async function cancelFromConsole(prisma: Db, scope: MerchantScope, transactionId: string, actor: string) {
  const { merchant, merchantOperationNumber } = await operationOf(prisma, scope, transactionId);
  return cancelOperation(prisma, merchant, merchantOperationNumber, { actor });
}

/** The refund of one transaction (operation page): a batch of one for the transaction's merchant. */
export async function refundFromConsole(
  prisma: Db,
  scope: MerchantScope,
  transactionId: string,
  fields: RefundFields,
  amount: string | null = null,
) {
  const { merchant } = await operationOf(prisma, scope, transactionId);
  return fileRefunds(prisma, merchant, [{ transactionId, amount, additional_fields: fields }]);
}

/** The Capture action (operation page): all of an authorization to capture later, or `amount` cents of it. */
export async function captureFromConsole(prisma: Db, scope: MerchantScope, transactionId: string, amount: string | null) {
  const { merchant, merchantOperationNumber } = await operationOf(prisma, scope, transactionId);
  return capturePayment(prisma, merchant, merchantOperationNumber, amount === null ? null : BigInt(amount));
}
