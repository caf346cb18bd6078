import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { EVENT_TYPES } from '@/server/core/domain/event-types';
import { decodeCursor, encodeCursor, integer64, type CursorField } from '@/server/core/interface/cursor';
import { successMeta } from '@/server/core/domain/envelope';
import type { EventFilters, EventListResponse } from '@/server/core/interface/event';

// A merchant's events in the order of the outbox's seq, a page at a time: the cursor is the last
// seq of the page, so pages never repeat an event. A seq is taken when its row is written and
// seen when its transaction commits, so an event written in the same instant as a page is read
// may commit behind that page's cursor: an integrator catching up reads again from a few seconds
// back (`created_after`) and drops the event ids it has (docs/DECISIONS.md, "The events API").
const DEFAULT_LIMIT = 50;
/** The outbox seq of the page's last event, written `e<seq>`. */
const eventSeq: CursorField<bigint> = (text) => (text.startsWith('e') ? integer64(text.slice(1)) : null);

export async function listEvents(
  prisma: Db,
  scope: { merchantIds: string[]; merchantCode: string },
  filters: Omit<EventFilters, 'merchant_code'>,
): Promise<EventListResponse> {
  const limit = filters.limit ? Number(filters.limit) : DEFAULT_LIMIT;
  const where: Prisma.OutboxEventWhereInput = {
    merchantId: { in: scope.merchantIds },
    // The operations' events only: a webhook endpoint's test delivery is not an event.
    type: filters.type ?? { in: EVENT_TYPES },
    ...(filters.merchant_operation_number
      ? { payload: { path: ['merchant_operation_number'], equals: filters.merchant_operation_number } }
      : {}),
    ...(filters.delivered === 'true'
      ? { status: 'DELIVERED' }
      : filters.delivered === 'false'
        ? { status: { not: 'DELIVERED' } }
        : {}),
    ...(filters.created_after ? { createdAt: { gt: new Date(filters.created_after) } } : {}),
    ...(filters.cursor ? { seq: { gt: decodeCursor(filters.cursor, [eventSeq])[0] } } : {}),
  };
  const rows = await prisma.outboxEvent.findMany({
    where,
    orderBy: { seq: 'asc' },
    take: limit + 1,
    select: { id: true, seq: true, type: true, payload: true, status: true, attempts: true, deliveredAt: true, createdAt: true },
  });
  const page = rows.slice(0, limit);
  const last = rows.length > limit ? page.at(-1) : undefined;
  return {
    success: true,
    merchant_code: scope.merchantCode,
    events: page.map((row) => {
      const payload = row.payload as Record<string, unknown> & { merchant_operation_number?: string };
      return {
        event_id: row.id,
        event_type: row.type,
        merchant_operation_number: payload.merchant_operation_number ?? null,
        created_at: row.createdAt.toISOString(),
        delivery: { status: row.status, attempts: row.attempts, delivered_at: row.deliveredAt?.toISOString() ?? null },
        payload,
      };
    }),
    next_cursor: last ? encodeCursor([`e${last.seq}`]) : null,
    meta: successMeta(),
  };
}
