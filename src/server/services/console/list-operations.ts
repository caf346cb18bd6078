import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';
import type { MerchantScope } from './merchant-scope';

// The console's operations table: one row per transaction, newest first (or by amount),
// keyset pagination, the filters and search of issue 4.
export type OperationFilters = {
  merchantCode?: string;
  state?: string;
  method?: string;
  from?: Date;
  to?: Date;
  minAmount?: bigint;
  maxAmount?: bigint;
  search?: string;
  sort?: 'newest' | 'oldest' | 'amount_desc' | 'amount_asc';
  cursor?: string;
  limit?: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const operationRowSelect = {
  id: true,
  method: true,
  amount: true,
  currency: true,
  state: true,
  createdAt: true,
  maskedPan: true,
  cardBrand: true,
  payerEmail: true,
  payerName: true,
  operation: { select: { merchantOperationNumber: true, merchant: { select: { code: true, name: true } } } },
} satisfies Prisma.TransactionSelect;

export type OperationRow = Prisma.TransactionGetPayload<{ select: typeof operationRowSelect }>;

/** A row of the console's operations tables, as the procedures answer it. */
export function toOperationRowView(row: OperationRow) {
  return {
    transactionId: row.id,
    merchantCode: row.operation.merchant.code,
    merchantName: row.operation.merchant.name,
    merchantOperationNumber: row.operation.merchantOperationNumber,
    method: row.method,
    state: row.state,
    amount: row.amount.toString(),
    currency: row.currency,
    maskedPan: row.maskedPan,
    brand: row.cardBrand,
    payerEmail: row.payerEmail,
    payerName: row.payerName,
    createdAt: row.createdAt.toISOString(),
  };
}

function searchWhere(search: string): Prisma.TransactionWhereInput {
  const text = search.trim();
  if (UUID.test(text)) return { id: text.toLowerCase() };
  if (/^\d{4}$/.test(text))
    return { OR: [{ cardLast4: text }, { operation: { merchantOperationNumber: { startsWith: text } } }] };
  if (text.includes('@')) return { payerEmail: { contains: text.toLowerCase(), mode: 'insensitive' } };
  return { operation: { merchantOperationNumber: { startsWith: text } } };
}

export function operationsWhere(scope: MerchantScope, filters: OperationFilters): Prisma.TransactionWhereInput {
  const where: Prisma.TransactionWhereInput[] = [];
  if (scope.kind === 'one') where.push({ merchantId: scope.merchantId });
  if (filters.merchantCode) where.push({ operation: { merchant: { code: filters.merchantCode } } });
  if (filters.state) where.push({ state: filters.state });
  if (filters.method) where.push({ method: filters.method });
  if (filters.from || filters.to)
    where.push({ createdAt: { ...(filters.from ? { gte: filters.from } : {}), ...(filters.to ? { lt: filters.to } : {}) } });
  if (filters.minAmount !== undefined || filters.maxAmount !== undefined) {
    where.push({
      amount: {
        ...(filters.minAmount !== undefined ? { gte: filters.minAmount } : {}),
        ...(filters.maxAmount !== undefined ? { lte: filters.maxAmount } : {}),
      },
    });
  }
  if (filters.search?.trim()) where.push(searchWhere(filters.search));
  return { AND: where };
}

type Cursor = { key: string; id: string };

function decodeCursor(value: string): Cursor {
  const [key, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  if (!key || !id || !UUID.test(id)) throw new AppError('VALIDATION', 'cursor is not one this service issued');
  return { key, id };
}

const encodeCursor = (key: string, id: string) => Buffer.from(`${key}|${id}`).toString('base64url');

export async function listOperations(prisma: Db, scope: MerchantScope, filters: OperationFilters) {
  const limit = Math.min(Math.max(filters.limit ?? 25, 1), 200);
  const sort = filters.sort ?? 'newest';
  const byAmount = sort === 'amount_desc' || sort === 'amount_asc';
  const direction = sort === 'newest' || sort === 'amount_desc' ? 'desc' : 'asc';
  const base = operationsWhere(scope, filters);
  let page: Prisma.TransactionWhereInput = base;
  if (filters.cursor) {
    const cursor = decodeCursor(filters.cursor);
    const comparison = direction === 'desc' ? 'lt' : 'gt';
    const key = byAmount ? BigInt(cursor.key) : new Date(cursor.key);
    const field = byAmount ? 'amount' : 'createdAt';
    page = { AND: [base, { OR: [{ [field]: { [comparison]: key } }, { [field]: key, id: { [comparison]: cursor.id } }] }] };
  }
  const rows = await prisma.transaction.findMany({
    where: page,
    select: operationRowSelect,
    orderBy: [byAmount ? { amount: direction } : { createdAt: direction }, { id: direction }],
    take: limit + 1,
  });
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    rows: rows.slice(0, limit),
    nextCursor: last ? encodeCursor(byAmount ? last.amount.toString() : last.createdAt.toISOString(), last.id) : null,
  };
}
