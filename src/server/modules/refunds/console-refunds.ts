import type { Db } from '@/server/platform/db/client';
import type { RefundFilters } from '@/server/core/interface/refund';
import { listRefunds } from '@/server/modules/refunds/list-refunds';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';

/** The console's refund search: the merchant named (a merchant user naming another sees nothing), or every one the user sees. */
export async function consoleRefunds(prisma: Db, scope: MerchantScope, input: RefundFilters) {
  const { merchant_code: named, ...filters } = input;
  if (named) {
    const merchant = await prisma.merchant.findUnique({ where: { code: named }, select: { id: true, code: true } });
    // As if it did not exist: no refunds rather than an error.
    const visible = merchant && (scope.kind === 'all' || scope.merchantId === merchant.id);
    return listRefunds(prisma, { merchantIds: visible ? [merchant.id] : [], merchantCode: named }, filters);
  }
  if (scope.kind === 'all') return listRefunds(prisma, { merchantIds: 'all', merchantCode: '' }, filters);
  const own = await prisma.merchant.findUniqueOrThrow({ where: { id: scope.merchantId }, select: { code: true } });
  return listRefunds(prisma, { merchantIds: [scope.merchantId], merchantCode: own.code }, filters);
}
