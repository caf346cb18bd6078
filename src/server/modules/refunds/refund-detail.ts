import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';
import { refundSelect, toRefundObject } from '@/server/modules/refunds/refund-view';
import { toTransactionObject, transactionSelect } from '@/server/modules/charges/transaction-view';
import { eventsOf } from '@/server/modules/events/event-view';
import { assertInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';

/** Everything the console shows about one refund: itself, the transaction it refunds, its merchant and callbacks. */
export async function refundDetail(prisma: Db, scope: MerchantScope, refundId: string) {
  const notFound = new AppError('NOT_FOUND', 'no such refund');
  if (!isUuid(refundId)) throw notFound;
  const row = await prisma.refund.findUnique({
    where: { id: refundId.toLowerCase() },
    select: {
      ...refundSelect,
      merchantId: true,
      operation: { select: { merchant: { select: { code: true, name: true } } } },
      transaction: { select: transactionSelect },
    },
  });
  if (!row) throw notFound;
  assertInScope(scope, row.merchantId, 'refund');
  return {
    refund: toRefundObject(row),
    createdAt: row.createdAt.toISOString(),
    merchant: row.operation.merchant,
    transaction: toTransactionObject(row.transaction, 'millis'),
    events: await eventsOf(prisma, [row.id]),
  };
}
