import type { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';
import { successMeta } from '@/server/domain/envelope';
import { endOfDayExclusive, startOfDay } from '@/server/domain/business-day';
import type { RefundFilters } from '@/server/schemas/refund';
import { refundSelect, toRefundObject } from './refund-view';

// GET /refund (interface 4.6, DESIGN.md 11): newest first, keyset pagination on (created_at, id).
type Cursor = { createdAt: Date; id: string };

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt.toISOString()}|${cursor.id}`).toString('base64url');
}

function decodeCursor(value: string): Cursor {
  const [createdAt, id] = Buffer.from(value, 'base64url').toString('utf8').split('|');
  const date = new Date(createdAt ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(date.getTime())) {
    throw new AppError('VALIDATION', 'cursor is not one this service issued', {
      errors: [{ field: 'cursor', code: 'invalid_cursor', message: 'cursor is not one this service issued' }],
    });
  }
  return { createdAt: date, id };
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
  const page: Prisma.RefundWhereInput = cursor
    ? {
        AND: [where, { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }],
      }
    : where;
  const [total, rows] = await Promise.all([
    prisma.refund.count({ where }),
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
    next_cursor: last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    meta: successMeta(),
  };
}

/** GET /refund/{merchant_code}/{merchant_operation_number} (interface 4.7). */
export async function refundsOfOperation(prisma: Db, merchant: { id: string; code: string }, merchantOperationNumber: string) {
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
