import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { count, decodeCursor, encodeCursor, integer64, uuid } from '@/server/core/interface/cursor';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';

// Every delivery of an event, as the console shows it: to the operation's own callback_url (the
// outbox event itself) and to each of the merchant's webhook endpoints (endpoint_deliveries), each
// with its state, attempts, next attempt and, while pending, why it waits. The reasons are the
// claim's own conditions (claim-deliveries.ts) read from the same columns: a lease under way, an
// endpoint disabled, an earlier event of the operation still pending, a destination held after
// failures (callback_destinations, destination-holds.ts), a retry scheduled, or simply due.

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type DeliveryKind = 'callback' | 'endpoint';

/** Why a pending delivery has not been made yet. */
export type DeliveryWait =
  /** A worker holds its lease: it is being sent now. */
  | { reason: 'sending' }
  /** Its webhook endpoint is disabled: the worker does not claim it. */
  | { reason: 'endpoint_disabled' }
  /** An earlier event of the same operation is still pending to this destination: events go in order. */
  | { reason: 'behind_earlier' }
  /** Its destination failed lately (no answer, a name that does not resolve, a 429): held until then. */
  | { reason: 'destination_held'; until: string; failures: number; lastFailure: string | null }
  /** It failed and is tried again at its schedule's next step. */
  | { reason: 'retry_scheduled'; at: string }
  /** Due and never attempted: waiting for a worker to claim it. */
  | { reason: 'queued' }
  /** Due for its next attempt: waiting for a worker to claim it. */
  | { reason: 'retry_due' };

export type DeliveryWaitReason = DeliveryWait['reason'];

/** A delivery's row as the listing statement reads it. */
export type DeliveryRow = {
  kind: DeliveryKind;
  id: string;
  event_id: string;
  endpoint_id: string | null;
  type: string;
  aggregate_id: string;
  seq: bigint;
  merchant_id: string;
  url: string;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  lease_until: Date | null;
  delivered_at: Date | null;
  last_error: string | null;
  created_at: Date;
  endpoint_enabled: boolean | null;
  behind: boolean;
  held_until: Date | null;
  held_failures: number | null;
  held_error: string | null;
};

/** Why a pending delivery waits at `now`, in the order the claim checks; null when it is not pending. */
export function waitOf(row: DeliveryRow, now: Date): DeliveryWait | null {
  if (row.status !== 'PENDING') return null;
  if (row.lease_until !== null && row.lease_until > now) return { reason: 'sending' };
  if (row.endpoint_enabled === false) return { reason: 'endpoint_disabled' };
  if (row.behind) return { reason: 'behind_earlier' };
  // A hold only delays claims: it is the reason when it ends after the delivery's own next attempt.
  if (row.held_until !== null && row.held_until > now && row.held_until >= row.next_attempt_at) {
    return {
      reason: 'destination_held',
      until: row.held_until.toISOString(),
      failures: row.held_failures ?? 0,
      lastFailure: row.held_error,
    };
  }
  if (row.next_attempt_at > now) return { reason: 'retry_scheduled', at: row.next_attempt_at.toISOString() };
  return { reason: row.attempts === 0 ? 'queued' : 'retry_due' };
}

/**
 * When the next attempt is due, if that is a time to come: a retry's schedule or the
 * destination's hold. Null once delivered or given up, and while it waits for something else (an
 * earlier event, a worker, a disabled endpoint): a time already past would read as a missed one.
 */
function nextAttemptOf(wait: DeliveryWait | null): string | null {
  if (wait?.reason === 'destination_held') return wait.until;
  if (wait?.reason === 'retry_scheduled') return wait.at;
  return null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A branch's own columns, for a filter that applies to both kinds (the log's cursor and state). */
type Branch = { endpoint: boolean; seq: Prisma.Sql; id: Prisma.Sql; status: Prisma.Sql };

