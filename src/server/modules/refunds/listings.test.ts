import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient, type Prisma } from '@/generated/prisma/client';
import type { DatabaseHandle } from '@/server/platform/db/adapter';
import { openMigratedPglite } from '@tests/support/procedure-test-support';
import { seedOperations } from '../../../../scripts/support/seed-operations';
import { AppError } from '@/server/core/domain/errors';
import {
  countOperations,
  prepareOperationFilters,
  listOperations,
  operationsWhere,
  type OperationFilters,
} from '@/server/modules/console/list-operations';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';
import { listRefunds } from './list-refunds';
import { refundSelect, toRefundObject } from './refund-view';
import { endOfDayExclusive, startOfDay } from '@/server/core/domain/business-day';
import { env } from '@/env';
import { counterProblems, raceRefundMoves } from '@tests/support/refund-counts';

// The two listings made for a million operations (docs/BENCHMARKS.md, "Scale"), on seeded rows.
// listOperations runs a search its own way (an email search narrowed by index, four digits as two
// queries merged, a merchant code looked up first, the page bound as an index condition): its
// pages, read to the end, must hold exactly the rows of the plain query of operationsWhere, in
// the page order, for every search, scope and sort. listRefunds counts on the first page only
// and carries the count in its cursor.
let handle: DatabaseHandle;
let prisma: PrismaClient;
const merchants: Record<'A' | 'B', { id: string; code: string }> = {} as never;

const SEARCHES = [
  'ana.quispe@',
  'ANA.QUISPE@GMAIL',
  'ana.quispe@gmail.com',
  '@acme.pe',
  '@ACME',
  'quispe@acme.pe',
  'x_ana%@',
  '_ana%@',
  'n%@acme',
  '%@',
  '@',
  '@@',
  'a\\_b@',
  'a\\@b',
  'payer1@example.pe',
  'payer1@',
  '1234',
  '1234-',
  '0000',
  'S-1',
  'nobody@nowhere.pe',
];
const SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;

beforeAll(async () => {
  handle = await openMigratedPglite();
  prisma = new PrismaClient({ adapter: handle.factory });
  for (const code of ['A', 'B'] as const) {
    merchants[code] = await prisma.merchant.create({
      data: { code: `LIST${code}`, name: code },
      select: { id: true, code: true },
    });
  }
  await seedOperations(prisma, { merchantIds: [merchants.A.id, merchants.B.id], count: 120, prefix: 'S-', batchSize: 120 });
  // The seed draws its refunds at random (about 4 in 120 operations): the refund tests page
  // through several and move a RESOLVED one, so seed on until there are enough of both.
  for (let round = 1; round <= 20; round += 1) {
    const [refunds, resolved] = await Promise.all([prisma.refund.count(), prisma.refund.count({ where: { state: 'RESOLVED' } })]);
    if (refunds >= 8 && resolved >= 3) break;
    await seedOperations(prisma, {
      merchantIds: [merchants.A.id, merchants.B.id],
      count: 60,
      prefix: `R${round}-`,
      batchSize: 60,
    });
  }
  // Odd emails, numbers and last fours on some rows, and ties of time and amount (on rows with no
  // refund: an amount below what was refunded breaks the database's CHECK).
  const rows = await prisma.transaction.findMany({
    where: { refundedAmount: 0 },
    orderBy: { id: 'asc' },
    take: 16,
    select: { id: true, operationId: true },
  });
  const emails = [
    'Ana.Quispe@Gmail.com',
    'ana.quispe@gmail.com.pe',
    'x_ana%@acme.pe',
    'quispe@acme.pe',
    'ANA@ACME.PE',
    'xyanaz@acme.pe',
    'a_b@acme.pe',
    'a\\_b@acme.pe',
    'axb@acme.pe',
  ];
  for (const [index, email] of emails.entries()) {
    await prisma.transaction.update({ where: { id: rows[index]!.id }, data: { payerEmail: email } });
  }
  await prisma.transaction.update({ where: { id: rows[9]!.id }, data: { payerEmail: null } });
  await prisma.transaction.updateMany({ where: { id: { in: [rows[10]!.id, rows[11]!.id] } }, data: { cardLast4: '1234' } });
  await prisma.operation.update({ where: { id: rows[11]!.operationId }, data: { merchantOperationNumber: '1234-both' } });
  await prisma.operation.update({ where: { id: rows[12]!.operationId }, data: { merchantOperationNumber: '1234-number' } });
  const tie = new Date('2026-01-02T03:04:05.006Z');
  await prisma.transaction.updateMany({
    where: { id: { in: rows.slice(10, 16).map((row) => row.id) } },
    data: { createdAt: tie, amount: 777 },
  });
}, 120_000);

afterAll(async () => {
  await prisma.$disconnect();
  await handle.close();
});

