import { createHash } from 'node:crypto';
import type { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';
import { successMeta } from '@/server/domain/envelope';
import { endOfDayExclusive, startOfDay } from '@/server/domain/business-day';
import type { RefundFilters } from '@/server/schemas/refund';
import { refundSelect, toRefundObject } from './refund-view';

// GET /refund (docs/interface.md 4.6, docs/DESIGN.md 11): newest first, keyset pagination on (created_at, id).
// operations_count counts every match once, on the first page; the cursor carries it to the
// next pages with a digest of the search it counted, so a deep page never counts again and a
// cursor sent with other filters counts afresh (docs/DECISIONS.md).
type Cursor = { createdAt: Date; id: string; count: { total: number; search: string } | null };

function encodeCursor(cursor: Cursor): string {
  const count = cursor.count ? `|${cursor.count.total}|${cursor.count.search}` : '';
  return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}${count}`).toString('base64url');
}

function decodeCursor(value: string): Cursor {
  const [createdAt, id, total, search, ...rest] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const date = new Date(createdAt ?? '');
  const counted = total !== undefined && /^(0|[1-9][0-9]{0,15})$/.test(total) && /^[\w-]{16}$/.test(search ?? '');
  if (
    !id ||
    !/^[0-9a-f-]{36}$/.test(id) ||
    Number.isNaN(date.getTime()) ||
    rest.length > 0 ||
    (total !== undefined && !counted)
  ) {
    throw new AppError('VALIDATION', 'cursor is not one this service issued', {
      errors: [{ field: 'cursor', code: 'invalid_cursor', message: 'cursor is not one this service issued' }],
    });
  }
  // A cursor made before counts were carried has none: that page counts.
  return { createdAt: date, id, count: counted ? { total: Number(total), search: search! } : null };
}

/** A digest of what a count counted: the merchants and the filters (not the page). */
function searchDigest(merchantIds: string[] | 'all', filters: Omit<RefundFilters, 'merchant_code'>): string {
  const { start_date, end_date, merchant_operation_number, transaction_id, state } = filters;
  const search = [merchantIds, start_date, end_date, merchant_operation_number, transaction_id?.toLowerCase(), state];
  return createHash('sha256').update(JSON.stringify(search)).digest('base64url').slice(0, 16);
}

export async function listRefunds(
  prisma: Db,
  /** 'all': every merchant (platform staff in the console). */
  scope: { merchantIds: string[] | 'all'; merchantCode: string },
  filters: Omit<RefundFilters, 'merchant_code'>,
) {
  const zone = env().BUSINESS_TIME_ZONE;
  const where: Prisma.RefundWhereInput = {
    ...(scope.merchantIds === 'all' ? {} : { merchantId: { in: scope.merchantIds } }),
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.transaction_id ? { transactionId: filters.transaction_id.toLowerCase() } : {}),
    ...(filters.merchant_operation_number ? { operation: { merchantOperationNumber: filters.merchant_operation_number } } : {}),
    ...(filters.start_date || filters.end_date
      ? {
          createdAt: {
            ...(filters.start_date ? { gte: startOfDay(filters.start_date, zone) } : {}),
            ...(filters.end_date ? { lt: endOfDayExclusive(filters.end_date, zone) } : {}),
          },
        }
      : {}),
  };
  const limit = Number(filters.limit ?? 50);
  const cursor = filters.cursor ? decodeCursor(filters.cursor) : null;
  // After the cursor: (created_at, id) below it; the bound on created_at alone is what the index seeks to.
  const page: Prisma.RefundWhereInput = cursor
    ? {
        AND: [
          where,
          { createdAt: { lte: cursor.createdAt } },
          { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] },
        ],
      }
    : where;
  const search = searchDigest(scope.merchantIds, filters);
  const carried = cursor?.count?.search === search ? cursor.count.total : null;
  const [total, rows] = await Promise.all([
    carried ?? prisma.refund.count({ where }),
    prisma.refund.findMany({
      where: page,
      select: refundSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    }),
  ]);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return {
    success: 'true' as const,
    merchant_code: scope.merchantCode,
    operations_count: String(total),
    operations: rows.slice(0, limit).map(toRefundObject),
    next_cursor: last ? encodeCursor({ createdAt: last.createdAt, id: last.id, count: { total, search } }) : null,
    meta: successMeta(),
  };
}

/** GET /refund/{merchant_code}/{merchant_operation_number} (docs/interface.md 4.7). */
export async function getRefundsOfOperation(prisma: Db, merchant: { id: string; code: string }, merchantOperationNumber: string) {
  const operation = await prisma.operation.findUnique({
    where: { merchantId_merchantOperationNumber: { merchantId: merchant.id, merchantOperationNumber } },
    select: { refunds: { select: refundSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
  });
  if (!operation) throw new AppError('NOT_FOUND', 'no such operation for this merchant');
  return {
    success: 'true' as const,
    merchant_code: merchant.code,
    operations_count: String(operation.refunds.length),
    operations: operation.refunds.map(toRefundObject),
    meta: successMeta(),
  };
}
