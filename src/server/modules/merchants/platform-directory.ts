import type { Db } from '@/server/platform/db/client';
import { PAYMENT_METHODS } from '@/server/core/domain/states';

// What platform staff browse: merchants (searchable), facilitators, and what a cut-off would settle.
export const MERCHANT_PAGE = 100;

export async function listMerchants(prisma: Db, search: string | undefined) {
  const text = search?.trim();
  const rows = await prisma.merchant.findMany({
    where: text
      ? { OR: [{ code: { contains: text, mode: 'insensitive' } }, { name: { contains: text, mode: 'insensitive' } }] }
      : {},
    orderBy: [{ createdAt: 'desc' }, { code: 'asc' }],
    take: MERCHANT_PAGE + 1,
    select: { code: true, name: true, enabledMethods: true, createdAt: true, facilitator: { select: { code: true } } },
  });
  return {
    more: rows.length > MERCHANT_PAGE,
    rows: rows.slice(0, MERCHANT_PAGE).map((row) => ({
      code: row.code,
      name: row.name,
      facilitatorCode: row.facilitator?.code ?? null,
      enabledMethods: PAYMENT_METHODS.filter((method) => row.enabledMethods.includes(method)),
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

export async function listFacilitators(prisma: Db) {
  const rows = await prisma.facilitator.findMany({
    orderBy: [{ createdAt: 'desc' }, { code: 'asc' }],
    select: {
      code: true,
      name: true,
      createdAt: true,
      merchants: { orderBy: { code: 'asc' }, select: { code: true } },
    },
  });
  return rows.map((row) => ({
    code: row.code,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    merchantCodes: row.merchants.map((merchant) => merchant.code),
  }));
}

/** AUTORIZADO transactions of every merchant (or one): what "settle now" would move to LIQUIDADO. */
export function awaitingSettlement(prisma: Db, merchantId?: string): Promise<number> {
  return prisma.transaction.count({ where: { state: 'AUTORIZADO', ...(merchantId ? { merchantId } : {}) } });
}