/**
 * Both kinds of delivery, one statement: `where` filters the events (alias e) and `filter` each
 * branch by its own columns. A callback is its event; an endpoint delivery joins its event and
 * endpoint. With a limit, each branch is ordered and cut first, so the union sorts at most twice
 * the page (the callbacks by the events' sequence index) rather than every delivery in scope.
 */
function deliveriesStatement(
  where: Prisma.Sql,
  filter: (branch: Branch) => Prisma.Sql,
  order: 'ASC' | 'DESC',
  limit: number | null,
) {
  const direction = Prisma.raw(order);
  const take = limit === null ? Prisma.empty : Prisma.sql`LIMIT ${limit}`;
  const callbacks = filter({ endpoint: false, seq: Prisma.sql`e.seq`, id: Prisma.sql`e.id`, status: Prisma.sql`e.status` });
  const endpoints = filter({ endpoint: true, seq: Prisma.sql`x.seq`, id: Prisma.sql`x.id`, status: Prisma.sql`x.status` });
  return Prisma.sql`
    SELECT * FROM (
      (SELECT 'callback' AS kind, e.id, e.id AS event_id, NULL::uuid AS endpoint_id, e.type, e.aggregate_id, e.seq,
        e.merchant_id, e.callback_url AS url, e.status::text AS status, e.attempts, e.next_attempt_at, e.lease_until,
        e.delivered_at, e.last_error, e.created_at, NULL::boolean AS endpoint_enabled,
        EXISTS (SELECT 1 FROM outbox_events earlier
          WHERE earlier.aggregate_id = e.aggregate_id AND earlier.status = 'PENDING' AND earlier.seq < e.seq) AS behind,
        h.held_until, h.failures AS held_failures, h.last_error AS held_error
      FROM outbox_events e
      LEFT JOIN callback_destinations h ON h.destination = e.destination
      WHERE e.callback_url IS NOT NULL AND ${where} AND ${callbacks}
      ORDER BY e.seq ${direction}
      ${take})
      UNION ALL
      (SELECT 'endpoint' AS kind, x.id, x.event_id, x.endpoint_id, e.type, x.aggregate_id, x.seq,
        e.merchant_id, x.url, x.status::text AS status, x.attempts, x.next_attempt_at, x.lease_until,
        x.delivered_at, x.last_error, x.created_at, w.enabled AS endpoint_enabled,
        EXISTS (SELECT 1 FROM endpoint_deliveries earlier
          WHERE earlier.endpoint_id = x.endpoint_id AND earlier.aggregate_id = x.aggregate_id
            AND earlier.status = 'PENDING' AND earlier.seq < x.seq) AS behind,
        h.held_until, h.failures AS held_failures, h.last_error AS held_error
      FROM endpoint_deliveries x
      JOIN outbox_events e ON e.id = x.event_id
      JOIN webhook_endpoints w ON w.id = x.endpoint_id
      LEFT JOIN callback_destinations h ON h.destination = x.destination
      WHERE ${where} AND ${endpoints}
      ORDER BY x.seq ${direction}, x.id ${direction}
      ${take})
    ) d
    ORDER BY d.seq ${direction}, (d.kind = 'endpoint') ${direction}, d.id ${direction}
    ${take}`;
}

