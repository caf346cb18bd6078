import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma, PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import { scaleCallers, scaleQueries, type ScaleQuery } from '../../scripts/support/scale-queries';
import { lifecycleProblems, refundProblems } from '../support/seed-checks';
import { seedOperations } from '../../scripts/support/seed-operations';

// The fast part of the scale target (npm run measure:scale times the same queries at a million
// operations): seed a few thousand operations over four merchants with the same seed code, then
// check the rows, and the plan of every SQL statement of every query of the refund search and
// the console's operations table. No timings: at this size a sequential scan is often the
// planner's right choice, so plans are taken with it priced out (enable_seqscan off). A Seq Scan
// left on a large table then means no index can answer the statement: what a million rows turn
// into a full read, and so does an index condition on any but the index's first column (the
// whole index is read). Searches must use their own index, deep pages must seek to their cursor
// (an Index Cond on the sort key, not a filter over everything before it), and only a refund
// search's first page counts.
const COUNT = 8000;
const LARGE_TABLES = new Set(['operations', 'transactions', 'refunds', 'lifecycle_entries']);

type Statement = { query: string; params: string };
type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
};

let handle: DatabaseHandle;
let prisma: PrismaClient;
let merchantIds: string[];
let merchant: { id: string; code: string };
let capturing = false;
const statements: Statement[] = [];
/** The first key of each index of a large table (null for an expression). */
const firstKey = new Map<string, string | null>();

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' });
  await deployMigrations(handle.factory);
  prisma = new PrismaClient({ adapter: handle.factory, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query' as never, (event: Statement) => {
    if (capturing) statements.push({ query: event.query, params: event.params });
  });
  const run = `SC${Date.now().toString(36).toUpperCase()}`;
  const merchants = await Promise.all(
    [1, 2, 3, 4].map((n) =>
      prisma.merchant.create({ data: { code: `${run}${n}`, name: `Scale ${n}` }, select: { id: true, code: true } }),
    ),
  );
  merchantIds = merchants.map((row) => row.id);
  merchant = merchants[0]!;
  await seedOperations(prisma, { merchantIds, count: COUNT, prefix: `${run}-`, batchSize: 2000, concurrency: 2 });
  // Statistics of the rows just loaded, as a deployment's autovacuum would have them: without,
  // the planner chose by whatever autovacuum had sampled so far, and a plan flipped between runs.
  await prisma.$executeRaw`ANALYZE`;
  const indexes = await prisma.$queryRaw<{ name: string; definition: string }[]>`
    SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = current_schema()`;
  for (const index of indexes) {
    const key = /USING \w+ \((.*)\)$/.exec(index.definition)?.[1]?.split(',')[0]?.trim() ?? '';
    firstKey.set(index.name, key.includes('(') ? null : key.split(' ')[0]!.replace(/"/g, ''));
  }
}, 120_000);

// The seeded rows go again: the worker test that shares this database runs the background jobs
// (settlement, refund processing), which would otherwise work through them.
afterAll(async () => {
  const ids = Prisma.join(merchantIds.map((id) => Prisma.sql`${id}::uuid`));
  await prisma.$transaction([
    prisma.$executeRaw`DELETE FROM refunds WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM lifecycle_entries WHERE transaction_id IN (SELECT id FROM transactions WHERE merchant_id IN (${ids}))`,
    prisma.$executeRaw`DELETE FROM transactions WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM operations WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM merchants WHERE id IN (${ids})`,
  ]);
  await prisma.$disconnect();
  await handle.close();
});

/** The SQL statements one call sends. */
async function statementsOf(call: () => Promise<unknown>): Promise<Statement[]> {
  statements.length = 0;
  capturing = true;
  try {
    await call();
  } finally {
    capturing = false;
  }
  return [...statements];
}

