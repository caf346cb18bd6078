import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { decodeCursor, encodeCursor, instant, integer64, uuid } from '@/server/core/interface/cursor';
import type { PaymentMethod, TransactionState } from '@/server/core/domain/states';
import { moneyView, resolvedSum } from './money-view';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';
import { isUuid } from '@/server/core/domain/uuid';

// The console's operations table: one row per transaction, newest first (or by amount),
// keyset pagination, filters and search. Every query here is served by an index
// at a million operations (docs/BENCHMARKS.md, "Scale"): the page bound is an index condition,
// a merchant code is looked up once, and a search with two meanings runs as two indexed queries.
export type OperationFilters = {
  merchantCode?: string;
  /** The merchant `merchantCode` names, once looked up (listOperations does). */
  merchantId?: string;
  state?: TransactionState;
  method?: PaymentMethod;
  from?: Date;
  to?: Date;
  minAmount?: bigint;
  maxAmount?: bigint;
  search?: string;
  /** An email search's candidate ids, once found (prepareOperationFilters does); null when none narrow it. */
  emailCandidates?: string[] | null;
  sort?: 'newest' | 'oldest' | 'amount_desc' | 'amount_asc';
  cursor?: string;
  /** The page that ends just before this cursor's row (the previous page), instead of `cursor`. */
  before?: string;
  limit?: number;
};

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
  captureStatus: true,
  capturedAmount: true,
  refundedAmount: true,
  // What was given back: refundedAmount counts the refunds still in process too.
  refunds: { where: { state: 'RESOLVED' }, select: { refundAmount: true, state: true } },
  operation: { select: { merchantOperationNumber: true, merchant: { select: { code: true, name: true } } } },
} satisfies Prisma.TransactionSelect;

export type OperationRow = Prisma.TransactionGetPayload<{ select: typeof operationRowSelect }>;

/** What orders a page and makes its cursors. */
type PageKey = { id: string; createdAt: Date; amount: bigint };

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
    money: moneyView({ ...row, resolvedRefunds: resolvedSum(row.refunds) }),
    currency: row.currency,
    maskedPan: row.maskedPan,
    brand: row.cardBrand,
    payerEmail: row.payerEmail,
    payerName: row.payerName,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a search matches, as alternatives (any one matches): four digits are a card's last four
 * or the start of an operation number. Each alternative has an index of its own.
 */
function searchAlternatives(search: string): Prisma.TransactionWhereInput[] {
  const text = search.trim();
  if (isUuid(text)) return [{ id: text.toLowerCase() }];
  if (/^\d{4}$/.test(text)) return [{ cardLast4: text }, { operation: { merchantOperationNumber: { startsWith: text } } }];
  if (text.includes('@')) return [{ payerEmail: { contains: text.toLowerCase(), mode: 'insensitive' } }];
  return [{ operation: { merchantOperationNumber: { startsWith: text } } }];
}

function searchWhere(search: string): Prisma.TransactionWhereInput {
  const alternatives = searchAlternatives(search);
  return alternatives.length === 1 ? alternatives[0]! : { OR: alternatives };
}

/** An email search narrowed to at most this many candidate ids; a wider one runs as it is. */
export const EMAIL_CANDIDATES = 1000;

/** A LIKE pattern as PostgreSQL reads it: each literal character, or null for % and _ (a backslash escapes). */
function likeTokens(pattern: string): (string | null)[] {
  const tokens: (string | null)[] = [];
  const characters = [...pattern];
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index]!;
    if (character === '\\' && index + 1 < characters.length) tokens.push(characters[(index += 1)]!);
    else tokens.push(character === '%' || character === '_' ? null : character);
  }
  return tokens;
}