/** Every row of the listing, page by page. */
async function allPages(scope: MerchantScope, filters: OperationFilters, bound?: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages += 1) {
    const page = await listOperations(prisma, scope, { ...filters, cursor, limit: 7 }, { emailCandidatesBound: bound });
    ids.push(...page.rows.map((row) => row.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('more than 200 pages');
}

/** The rows of the plain query, in the page order. */
async function plain(scope: MerchantScope, filters: OperationFilters): Promise<string[]> {
  const sort = filters.sort ?? 'newest';
  const direction = sort === 'newest' || sort === 'amount_desc' ? 'desc' : 'asc';
  const orderBy: Prisma.TransactionOrderByWithRelationInput[] = sort.startsWith('amount')
    ? [{ amount: direction }, { id: direction }]
    : [{ createdAt: direction }, { id: direction }];
  const rows = await prisma.transaction.findMany({ where: operationsWhere(scope, filters), orderBy, select: { id: true } });
  return rows.map((row) => row.id);
}

describe('listOperations', () => {
  it('pages back from the last page through the same pages, and counts the rows up to a cap', async () => {
    const all: MerchantScope = { kind: 'all' };
    for (const sort of SORTS) {
      for (const search of [undefined, '1234', 'ana.quispe@']) {
        const filters: OperationFilters = { sort, search };
        const forward: string[][] = [];
        const cursors: (string | null)[] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = await listOperations(prisma, all, { ...filters, cursor, limit: 7 });
          forward.push(page.rows.map((row) => row.id));
          cursors.push(page.prevCursor);
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
        expect(cursors[0], `${sort} ${search}`).toBeNull();
        const backward: string[][] = [forward.at(-1)!];
        let before = cursors.at(-1) ?? null;
        while (before) {
          const page = await listOperations(prisma, all, { ...filters, before, limit: 7 });
          backward.unshift(page.rows.map((row) => row.id));
          expect(page.nextCursor).not.toBeNull();
          before = page.prevCursor;
        }
        expect(backward, `${sort} ${search}`).toEqual(forward);
        const rows = forward.flat().length;
        expect(rows).toBe((await plain(all, filters)).length);
        expect(await countOperations(prisma, all, filters, rows)).toEqual({ count: rows, more: false });
        if (rows > 1) expect(await countOperations(prisma, all, filters, rows - 1)).toEqual({ count: rows - 1, more: true });
      }
    }
  });

  it('pages through exactly the rows of the plain query, for every search, scope and sort', async () => {
    // Every sort across merchants; newest first for one merchant.
    const cases: [MerchantScope, readonly (typeof SORTS)[number][]][] = [
      [{ kind: 'all' }, SORTS],
      [{ kind: 'one', merchantId: merchants.A.id }, ['newest']],
    ];
    let nonEmpty = 0;
    for (const search of SEARCHES) {
      for (const [scope, sorts] of cases) {
        for (const sort of sorts) {
          const expected = await plain(scope, { search, sort });
          if (expected.length > 0) nonEmpty += 1;
          // An email search narrowed by index (the default bound), and run as it is (a bound of 1).
          for (const bound of search.includes('@') ? [undefined, 1] : [undefined]) {
            expect(await allPages(scope, { search, sort }, bound), `${search} ${scope.kind} ${sort} ${bound}`).toEqual(expected);
          }
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(SEARCHES.length);
  }, 120_000);

  it('finds the odd emails it should, as ILIKE with the search as it is', async () => {
    const all: MerchantScope = { kind: 'all' };
    const emails = async (search: string) =>
      (
        await prisma.transaction.findMany({
          where: { id: { in: await allPages(all, { search }) } },
          select: { payerEmail: true },
        })
      )
        .map((row) => row.payerEmail)
        .sort();
    expect(await emails('ana.quispe@')).toEqual(['Ana.Quispe@Gmail.com', 'ana.quispe@gmail.com.pe']);
    expect(await emails('_ana%@acme')).toEqual(['x_ana%@acme.pe', 'xyanaz@acme.pe']);
    expect(await emails('a\\_b@')).toEqual(['a_b@acme.pe']);
  });

  it('filters by merchant code as by the merchant, and an unknown code finds nothing', async () => {
    const all: MerchantScope = { kind: 'all' };
    const byCode = await allPages(all, { merchantCode: merchants.B.code, sort: 'amount_asc' });
    expect(byCode).toEqual(await plain(all, { merchantCode: merchants.B.code, sort: 'amount_asc' }));
    expect(byCode.length).toBeGreaterThan(0);
    expect(await listOperations(prisma, all, { merchantCode: 'NOSUCH' })).toEqual({
      rows: [],
      nextCursor: null,
      prevCursor: null,
    });
    expect(await countOperations(prisma, all, { merchantCode: 'NOSUCH' }, 10)).toEqual({ count: 0, more: false });
    const own: MerchantScope = { kind: 'one', merchantId: merchants.A.id };
    expect((await listOperations(prisma, own, { merchantCode: merchants.B.code })).rows).toEqual([]);
  });

  it('keeps filters and sort across pages, past rows that tie on time and amount', async () => {
    const all: MerchantScope = { kind: 'all' };
    for (const sort of SORTS) {
      for (const filters of [
        { state: 'LIQUIDADO' },
        { maxAmount: 777n, minAmount: 777n },
        { method: 'CARD', minAmount: 100000n },
      ] satisfies OperationFilters[]) {
        expect(await allPages(all, { ...filters, sort }), `${JSON.stringify(filters, (_, v) => String(v))} ${sort}`).toEqual(
          await plain(all, { ...filters, sort }),
        );
      }
    }
  });
});

describe('countOperations', () => {
  it('counts, up to its cap, the rows the list has, for each filter alone and together, in either scope', async () => {
    const tie = (await prisma.transaction.findFirstOrThrow({ where: { amount: 777 }, select: { createdAt: true } })).createdAt;
    const window = { from: new Date(tie.getTime() - 1), to: new Date(tie.getTime() + 1) };
    const cases: OperationFilters[] = [
      {},
      { state: 'LIQUIDADO' },
      { method: 'CARD' },
      { maxAmount: 777n, minAmount: 777n },
      { minAmount: 100000n },
      window,
      { ...window, state: 'AUTORIZADO', method: 'CARD', maxAmount: 1000n },
      { merchantCode: merchants.B.code, state: 'LIQUIDADO' },
      { merchantCode: merchants.B.code, minAmount: 100000n },
    ];
    let counted = 0;
    for (const scope of [{ kind: 'all' }, { kind: 'one', merchantId: merchants.A.id }] satisfies MerchantScope[]) {
      for (const filters of cases) {
        const rows = (await plain(scope, filters)).length;
        const label = `${scope.kind} ${JSON.stringify(filters, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
        expect(await countOperations(prisma, scope, filters, rows + 5), label).toEqual({ count: rows, more: false });
        if (rows > 1)
          expect(await countOperations(prisma, scope, filters, rows - 1), label).toEqual({ count: rows - 1, more: true });
        if (rows > 0) counted += 1;
      }
    }
    expect(counted).toBeGreaterThan(cases.length);
  });
});

describe('prepareOperationFilters', () => {
  it('looks up the merchant and the email candidates once, for the same page and count', async () => {
    const all: MerchantScope = { kind: 'all' };
    for (const [filters, merchantId] of [
      [{ search: 'ana.quispe@' }, undefined],
      [{ search: '@acme' }, undefined],
      [{ search: '1234', merchantCode: merchants.A.code }, merchants.A.id],
      [{ merchantCode: merchants.B.code, sort: 'amount_asc' }, merchants.B.id],
    ] satisfies [OperationFilters, string | undefined][]) {
      const prepared = (await prepareOperationFilters(prisma, all, filters))!;
      expect(prepared.merchantId, JSON.stringify(filters)).toBe(merchantId);
      expect(await listOperations(prisma, all, prepared), JSON.stringify(filters)).toEqual(
        await listOperations(prisma, all, filters),
      );
      expect(await countOperations(prisma, all, prepared, 1000)).toEqual(await countOperations(prisma, all, filters, 1000));
      expect((await countOperations(prisma, all, prepared, 1000)).count).toBe((await plain(all, filters)).length);
    }
    expect((await prepareOperationFilters(prisma, all, { search: 'ana.quispe@' }))!.emailCandidates).toHaveLength(2);
    expect(await prepareOperationFilters(prisma, all, { merchantCode: 'NOSUCH' })).toBeNull();
  });
});

describe('listRefunds', () => {
  const all = { merchantIds: 'all' as const, merchantCode: '' };
  const pages = async (filters: { state?: 'RESOLVED' | 'REJECTED' }) => {
    const seen: { ids: string[]; counts: string[] } = { ids: [], counts: [] };
    let cursor: string | undefined;
    do {
      const page = await listRefunds(prisma, all, { ...filters, limit: '3', cursor });
      seen.ids.push(...page.operations.map((refund) => refund.refund_id));
      seen.counts.push(page.operations_count);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return seen;
  };

  it('pages newest first through every match, each page with the count of the first', async () => {
    const expected = await prisma.refund.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], select: { id: true } });
    expect(expected.length).toBeGreaterThan(3);
    const seen = await pages({});
    expect(seen.ids).toEqual(expected.map((row) => row.id));
    expect(new Set(seen.counts)).toEqual(new Set([String(expected.length)]));
  });

  it('counts once: a cursor page repeats the first page count, a cursor of another search counts afresh', async () => {
    const first = await listRefunds(prisma, all, { state: 'RESOLVED', limit: '1' });
    const resolved = Number(first.operations_count);
    expect(resolved).toBeGreaterThan(1);
    const moved = await prisma.refund.findFirstOrThrow({ where: { state: 'RESOLVED' }, orderBy: { createdAt: 'asc' } });
    await prisma.refund.update({ where: { id: moved.id }, data: { state: 'REJECTED' } });
    try {
      const next = await listRefunds(prisma, all, { state: 'RESOLVED', limit: '1', cursor: first.next_cursor! });
      expect(next.operations_count).toBe(String(resolved));
      const rejected = await prisma.refund.count({ where: { state: 'REJECTED' } });
      const other = await listRefunds(prisma, all, { state: 'REJECTED', limit: '1', cursor: first.next_cursor! });
      expect(other.operations_count).toBe(String(rejected));
      const fresh = await listRefunds(prisma, all, { state: 'RESOLVED', limit: '1' });
      expect(fresh.operations_count).toBe(String(resolved - 1));
    } finally {
      await prisma.refund.update({ where: { id: moved.id }, data: { state: 'RESOLVED' } });
    }
  });

  it('answers each refund as the ORM reads it, for every filter, one merchant or several', async () => {
    const sample = await prisma.refund.findFirstOrThrow({
      orderBy: { createdAt: 'desc' },
      select: { ...refundSelect, merchantId: true },
    });
    const zone = env().BUSINESS_TIME_ZONE;
    // The business day of the sample, and that day's bounds as the listing reads them.
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(sample.createdAt);
    const [from, to] = [startOfDay(day, zone), endOfDayExclusive(day, zone)];
    const searches = [
      {},
      { state: sample.state },
      { transaction_id: sample.transactionId.toUpperCase() },
      { merchant_operation_number: sample.merchantOperationNumber },
      { start_date: day, end_date: day },
    ];
    for (const scope of [
      all,
      { merchantIds: [merchants.A.id, merchants.B.id], merchantCode: '' },
      { merchantIds: [sample.merchantId], merchantCode: 'X' },
    ]) {
      for (const filters of searches) {
        const page = await listRefunds(prisma, scope, { ...filters, limit: '500' });
        const rows = await prisma.refund.findMany({
          where: {
            ...(scope.merchantIds === 'all' ? {} : { merchantId: { in: scope.merchantIds } }),
            ...('state' in filters ? { state: filters.state } : {}),
            ...('transaction_id' in filters ? { transactionId: sample.transactionId } : {}),
            ...('merchant_operation_number' in filters
              ? { operation: { merchantOperationNumber: filters.merchant_operation_number } }
              : {}),
          },
          select: refundSelect,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        });
        const expected = 'start_date' in filters ? rows.filter((row) => row.createdAt >= from && row.createdAt < to) : rows;
        expect(page.operations, JSON.stringify(filters)).toEqual(expected.map(toRefundObject));
        expect(page.operations_count).toBe(String(expected.length));
        expect(page.operations.some((refund) => refund.refund_id === sample.id)).toBe(true);
      }
    }
    const none = await listRefunds(prisma, { merchantIds: [], merchantCode: 'X' }, {});
    expect([none.operations, none.operations_count, none.next_cursor]).toEqual([[], '0', null]);
  });

  it('takes a cursor issued before counts were carried, and refuses one it did not issue', async () => {
    const first = await listRefunds(prisma, all, { limit: '2' });
    const [createdAt, id] = Buffer.from(first.next_cursor!, 'base64url').toString('utf8').split('|');
    const old = Buffer.from(`${createdAt}|${id}`).toString('base64url');
    const next = await listRefunds(prisma, all, { limit: '2', cursor: old });
    expect(next.operations_count).toBe(first.operations_count);
    expect(next.operations[0]!.refund_id).not.toBe(first.operations[1]!.refund_id);
    for (const forged of [
      `${createdAt}|${id}|12`,
      `${createdAt}|${id}|x|abcdefghijklmnop`,
      `${createdAt}|${id}|1|2|3|4`,
      'nonsense',
    ]) {
      await expect(
        listRefunds(prisma, all, { cursor: Buffer.from(forged).toString('base64url') }),
        forged,
      ).rejects.toBeInstanceOf(AppError);
    }
  });

  // Last: it adds refunds. On one connection the moves interleave by transaction (the race on
  // several connections is tests/postgres/refund-counts.test.ts).
  it('counts exactly from the counters while refunds are registered and moved, rolled-back moves included', async () => {
    expect(await counterProblems(prisma)).toEqual([]);
    expect(await raceRefundMoves(prisma, [merchants.A.id, merchants.B.id], 12)).toEqual([]);
  }, 120_000);
});