/** The rows with their attempts (oldest first) and wait, as the console shows them. */
async function withAttempts(prisma: Db, rows: DeliveryRow[], now: Date) {
  const callbacks = rows.filter((row) => row.kind === 'callback').map((row) => row.id);
  const endpoints = rows.filter((row) => row.kind === 'endpoint').map((row) => row.id);
  const attempts =
    rows.length === 0
      ? []
      : await prisma.callbackAttempt.findMany({
          where: {
            OR: [{ eventId: { in: callbacks }, endpointDeliveryId: null }, { endpointDeliveryId: { in: endpoints } }],
          },
          orderBy: { number: 'asc' },
          select: {
            eventId: true,
            endpointDeliveryId: true,
            number: true,
            startedAt: true,
            latencyMs: true,
            statusCode: true,
            error: true,
            manual: true,
          },
        });
  return rows.map((row) => {
    const wait = waitOf(row, now);
    return {
      kind: row.kind,
      id: row.id,
      eventId: row.event_id,
      merchantId: row.merchant_id,
      endpointId: row.endpoint_id,
      type: row.type,
      aggregateId: row.aggregate_id,
      url: row.url,
      host: hostOf(row.url),
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: nextAttemptOf(wait),
      deliveredAt: row.delivered_at?.toISOString() ?? null,
      lastError: row.last_error,
      createdAt: row.created_at.toISOString(),
      wait,
      attemptLog: attempts
        .filter((attempt) =>
          row.kind === 'callback'
            ? attempt.eventId === row.id && attempt.endpointDeliveryId === null
            : attempt.endpointDeliveryId === row.id,
        )
        .map(({ eventId: _event, endpointDeliveryId: _delivery, startedAt, ...attempt }) => ({
          ...attempt,
          startedAt: startedAt.toISOString(),
        })),
    };
  });
}

export type DeliveryView = Awaited<ReturnType<typeof withAttempts>>[number];

/** Every delivery of these transactions' or refunds' events, in the events' order: the operation page's. */
export async function deliveriesOf(prisma: Db, aggregateIds: string[], now = new Date()): Promise<DeliveryView[]> {
  if (aggregateIds.length === 0) return [];
  const rows = await prisma.$queryRaw<DeliveryRow[]>(
    deliveriesStatement(Prisma.sql`e.aggregate_id = ANY(${aggregateIds}::uuid[])`, () => Prisma.sql`TRUE`, 'ASC', null),
  );
  return withAttempts(prisma, rows, now);
}

export type DeliveryFilters = { merchantId?: string | null; status?: DeliveryStatus; cursor?: string; limit?: number };

/**
 * The delivery log: the deliveries of the merchants in `scope` (or of `merchantId` within it),
 * newest event first (an event goes to its operation's callback_url or to endpoints, never both).
 * The cursor is the last row's (seq, kind, id); a cursor of the log before endpoint deliveries (seq only) still reads.
 */
export async function listDeliveries(prisma: Db, scope: MerchantScope, filters: DeliveryFilters, now = new Date()) {
  const limit = filters.limit ?? 25;
  const merchants = [
    scope.kind === 'one' ? Prisma.sql`e.merchant_id = ${scope.merchantId}::uuid` : Prisma.sql`TRUE`,
    filters.merchantId === undefined
      ? Prisma.sql`TRUE`
      : filters.merchantId === null
        ? Prisma.sql`FALSE`
        : Prisma.sql`e.merchant_id = ${filters.merchantId}::uuid`,
  ];
  const where = Prisma.join(merchants, ' AND ');
  const cursor = filters.cursor ? decodeCursor(filters.cursor, [integer64, count, uuid], 1) : null;
  const filter = (branch: Branch) => {
    const conditions = [filters.status ? Prisma.sql`${branch.status}::text = ${filters.status}` : Prisma.sql`TRUE`];
    if (cursor) {
      const [seq, endpoint, id] = cursor;
      conditions.push(
        endpoint === undefined || id === undefined
          ? Prisma.sql`${branch.seq} < ${seq}`
          : Prisma.sql`(${branch.seq}, ${Prisma.raw(branch.endpoint ? 'TRUE' : 'FALSE')}, ${branch.id}) < (${seq}, ${endpoint === 1}::boolean, ${id}::uuid)`,
      );
    }
    return Prisma.join(conditions, ' AND ');
  };
  const rows = await prisma.$queryRaw<DeliveryRow[]>(deliveriesStatement(where, filter, 'DESC', limit + 1));
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    nextCursor: rows.length > limit && last ? encodeCursor([last.seq, last.kind === 'endpoint' ? 1 : 0, last.id]) : null,
    rows: await withAttempts(prisma, page, now),
  };
}