const likePrefix = (text: string) => `${text.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;

/**
 * The transactions whose payer email may match an email search (ILIKE '%text%', with the
 * search's own % _ and backslash, which Prisma passes as they are), found by index. Stored emails
 * are valid addresses with one @, which the search's first literal @ must meet: so a match's local
 * part ends with the literal characters just before it, and its domain starts with the literal
 * characters just after it.
 * The local side is tried first (the narrower as a rule), then the domain; null when neither
 * narrows to at most `bound` (matches are then common, and the plain search finds a page of them
 * soon). The search itself still decides which candidates match.
 */
async function emailCandidates(
  prisma: Db,
  text: string,
  merchantId: string | undefined,
  bound: number,
): Promise<string[] | null> {
  const tokens = likeTokens(`%${text}%`);
  const at = tokens.indexOf('@');
  if (at < 0) return null;
  const literalRun = (from: number, step: 1 | -1) => {
    const run: string[] = [];
    for (let index = from; index >= 0 && index < tokens.length && tokens[index] !== null; index += step) run.push(tokens[index]!);
    return run.join('');
  };
  const scope = merchantId ? Prisma.sql`AND merchant_id = ${merchantId}::uuid` : Prisma.empty;
  // The expressions of the indexes transactions_payer_email_local_idx and _domain_idx.
  const side = async (expression: Prisma.Sql, start: string) => {
    if (start === '') return null;
    const rows = await prisma.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM transactions
      WHERE ${expression} LIKE lower(${likePrefix(start)}) ${scope}
      LIMIT ${bound + 1}`;
    return rows.length > bound ? null : rows.map((row) => row.id);
  };
  // Read backwards from the @, the local part's end is the reversed local part's start.
  return (
    (await side(Prisma.sql`reverse(lower(split_part(payer_email, '@', 1)))`, literalRun(at - 1, -1))) ??
    (await side(Prisma.sql`lower(split_part(payer_email, '@', 2))`, literalRun(at + 1, 1)))
  );
}

export function operationsWhere(scope: MerchantScope, filters: OperationFilters): Prisma.TransactionWhereInput {
  const where: Prisma.TransactionWhereInput[] = [];
  if (scope.kind === 'one') where.push({ merchantId: scope.merchantId });
  if (filters.merchantId) where.push({ merchantId: filters.merchantId });
  else if (filters.merchantCode) where.push({ operation: { merchant: { code: filters.merchantCode } } });
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

/**
 * The filters but the search as SQL on `transactions`, meaning what operationsWhere means (the
 * merchant already an id); the listings test holds the two to the same rows.
 */
function filtersSql(scope: MerchantScope, filters: OperationFilters): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (scope.kind === 'one') conditions.push(Prisma.sql`merchant_id = ${scope.merchantId}::uuid`);
  if (filters.merchantId) conditions.push(Prisma.sql`merchant_id = ${filters.merchantId}::uuid`);
  if (filters.state) conditions.push(Prisma.sql`state = ${filters.state}::"TransactionState"`);
  if (filters.method) conditions.push(Prisma.sql`method = ${filters.method}::"PaymentMethod"`);
  if (filters.from) conditions.push(Prisma.sql`created_at >= ${filters.from}`);
  if (filters.to) conditions.push(Prisma.sql`created_at < ${filters.to}`);
  if (filters.minAmount !== undefined) conditions.push(Prisma.sql`amount >= ${filters.minAmount}`);
  if (filters.maxAmount !== undefined) conditions.push(Prisma.sql`amount <= ${filters.maxAmount}`);
  return conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;
}

/**
 * The filters on the attempts in flight (charge_claims `c`, its operation `o`), meaning what
 * operationsWhere means for their transactions once written; the search's alternatives as one OR
 * (the claims are few: a processor's timeout's worth of charges, and those the status sync waits on).
 */
