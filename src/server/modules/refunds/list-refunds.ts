import { createHash } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import type { Db, Tx } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { count, decodeCursor, digest, encodeCursor, instant, uuid } from '@/server/core/interface/cursor';
import { NIL_UUID } from '@/server/core/domain/uuid';
import { successMeta } from '@/server/core/domain/envelope';
import { endOfDayExclusive, startOfDay } from '@/server/core/domain/business-day';
import type { RefundFilters } from '@/server/core/interface/refund';
import { refundSelect, toRefundObject, type RefundLifecycle, type RefundRow } from './refund-view';

// GET /refund (docs/interface.md 4.6, docs/DESIGN.md 11): newest first, keyset pagination on (created_at, id).
// operations_count counts every match once, on the first page; the cursor carries it to the
// next pages with a digest of the search it counted, so a deep page never counts again and a
// cursor sent with other filters counts afresh (docs/DECISIONS.md).
type Cursor = { createdAt: Date; id: string; count: { total: number; search: string } | null };

function encodeRefundCursor({ createdAt, id, count: counted }: Cursor): string {
  return encodeCursor(counted ? [createdAt, id, counted.total, counted.search] : [createdAt, id]);
}

function decodeRefundCursor(value: string): Cursor {
  // A cursor made before counts were carried has none: that page counts.
  const [createdAt, id, total, search] = decodeCursor(value, [instant, uuid, count, digest], 2);
  return { createdAt, id, count: total !== undefined && search !== undefined ? { total, search } : null };
}

/** A digest of what a count counted: the merchants and the filters (not the page). */
function searchDigest(merchantIds: string[] | 'all', filters: Omit<RefundFilters, 'merchant_code'>): string {
  const { start_date, end_date, merchant_operation_number, transaction_id, state } = filters;
  const search = [merchantIds, start_date, end_date, merchant_operation_number, transaction_id?.toLowerCase(), state];
  return createHash('sha256').update(JSON.stringify(search)).digest('base64url').slice(0, 16);
}

// The page comes back as one JSON document (json_agg of its rows): a row per refund with 16
// columns cost the embedded database's thread more in its protocol parser than in the query.
type PageRow = {
  id: string;
  state: RefundRow['state'];
  reason: string;
  type: string;
  refund_amount: string;
  transaction_amount: string;
  currency: string;
  additional_fields: RefundRow['additionalFields'];
  created_at: string;
  merchant_operation_number: string;
  transaction_id: string;
  method: RefundRow['method'];
  card_brand: string | null;
  masked_pan: string | null;
  lifecycle: RefundLifecycle;
  total: string | null;
};

function refundRowOf(row: PageRow): RefundRow {
  return {
    id: row.id,
    state: row.state,
    reason: row.reason,
    type: row.type,
    refundAmount: BigInt(row.refund_amount),
    transactionAmount: BigInt(row.transaction_amount),
    currency: row.currency,
    additionalFields: row.additional_fields,
    createdAt: new Date(row.created_at),
    merchantOperationNumber: row.merchant_operation_number,
    transactionId: row.transaction_id,
    method: row.method,
    cardBrand: row.card_brand,
    maskedPan: row.masked_pan,
    lifecycle: row.lifecycle,
  };
}

