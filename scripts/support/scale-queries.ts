import type { PrismaClient } from '@/generated/prisma/client';
import { env } from '@/env';
import { appRouter } from '@/server/api/routers/app-router';
import { createCallerFactory } from '@/server/api/trpc';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { endOfDayExclusive, startOfDay } from '@/server/core/domain/business-day';
import { PAYMENT_METHODS, REFUND_STATES, TRANSACTION_STATES } from '@/server/core/domain/states';
import type { OperationFiltersInput } from '@/server/modules/console/operations-filters';
import type { RefundFilters } from '@/server/core/interface/refund';

// The queries of the scale target (docs/BENCHMARKS.md, "Scale"): every filter of the refund
// search (docs/interface.md 4.6: console.refunds runs the listRefunds of GET /refund) alone and combined,
// and the console's operations table (default view, each filter, each search kind, each sort),
// first pages and pages deep in the list, as a merchant's admin and as support. Shared by
// `npm run measure:scale` (timings at a million operations) and the PostgreSQL test of their
// plans (tests/postgres/scale-queries.test.ts). Dates are relative to now, as seedOperations'.

export type ScaleRole = 'merchant' | 'support';

const createCaller = createCallerFactory(appRouter);
export type ScaleCaller = Pick<ReturnType<typeof createCaller>['console'], 'refunds' | 'operations'>;

/** In-process callers of the console's procedures: the merchant's admin, and support (every merchant). */
export function scaleCallers(prisma: PrismaClient, merchantId: string): Record<ScaleRole, ScaleCaller> {
  const caller = (session: ConsoleSession) =>
    createCaller({ headers: new Headers(), requestId: 'scale', prisma, session }).console;
  return {
    merchant: caller({ userId: null, email: 'admin@scale.pe', role: 'MERCHANT_ADMIN', merchantId }),
    support: caller({ userId: null, email: 'support@scale.pe', role: 'SUPPORT', merchantId: null }),
  };
}

export type ScaleQuery = {
  name: string;
  roles: ScaleRole[];
  /** A page after a cursor (found by `prepare`), not the first one. */
  deep: boolean;
  /** For searches and exact filters: the index that must answer them. */
  index?: string;
  /** Finds what the query needs (a deep page's cursor) once; returns the call, which answers its row count. */
  prepare: (caller: ScaleCaller) => Promise<() => Promise<number>>;
};