function inFlightSql(scope: MerchantScope, filters: OperationFilters): Prisma.Sql {
  const amount = Prisma.sql`(c.attempt_row->>'amount')::bigint`;
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (scope.kind === 'one') conditions.push(Prisma.sql`c.merchant_id = ${scope.merchantId}::uuid`);
  if (filters.merchantId) conditions.push(Prisma.sql`c.merchant_id = ${filters.merchantId}::uuid`);
  if (filters.method) conditions.push(Prisma.sql`c.attempt_row->>'method' = ${filters.method}`);
  if (filters.from) conditions.push(Prisma.sql`c.claimed_at >= ${filters.from}`);
  if (filters.to) conditions.push(Prisma.sql`c.claimed_at < ${filters.to}`);
  if (filters.minAmount !== undefined) conditions.push(Prisma.sql`${amount} >= ${filters.minAmount}`);
  if (filters.maxAmount !== undefined) conditions.push(Prisma.sql`${amount} <= ${filters.maxAmount}`);
  const text = filters.search?.trim() ?? '';
  if (text) {
    const alternatives = searchAlternatives(text).map((alternative) => {
      if ('id' in alternative) return Prisma.sql`c.transaction_id = ${alternative.id}::uuid`;
      if ('cardLast4' in alternative) return Prisma.sql`c.attempt_row->>'card_last4' = ${text}`;
      if ('payerEmail' in alternative) return Prisma.sql`c.attempt_row->>'payer_email' ILIKE ${`%${text.toLowerCase()}%`}`;
      return Prisma.sql`starts_with(o.merchant_operation_number, ${text})`;
    });
    conditions.push(Prisma.sql`(${Prisma.join(alternatives, ' OR ')})`);
  }
  return Prisma.join(conditions, ' AND ');
}

/** An attempt in flight as a row of the operations table: REGISTRADO, as its transaction will show it until its outcome. */
type InFlightRow = PageKey & {
  method: OperationRow['method'];
  currency: string;
  maskedPan: string | null;
  cardBrand: string | null;
  payerEmail: string | null;
  payerName: string | null;
  number: string;
  merchantCode: string;
  merchantName: string;
};

/** A page of attempts in flight, in the page's order from after the cursor (each row whole: they are few). */
async function inFlightPage(
  prisma: Db,
  scope: MerchantScope,
  filters: OperationFilters,
  page: {
    field: 'amount' | 'createdAt';
    direction: 'asc' | 'desc';
    cursor: readonly [bigint | Date, string] | null;
    take: number;
  },
): Promise<OperationRow[]> {
  const key = page.field === 'amount' ? Prisma.sql`(c.attempt_row->>'amount')::bigint` : Prisma.sql`c.claimed_at`;
  const direction = Prisma.raw(page.direction === 'desc' ? 'DESC' : 'ASC');
  const after = page.cursor
    ? page.direction === 'desc'
      ? Prisma.sql`AND (${key}, c.transaction_id) < (${page.cursor[0]}, ${page.cursor[1]}::uuid)`
      : Prisma.sql`AND (${key}, c.transaction_id) > (${page.cursor[0]}, ${page.cursor[1]}::uuid)`
    : Prisma.empty;
  const rows = await prisma.$queryRaw<InFlightRow[]>`
    SELECT c.transaction_id::text AS id, (c.attempt_row->>'amount')::bigint AS amount, c.claimed_at AS "createdAt",
           c.attempt_row->>'method' AS method, c.attempt_row->>'currency' AS currency,
           c.attempt_row->>'masked_pan' AS "maskedPan", c.attempt_row->>'card_brand' AS "cardBrand",
           c.attempt_row->>'payer_email' AS "payerEmail", c.attempt_row->>'payer_name' AS "payerName",
           o.merchant_operation_number AS number, m.code AS "merchantCode", m.name AS "merchantName"
    FROM charge_claims c JOIN operations o ON o.id = c.operation_id JOIN merchants m ON m.id = c.merchant_id
    WHERE ${inFlightSql(scope, filters)} ${after}
    ORDER BY ${key} ${direction}, c.transaction_id ${direction} LIMIT ${page.take}`;
  return rows.map(({ number, merchantCode, merchantName, ...row }) => ({
    ...row,
    state: 'REGISTRADO' as const,
    captureStatus: null,
    capturedAmount: null,
    refundedAmount: 0n,
    refunds: [],
    operation: { merchantOperationNumber: number, merchant: { code: merchantCode, name: merchantName } },
  }));
}

/**
 * The filters with what a page and its count would each look up done once: the merchant code's
 * id and an email search's candidates. Null when the merchant code names no merchant.
 */