export async function listRefunds(
  prisma: Tx,
  /** 'all': every merchant (platform staff in the console). */
  scope: { merchantIds: string[] | 'all'; merchantCode: string },
  filters: Omit<RefundFilters, 'merchant_code'>,
) {
  const zone = env().BUSINESS_TIME_ZONE;
  const from = filters.start_date ? startOfDay(filters.start_date, zone) : null;
  const to = filters.end_date ? endOfDayExclusive(filters.end_date, zone) : null;
  // Every condition is on the refund's own columns, so that the page is found, in order, in the
  // index that starts with its scope (and state) before anything is joined to it.
  const merchantIs = (column: Prisma.Sql) =>
    scope.merchantIds === 'all'
      ? null
      : scope.merchantIds.length === 0
        ? Prisma.sql`FALSE`
        : Prisma.sql`${column} IN (${Prisma.join(scope.merchantIds.map((id) => Prisma.sql`${id}::uuid`))})`;
  const scoped = (column: Prisma.Sql, extra: (Prisma.Sql | null)[]) => {
    const all = [merchantIs(column), ...extra].filter((condition) => condition !== null);
    return all.length > 0 ? Prisma.join(all, ' AND ') : Prisma.sql`TRUE`;
  };
  const state = filters.state ? Prisma.sql`r.state = ${filters.state}::"RefundState"` : null;
  const exact: Prisma.Sql[] = [];
  if (filters.transaction_id) exact.push(Prisma.sql`r.transaction_id = ${filters.transaction_id.toLowerCase()}::uuid`);
  if (filters.merchant_operation_number) {
    exact.push(Prisma.sql`r.operation_id IN (SELECT o.id FROM operations o
      WHERE ${scoped(Prisma.sql`o.merchant_id`, [Prisma.sql`o.merchant_operation_number = ${filters.merchant_operation_number}`])})`);
  }
  const between = (lower: Date | null, upper: Date | null) => [
    lower ? Prisma.sql`r.created_at >= ${lower}` : null,
    upper ? Prisma.sql`r.created_at < ${upper}` : null,
  ];
  const where = scoped(Prisma.sql`r.merchant_id`, [state, ...exact, ...between(from, to)]);
  const limit = Number(filters.limit ?? 50);
  const cursor = filters.cursor ? decodeRefundCursor(filters.cursor) : null;
  const search = searchDigest(scope.merchantIds, filters);
  const carried = cursor?.count?.search === search ? cursor.count.total : null;
  // After the cursor: (created_at, id) below it; the bound on created_at alone is what the index seeks to.
  const after = cursor
    ? Prisma.sql`AND r.created_at <= ${cursor.createdAt}
        AND (r.created_at < ${cursor.createdAt} OR (r.created_at = ${cursor.createdAt} AND r.id < ${cursor.id}::uuid))`
    : Prisma.empty;
  // The first page counts its search; a later page carries the count in its cursor, or counts
  // again when its search changed.
  const countHere = carried === null;
  const [[document], counted] = await Promise.all([
    // The page from the refunds' own rows (refund-view.ts), in the order of the index it is read from.
    prisma.$queryRaw<{ page: PageRow[] | null }[]>`
      SELECT json_agg(p ORDER BY p.created_at DESC, p.id DESC) AS page FROM (
        SELECT r.id, r.state, r.reason, r.type, r.refund_amount::text AS refund_amount,
               r.transaction_amount::text AS transaction_amount, r.currency, r.additional_fields, r.created_at,
               r.merchant_operation_number, r.transaction_id, r.method, r.card_brand, r.masked_pan, r.lifecycle
        FROM refunds r WHERE ${where} ${after}
        ORDER BY r.created_at DESC, r.id DESC LIMIT ${limit + 1}) p`,
    countHere ? countRefunds(prisma, { scoped, state, exact, between, from, to, stateValue: filters.state }) : null,
  ]);
  const rows = document?.page ?? [];
  const total = carried ?? counted ?? 0;
  const page = rows.slice(0, limit).map(refundRowOf);
  const last = rows.length > limit ? page[limit - 1] : undefined;
  return {
    success: 'true' as const,
    merchant_code: scope.merchantCode,
    operations_count: String(total),
    operations: page.map(toRefundObject),
    next_cursor: last ? encodeRefundCursor({ createdAt: last.createdAt, id: last.id, count: { total, search } }) : null,
    meta: successMeta(),
  };
}

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD` of a UTC midnight. */
const utcDay = (instant: Date) => instant.toISOString().slice(0, 10);

/**
 * operations_count, exact (docs/DESIGN.md 11), in time that does not grow with the matches: a
 * search by transaction or operation matches a handful of refunds, counted; any other search is
 * a scope, a state and a range of instants, answered from refund_day_counts (kept by triggers on
 * refunds, in each move's transaction) for the whole UTC days inside the range, plus a count of
 * the refunds in the partial days at its ends, from the index that starts with the scope. One
 * statement: the counters and the refunds are read in one snapshot.
 */
async function countRefunds(
  prisma: Tx,
  search: {
    scoped: (column: Prisma.Sql, extra: (Prisma.Sql | null)[]) => Prisma.Sql;
    state: Prisma.Sql | null;
    stateValue: RefundFilters['state'];
    exact: Prisma.Sql[];
    between: (lower: Date | null, upper: Date | null) => (Prisma.Sql | null)[];
    from: Date | null;
    to: Date | null;
  },
): Promise<number> {
  const { scoped, state, exact, between, from, to } = search;
  const counting = (lower: Date | null, upper: Date | null) =>
    Prisma.sql`(SELECT count(*) FROM refunds r WHERE ${scoped(Prisma.sql`r.merchant_id`, [state, ...exact, ...between(lower, upper)])})`;
  // The whole UTC days of the range: from the first midnight at or after its start to the last at or before its end.
  const firstDay = from ? new Date(Math.ceil(from.getTime() / DAY_MS) * DAY_MS) : null;
  const endDay = to ? new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS) : null;
  const wholeDays = !firstDay || !endDay || firstDay < endDay;
  let sum: Prisma.Sql;
  if (exact.length > 0 || !wholeDays) {
    sum = counting(from, to);
  } else {
    const counters = scoped(Prisma.sql`c.merchant_id`, [
      search.stateValue ? Prisma.sql`c.state = ${search.stateValue}::"RefundState"` : null,
      firstDay ? Prisma.sql`c.day >= ${utcDay(firstDay)}::date` : null,
      endDay ? Prisma.sql`c.day < ${utcDay(endDay)}::date` : null,
    ]);
    const parts = [Prisma.sql`(SELECT coalesce(sum(c.count), 0) FROM refund_day_counts c WHERE ${counters})`];
    if (from && firstDay && firstDay > from) parts.push(counting(from, firstDay));
    if (to && endDay && endDay < to) parts.push(counting(endDay, to));
    sum = Prisma.join(parts, ' + ');
  }
  const [row] = await prisma.$queryRaw<{ total: string }[]>`SELECT (${sum})::text AS total`;
  return Number(row?.total ?? 0);
}

// Each set of filters is a statement of its own: the warm-up readies the list without filters, by
// dates, and by dates and state (the console's and an integrator's usual searches). A range's
// count has two shapes: one day (counted from the refunds) and several (counters for the whole
// days, the refunds for the partial ones at its ends).
const WARMED_FILTERS: Omit<RefundFilters, 'merchant_code'>[] = [
  {},
  { start_date: '2000-01-01', end_date: '2000-01-01' },
  { start_date: '2000-01-01', end_date: '2000-01-01', state: 'REGISTERED' },
  { start_date: '2000-01-01', end_date: '2000-01-31' },
  { start_date: '2000-01-01', end_date: '2000-01-31', state: 'REGISTERED' },
];

/** The usual pages for a merchant that does not exist: they read nothing, and ready their statements on the connection (warm-up). */
export async function warmListRefunds(tx: Tx): Promise<void> {
  for (const filters of WARMED_FILTERS) await listRefunds(tx, { merchantIds: [NIL_UUID], merchantCode: 'WARMUP' }, filters);
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