/** A calendar day of the business time zone, as the console's filters read days. */
const businessDay = (instant: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: env().BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** The queries, with search values taken from the merchant's own seeded rows. */
export async function scaleQueries(prisma: PrismaClient, merchant: { id: string; code: string }): Promise<ScaleQuery[]> {
  const refunded = await prisma.refund.findFirstOrThrow({
    where: { merchantId: merchant.id },
    orderBy: { id: 'asc' },
    select: { transactionId: true, operation: { select: { merchantOperationNumber: true } } },
  });
  const card = await prisma.transaction.findFirstOrThrow({
    where: { merchantId: merchant.id, method: 'CARD', payerEmail: { not: null } },
    orderBy: { id: 'asc' },
    select: { id: true, cardLast4: true, payerEmail: true, operation: { select: { merchantOperationNumber: true } } },
  });
  const number = card.operation.merchantOperationNumber;
  const email = card.payerEmail!;

  const refunds = (name: string, filters: RefundFilters, options: { deep?: boolean; index?: string } = {}): ScaleQuery => ({
    name: `refunds: ${name}`,
    roles: ['merchant', 'support'],
    deep: Boolean(options.deep),
    index: options.index,
    prepare: async (caller) => {
      const cursor = options.deep ? await deepRefundCursor(caller, filters) : undefined;
      return async () => (await caller.refunds({ ...filters, ...(cursor ? { cursor } : {}) })).operations.length;
    },
  });
  const operations = (
    name: string,
    filters: OperationFiltersInput,
    options: { deep?: OperationFiltersInput; index?: string; roles?: ScaleRole[] } = {},
  ): ScaleQuery => ({
    name: `operations: ${name}`,
    roles: options.roles ?? ['merchant', 'support'],
    deep: Boolean(options.deep),
    index: options.index,
    prepare: async (caller) => {
      const cursor = options.deep ? await deepOperationCursor(caller, { ...filters, ...options.deep }) : undefined;
      return async () => (await caller.operations({ ...filters, limit: 25, ...(cursor ? { cursor } : {}) })).rows.length;
    },
  });

  const week = { start_date: businessDay(daysAgo(45)), end_date: businessDay(daysAgo(38)) };
  const opsWeek = {
    from: startOfDay(week.start_date, env().BUSINESS_TIME_ZONE).toISOString(),
    to: endOfDayExclusive(week.end_date, env().BUSINESS_TIME_ZONE).toISOString(),
  };
  return [
    refunds('no filter', {}),
    refunds('no filter, deep page', {}, { deep: true }),
    refunds('start_date (last 7 days)', { start_date: businessDay(daysAgo(7)) }),
    refunds('end_date (60 days ago and before)', { end_date: businessDay(daysAgo(60)) }),
    refunds('start_date + end_date (one week)', week),
    refunds('merchant_code', { merchant_code: merchant.code }),
    refunds(
      'merchant_operation_number',
      { merchant_operation_number: refunded.operation.merchantOperationNumber },
      { index: 'operations_merchant_operation_number_pattern_idx' },
    ),
    refunds('transaction_id', { transaction_id: refunded.transactionId }, { index: 'refunds_transaction_id_idx' }),
    ...REFUND_STATES.map((state) => refunds(`state ${state}`, { state })),
    refunds('merchant_code + state RESOLVED + one week', { merchant_code: merchant.code, state: 'RESOLVED', ...week }),
    refunds('state RESOLVED + one week, deep page', { state: 'RESOLVED', ...week }, { deep: true }),

    operations('default (newest)', {}),
    operations('default, deep page', {}, { deep: { to: daysAgo(45).toISOString() } }),
    operations('merchantCode', { merchantCode: merchant.code }, { roles: ['support'] }),
    ...TRANSACTION_STATES.map((state) => operations(`state ${state}`, { state })),
    ...PAYMENT_METHODS.map((method) => operations(`method ${method}`, { method })),
    operations('date range (one week)', opsWeek),
    operations('date range, deep page', opsWeek, { deep: { to: daysAgo(41).toISOString() } }),
    operations('amount 1,000.00–2,000.00', { minAmount: '100000', maxAmount: '200000' }),
    operations('amount 1,234.00–1,235.00', { minAmount: '123400', maxAmount: '123500' }),
    operations('search operation number', { search: number }, { index: 'operations_merchant_operation_number_pattern_idx' }),
    operations(
      'search operation number prefix',
      { search: number.slice(0, -1) },
      { index: 'operations_merchant_operation_number_pattern_idx' },
    ),
    operations('search transaction id', { search: card.id }, { index: 'transactions_pkey' }),
    operations('search last four', { search: card.cardLast4! }, { index: 'transactions_card_last4_idx' }),
    operations('search payer email', { search: email }, { index: 'transactions_payer_email_local_idx' }),
    operations('search email domain', { search: `@${email.split('@')[1]}` }),
    ...(['newest', 'oldest', 'amount_desc', 'amount_asc'] as const).flatMap((sort) => [
      operations(`sort ${sort}`, { sort }),
      operations(`sort ${sort}, deep page`, { sort }, { deep: deepBy(sort) }),
    ]),
    operations('LIQUIDADO + CARD + one week + amount, by amount', {
      state: 'LIQUIDADO',
      method: 'CARD',
      ...opsWeek,
      minAmount: '50000',
      sort: 'amount_desc',
    }),
  ];
}

/**
 * A cursor half-way down the search's own pages (at most 10,000 rows deep), reached page by page:
 * a real deep page, which carries its first page's count.
 */
async function deepRefundCursor(caller: ScaleCaller, filters: RefundFilters): Promise<string> {
  const { operations_count: count } = await caller.refunds({ ...filters, limit: '1' });
  const middle = Math.min(Math.floor(Number(count) / 2), 10_000);
  const limit = String(Math.max(1, Math.min(500, middle)));
  let page = await caller.refunds({ ...filters, limit });
  for (let seen = page.operations.length; seen + Number(limit) <= middle && page.next_cursor; seen += page.operations.length) {
    page = await caller.refunds({ ...filters, limit, cursor: page.next_cursor });
  }
  if (!page.next_cursor) throw new Error(`no deep refund cursor for ${JSON.stringify(filters)}`);
  return page.next_cursor;
}

/** The cursor after the newest match of `filters`: a page that starts deep in the list without them. */
async function deepOperationCursor(caller: ScaleCaller, filters: OperationFiltersInput): Promise<string> {
  const page = await caller.operations({ ...filters, limit: 1 });
  if (!page.nextCursor) throw new Error(`no deep operations cursor for ${JSON.stringify(filters)}`);
  return page.nextCursor;
}

/** Filters whose first match sits about half-way down the list in each sort order. */
function deepBy(sort: 'newest' | 'oldest' | 'amount_desc' | 'amount_asc'): OperationFiltersInput {
  switch (sort) {
    case 'newest':
      return { to: daysAgo(45).toISOString() };
    case 'oldest':
      return { from: daysAgo(45).toISOString() };
    case 'amount_desc':
      return { maxAmount: '125000' };
    case 'amount_asc':
      return { minAmount: '125000' };
  }
}