export async function prepareOperationFilters(
  prisma: Db,
  scope: MerchantScope,
  filters: OperationFilters,
  /** Tests lower it to exercise both ways of an email search. */
  bound = EMAIL_CANDIDATES,
): Promise<OperationFilters | null> {
  let merchantId = filters.merchantId;
  if (!merchantId && filters.merchantCode) {
    const merchant = await prisma.merchant.findUnique({ where: { code: filters.merchantCode }, select: { id: true } });
    if (!merchant) return null;
    merchantId = merchant.id;
  }
  const text = filters.search?.trim() ?? '';
  const candidates =
    filters.emailCandidates !== undefined
      ? filters.emailCandidates
      : text.includes('@')
        ? await emailCandidates(prisma, text, scope.kind === 'one' ? scope.merchantId : merchantId, bound)
        : null;
  return { ...filters, merchantId, emailCandidates: candidates };
}

export async function listOperations(
  prisma: Db,
  scope: MerchantScope,
  filters: OperationFilters,
  /** Tests lower it to exercise both ways of an email search. */
  { emailCandidatesBound = EMAIL_CANDIDATES }: { emailCandidatesBound?: number } = {},
) {
  const limit = Math.min(Math.max(filters.limit ?? 25, 1), 200);
  const sort = filters.sort ?? 'newest';
  const byAmount = sort === 'amount_desc' || sort === 'amount_asc';
  const forward = sort === 'newest' || sort === 'amount_desc' ? 'desc' : 'asc';
  // A previous page is read backwards from its cursor, then put back in the page order.
  const backward = Boolean(filters.before);
  const direction = backward ? (forward === 'desc' ? 'asc' : 'desc') : forward;
  const field = byAmount ? 'amount' : 'createdAt';
  // The cursor's key is of the sort's field: one of another sort is refused, not misread.
  const given = filters.before ?? filters.cursor;
  const cursor = given ? decodeCursor(given, [byAmount ? integer64 : instant, uuid]) : null;
  // A merchant code becomes its id: the filter is then on transactions.merchant_id (an index),
  // not a join through every operation.
  const prepared = await prepareOperationFilters(prisma, scope, filters, emailCandidatesBound);
  if (!prepared) return { rows: [], nextCursor: null, prevCursor: null };
  const base = operationsWhere(scope, { ...prepared, search: undefined });
  let page: Prisma.TransactionWhereInput = base;
  if (cursor) {
    const [key, id] = cursor;
    const [strict, inclusive] = direction === 'desc' ? (['lt', 'lte'] as const) : (['gt', 'gte'] as const);
    // (key, id) after the cursor; the inclusive bound on the key alone is what the index seeks to.
    page = {
      AND: [
        base,
        { [field]: { [inclusive]: key } },
        { OR: [{ [field]: { [strict]: key } }, { [field]: key, id: { [strict]: id } }] },
      ],
    };
  }
  const orderBy: Prisma.TransactionOrderByWithRelationInput[] = [{ [field]: direction }, { id: direction }];
  const alternatives = filters.search?.trim() ? searchAlternatives(filters.search) : [null];
  const narrowed = prepared.emailCandidates;
  // One query per alternative of the search (an OR across a join would scan every row), each
  // already in page order; the page is the first limit + 1 of their merge. They read the page's
  // keys only: its operation and merchant are joined after the limit, by id, so the planner never
  // weighs joining every candidate row before a sort (at ten million operations it then walked the
  // date index past 70,000 rows rather than sort a narrow amount range's 4,000).
  const lists = await Promise.all(
    alternatives.map((alternative) =>
      prisma.transaction.findMany({
        where: alternative ? { AND: [page, alternative, ...(narrowed ? [{ id: { in: narrowed } }] : [])] } : page,
        select: { id: true, createdAt: true, amount: true },
        orderBy,
        take: limit + 1,
      }),
    ),
  );
  // Attempts in flight are REGISTRADO until their outcome writes their transaction (docs/DECISIONS.md,
  // "A charge written once"): the REGISTRADO filter lists them beside REGISTRADO rows.
  const inFlight =
    prepared.state === 'REGISTRADO'
      ? await inFlightPage(prisma, scope, prepared, {
          field,
          direction,
          cursor,
          take: limit + 1,
        })
      : [];
  if (inFlight.length > 0) lists.push(inFlight);
  const keys = lists.length === 1 ? lists[0]! : mergePages(lists, byAmount, direction, limit + 1);
  const more = keys.length > limit;
  const pageKeys = backward ? keys.slice(0, limit).reverse() : keys.slice(0, limit);
  const found = new Map(
    (await prisma.transaction.findMany({ where: { id: { in: pageKeys.map((key) => key.id) } }, select: operationRowSelect })).map(
      (row) => [row.id, row],
    ),
  );
  for (const row of inFlight) found.set(row.id, row);
  const rows = pageKeys.map((key) => found.get(key.id)!);
  const keyOf = (row: PageKey | undefined) => (row ? encodeCursor([byAmount ? row.amount : row.createdAt, row.id]) : null);
  // Forward, rows before the page exist when it started after a cursor; backward, rows after it
  // exist (the page it came from).
  return backward
    ? { rows, nextCursor: keyOf(rows.at(-1)), prevCursor: more ? keyOf(rows[0]) : null }
    : { rows, nextCursor: more ? keyOf(rows.at(-1)) : null, prevCursor: cursor ? keyOf(rows[0]) : null };
}

