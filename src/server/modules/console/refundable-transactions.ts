import type { Db } from '@/server/platform/db/client';
import { REFUNDABLE_METHODS } from '@/server/core/domain/states';
import { operationRowSelect, operationsWhere, toOperationRowView } from '@/server/modules/console/list-operations';
import { merchantInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';

/** As many as one refund request may hold (docs/DESIGN.md 10): a longer list is narrowed by a search. */
export const REFUNDABLE_PAGE = 50;

/**
 * The merchant's transactions a refund may be filed for now: LIQUIDADO, of a method with refunds,
 * with something still refundable (a REJECTED refund gives its amount back). Newest first; `search` as in the operations table.
 */
export async function refundableTransactions(
  prisma: Db,
  scope: MerchantScope,
  input: { merchantCode?: string; search?: string },
) {
  const merchant = await merchantInScope(prisma, scope, input.merchantCode);
  const rows = await prisma.transaction.findMany({
    where: {
      AND: [
        operationsWhere({ kind: 'one', merchantId: merchant.id }, { search: input.search }),
        { state: 'LIQUIDADO', method: { in: [...REFUNDABLE_METHODS] } },
        {
          OR: [
            { capturedAmount: null, refundedAmount: { lt: prisma.transaction.fields.amount } },
            { capturedAmount: { not: null }, refundedAmount: { lt: prisma.transaction.fields.capturedAmount } },
          ],
        },
      ],
    },
    select: operationRowSelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: REFUNDABLE_PAGE + 1,
  });
  return {
    merchant: { code: merchant.code, name: merchant.name },
    more: rows.length > REFUNDABLE_PAGE,
    rows: rows.slice(0, REFUNDABLE_PAGE).map(toOperationRowView),
  };
}