/** The plan of a statement with the parameters it was sent with, sequential scans priced out. */
async function planOf(statement: Statement): Promise<PlanNode> {
  const params = JSON.parse(statement.params) as unknown[];
  const [row] = await prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
    return tx.$queryRawUnsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (FORMAT JSON) ${statement.query}`, ...params);
  });
  return row!['QUERY PLAN'][0].Plan;
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

describe('seeding over several merchants', () => {
  it('writes every operation once, spread unevenly over the merchants', async () => {
    const perMerchant = await prisma.operation.groupBy({
      by: ['merchantId'],
      where: { merchantId: { in: merchantIds } },
      _count: true,
    });
    const counts = merchantIds.map((id) => perMerchant.find((row) => row.merchantId === id)?._count ?? 0);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(COUNT);
    expect(await prisma.transaction.count({ where: { merchantId: { in: merchantIds } } })).toBe(COUNT);
    // sqrt((i+1)/k) - sqrt(i/k): the first of four gets half, the last about a seventh.
    expect(counts[0]!).toBeGreaterThan(counts[3]! * 2);
    expect(Math.min(...counts)).toBeGreaterThan(COUNT / 20);
    const mismatched = await prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM transactions t JOIN operations o ON o.id = t.operation_id WHERE t.merchant_id <> o.merchant_id`;
    expect(Number(mismatched[0]!.n)).toBe(0);
  });

  it('writes only rows the service could have written', async () => {
    expect(await lifecycleProblems(prisma, merchantIds)).toEqual([]);
    expect(await prisma.refund.count({ where: { merchantId: { in: merchantIds } } })).toBeGreaterThan(0);
    expect(await refundProblems(prisma, merchantIds)).toEqual([]);
  });
});

describe('the refund search and the operations table at scale', () => {
  let queries: ScaleQuery[];
  beforeAll(async () => {
    queries = await scaleQueries(prisma, merchant);
  });

  it('answer every statement of every query from an index', async () => {
    const callers = scaleCallers(prisma, merchant.id);
    const problems: string[] = [];
    for (const query of queries) {
      for (const role of query.roles) {
        const call = await query.prepare(callers[role]);
        const sent = await statementsOf(call);
        const where = `${query.name} (${role})`;
        const plans = await Promise.all(sent.filter((statement) => /^\s*SELECT/i.test(statement.query)).map(planOf));
        const nodes = plans.flatMap(nodesOf);
        for (const node of nodes) {
          if (node['Node Type'] === 'Seq Scan' && LARGE_TABLES.has(node['Relation Name'] ?? '')) {
            problems.push(`${where}: Seq Scan on ${node['Relation Name']}`);
          }
          const key = node['Index Name'] ? firstKey.get(node['Index Name']) : null;
          if (key && node['Index Cond'] && !new RegExp(`\\b${key}\\b`).test(node['Index Cond'])) {
            problems.push(`${where}: reads all of ${node['Index Name']} (${node['Index Cond']})`);
          }
        }
        if (query.index && !nodes.some((node) => node['Index Name'] === query.index)) {
          problems.push(`${where}: does not use ${query.index}`);
        }
        // The first page counts its search (one statement, over refund_day_counts or a few refunds);
        // a cursor page carries the count, and counts only when its search changed.
        const counts = sent.filter((statement) => /\bAS total\b/.test(statement.query)).length;
        if (query.name.startsWith('refunds:') && counts !== (query.deep ? 0 : 1)) {
          problems.push(`${where}: ${counts} counts (the first page counts once, a cursor page never)`);
        }
        // The page's refunds are found and limited before anything is joined to them (operations
        // is read under the LIMIT only to find the operation a search names).
        const joinedLater = query.name.includes('merchant_operation_number') ? ['transactions'] : ['operations', 'transactions'];
        for (const limit of nodes.filter((node) => node['Node Type'] === 'Limit')) {
          const joined = nodesOf(limit).filter((node) => joinedLater.includes(node['Relation Name'] ?? ''));
          if (query.name.startsWith('refunds:') && joined.length > 0) problems.push(`${where}: joins before its LIMIT`);
        }
        if (query.deep && !nodes.some((node) => /created_at|amount/.test(node['Index Cond'] ?? ''))) {
          problems.push(`${where}: the page does not seek to its cursor (no Index Cond on the sort key)`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