/**
 * How many rows the filters match, counted up to `cap` and no further: each count reads at most
 * cap + 1 index entries, so it stays cheap at a million operations (docs/DECISIONS.md, "Console
 * messages (issue 29)"). `more` says the real number is above `cap`.
 */
export async function countOperations(
  prisma: Db,
  scope: MerchantScope,
  filters: OperationFilters,
  cap: number,
): Promise<{ count: number; more: boolean }> {
  const prepared = await prepareOperationFilters(prisma, scope, filters);
  if (!prepared) return { count: 0, more: false };
  if (prepared.state === 'REGISTRADO') {
    const [claims] = await prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM charge_claims c JOIN operations o ON o.id = c.operation_id
      WHERE ${inFlightSql(scope, prepared)}`;
    const rows = await countWritten(prisma, scope, prepared, cap);
    const count = rows.count + claims!.count;
    return { count: Math.min(count, cap), more: rows.more || count > cap };
  }
  return countWritten(prisma, scope, prepared, cap);
}

/** countOperations on the transactions alone. */
async function countWritten(
  prisma: Db,
  scope: MerchantScope,
  prepared: OperationFilters,
  cap: number,
): Promise<{ count: number; more: boolean }> {
  const text = prepared.search?.trim() ?? '';
  if (!text) {
    // Counted in SQL, in no order: Prisma's bounded count orders by id, and the planner then
    // walks the primary key filtering every row (seconds at ten million) instead of the index
    // that narrows the filters best.
    const [row] = await prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS count FROM (SELECT 1 FROM transactions ${filtersSql(scope, prepared)} LIMIT ${cap + 1}) AS bounded`;
    return { count: Math.min(row!.count, cap), more: row!.count > cap };
  }
  const base = operationsWhere(scope, { ...prepared, search: undefined });
  const bounded = async (where: Prisma.TransactionWhereInput) =>
    (await prisma.transaction.findMany({ where, select: { id: true }, take: cap + 1 })).map((row) => row.id);
  // As listOperations reads them: an email search narrowed by index, a search of several meanings
  // counted by each one's own index, without counting a row twice.
  const narrowed = prepared.emailCandidates;
  const ids = new Set(
    (
      await Promise.all(
        searchAlternatives(text).map((alternative) =>
          bounded({ AND: [base, alternative, ...(narrowed ? [{ id: { in: narrowed } }] : [])] }),
        ),
      )
    ).flat(),
  );
  return { count: Math.min(ids.size, cap), more: ids.size > cap };
}

/** The first `take` rows of pages each sorted by (key, id) in `direction`, without repeats. */
function mergePages(lists: PageKey[][], byAmount: boolean, direction: 'asc' | 'desc', take: number): PageKey[] {
  const sign = direction === 'asc' ? 1 : -1;
  const compare = (a: PageKey, b: PageKey) => {
    const [x, y] = byAmount ? [a.amount, b.amount] : [a.createdAt.getTime(), b.createdAt.getTime()];
    if (x !== y) return x < y ? -sign : sign;
    return a.id === b.id ? 0 : a.id < b.id ? -sign : sign;
  };
  const seen = new Set<string>();
  return lists
    .flat()
    .sort(compare)
    .filter((row) => !seen.has(row.id) && seen.add(row.id))
    .slice(0, take);
}
