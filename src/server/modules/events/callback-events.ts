import type { Prisma } from '@/generated/prisma/client';
import { decodeCursor, encodeCursor, integer64 } from '@/server/core/interface/cursor';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { resendEvent } from '@/server/modules/events/resend-event';
import { eventSelect, toEventView } from '@/server/modules/events/event-view';
import { assertInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';

// The console's callback delivery log: events that have a callback URL (the others are SKIPPED:
// nothing is sent), newest first by creation order, with every attempt; and the manual resend.
export const CALLBACK_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number];

export type CallbackEventFilters = { merchantCode?: string; status?: CallbackStatus; cursor?: string; limit?: number };

async function merchantWhere(
  prisma: Db,
  scope: MerchantScope,
  merchantCode: string | undefined,
): Promise<Prisma.OutboxEventWhereInput> {
  const own = scope.kind === 'one' ? { merchantId: scope.merchantId } : {};
  if (!merchantCode) return own;
  const named = await prisma.merchant.findUnique({ where: { code: merchantCode }, select: { id: true } });
  // Another merchant's code, or an unknown one, finds nothing (existence does not leak).
  if (!named || (scope.kind === 'one' && named.id !== scope.merchantId)) return { merchantId: { in: [] } };
  return { merchantId: named.id };
}

/** Where each event's operation is: its number and the transaction the console page opens with. */
async function operationsOf(prisma: Db, aggregateIds: string[]) {
  const [transactions, refunds] = await Promise.all([
    prisma.transaction.findMany({
      where: { id: { in: aggregateIds } },
      select: { id: true, operation: { select: { merchantOperationNumber: true } } },
    }),
    prisma.refund.findMany({
      where: { id: { in: aggregateIds } },
      select: { id: true, transactionId: true, operation: { select: { merchantOperationNumber: true } } },
    }),
  ]);
  return new Map([
    ...transactions.map((row) => [row.id, { transactionId: row.id, number: row.operation.merchantOperationNumber }] as const),
    ...refunds.map(
      (row) => [row.id, { transactionId: row.transactionId, number: row.operation.merchantOperationNumber }] as const,
    ),
  ]);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export async function listCallbackEvents(prisma: Db, scope: MerchantScope, filters: CallbackEventFilters) {
  const limit = filters.limit ?? 25;
  const where: Prisma.OutboxEventWhereInput = {
    AND: [
      { callbackUrl: { not: null } },
      await merchantWhere(prisma, scope, filters.merchantCode),
      filters.status ? { status: filters.status } : {},
      filters.cursor ? { seq: { lt: decodeCursor(filters.cursor, [integer64])[0] } } : {},
    ],
  };
  const events = await prisma.outboxEvent.findMany({
    where,
    orderBy: { seq: 'desc' },
    take: limit + 1,
    select: { ...eventSelect, seq: true, merchantId: true },
  });
  const page = events.slice(0, limit);
  const [operations, merchants] = await Promise.all([
    operationsOf(
      prisma,
      page.map((event) => event.aggregateId),
    ),
    prisma.merchant.findMany({
      where: { id: { in: [...new Set(page.map((event) => event.merchantId))] } },
      select: { id: true, code: true },
    }),
  ]);
  const codes = new Map(merchants.map((merchant) => [merchant.id, merchant.code]));
  return {
    nextCursor: events.length > limit ? encodeCursor([page.at(-1)!.seq]) : null,
    rows: page.map(({ seq: _seq, merchantId, ...event }) => ({
      ...toEventView(event),
      merchantCode: codes.get(merchantId) ?? '',
      operationNumber: operations.get(event.aggregateId)?.number ?? null,
      transactionId: operations.get(event.aggregateId)?.transactionId ?? null,
      callbackHost: hostOf(event.callbackUrl ?? ''),
    })),
  };
}

/** A manual resend from the console: only of an event of a merchant the user may see. */
export async function resendFromConsole(prisma: Db, scope: MerchantScope, eventId: string) {
  const event = await prisma.outboxEvent.findUnique({ where: { id: eventId }, select: { merchantId: true } });
  if (!event) throw new AppError('NOT_FOUND', 'no such event');
  assertInScope(scope, event.merchantId);
  const sent = await resendEvent(prisma, eventId);
  return { eventId: sent.id, status: sent.status, attempts: sent.attempts, attempt: sent.deliveries[0]! };
}
