// npm run measure:scale -- [--runs 30] [--merchant CODE] [--max-p95 MS] [--only TEXT] [--group refunds|operations]
//   [--stop-above MS] [--explain]
// Against a database seeded by `npm run seed:operations` (PostgreSQL at DATABASE_URL, else the embedded one at PGLITE_DIR), times the
// queries of scripts/support/scale-queries.ts: the refund search of docs/interface.md 4.6 (each filter
// alone and combined) and the console's operations table (default view, each filter, each
// search kind, each sort; first pages and deep pages), in-process through the console's tRPC
// procedures (console.refunds runs the listRefunds of GET /refund, console.operations runs
// listOperations), as the merchant's admin and as support (every merchant). The merchant is the
// one named, or the one with the most operations. Each query runs `runs` times after two
// warm-ups; p50 and p95 in ms are printed as a Markdown table. --max-p95 fails (exit 1) when any
// p95 is above it; --only keeps the queries whose name contains TEXT, --group those of the refund
// search or of the operations table; a query with a run (the second warm-up included) slower than
// --stop-above (default 2000 ms) is not run again: its cells show "> MS" and the slowest time seen;
// --explain prints the plan (EXPLAIN ANALYZE) of every SQL statement of each query instead of timing it.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { PrismaClient } from '../src/generated/prisma/client';
import { env } from '../src/env';
import { openDatabase } from '../src/server/platform/db/adapter';
import { deployMigrations } from '../src/server/platform/db/migrations';
import { scaleCallers, scaleQueries } from './support/scale-queries';
import { machine } from './bench/report';
import { quantile, timeRuns } from './support/timing';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    merchant: { type: 'string' },
    'max-p95': { type: 'string' },
    only: { type: 'string' },
    group: { type: 'string' },
    'stop-above': { type: 'string', default: '2000' },
    explain: { type: 'boolean', default: false },
  },
});

type Statement = { query: string; params: string };

async function main(): Promise<void> {
  // PostgreSQL at DATABASE_URL, else the embedded database at PGLITE_DIR (the service stopped: PGlite has one owner).
  const databaseUrl = env().DATABASE_URL;
  const runs = Number(values.runs);
  const limit = values['max-p95'] === undefined ? Infinity : Number(values['max-p95']);
  const stopAbove = Number(values['stop-above']);
  if (!Number.isInteger(runs) || runs < 1 || Number.isNaN(limit) || !(stopAbove > 0)) {
    throw new Error('--runs, --max-p95 and --stop-above must be numbers');
  }
  if (values.group !== undefined && !['refunds', 'operations'].includes(values.group)) {
    throw new Error('--group is refunds or operations');
  }
  const handle = await openDatabase({ databaseUrl, pgliteDir: env().PGLITE_DIR });
  await deployMigrations(handle.factory);
  const statements: Statement[] = [];
  const prisma = new PrismaClient({ adapter: handle.factory, log: values.explain ? [{ emit: 'event', level: 'query' }] : [] });
  if (values.explain) prisma.$on('query' as never, (event: Statement) => statements.push(event));

  const merchant = values.merchant
    ? await prisma.merchant.findUniqueOrThrow({ where: { code: values.merchant }, select: { id: true, code: true } })
    : await largestMerchant(prisma);
  const callers = scaleCallers(prisma, merchant.id);
  const queries = (await scaleQueries(prisma, merchant)).filter(
    (query) => (!values.only || query.name.includes(values.only)) && (!values.group || query.name.startsWith(`${values.group}:`)),
  );

  const [counts] = await prisma.$queryRaw<{ operations: bigint; refunds: bigint; version: string }[]>`
    SELECT (SELECT count(*) FROM operations) AS operations, (SELECT count(*) FROM refunds) AS refunds,
           current_setting('server_version') AS version`;
  const engine = databaseUrl ? 'PostgreSQL' : 'PGlite (embedded PostgreSQL)';
  const own = await prisma.operation.count({ where: { merchantId: merchant.id } });
  const load = loadavg().map((value) => value.toFixed(1));
  console.log(
    `${engine} ${counts!.version}: ${counts!.operations} operations, ${counts!.refunds} refunds; merchant ${merchant.code} ` +
      `(${own} operations); ${machine()}; load average ${load.join(' ')}; ${runs} runs per query after 2 warm-ups, ` +
      'in-process console procedures, ms',
  );
  if (!values.explain) {
    console.log('\n| query | rows | merchant p50 | merchant p95 | support p50 | support p95 |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  }
  const over: string[] = [];
  for (const query of queries) {
    const cells: string[] = [];
    const rows = new Set<number>();
    for (const role of ['merchant', 'support'] as const) {
      if (!query.roles.includes(role)) {
        cells.push('—', '—');
        continue;
      }
      const call = await query.prepare(callers[role]);
      if (values.explain) {
        statements.length = 0;
        await call();
        console.log(`\n### ${query.name} (${role})`);
        for (const statement of [...statements]) await explain(prisma, statement);
        continue;
      }
      const times = await timeRuns(async () => rows.add(await call()), runs, { stopAboveMs: stopAbove });
      if (times.length < runs) {
        over.push(`${query.name} (${role}): a run took ${times.at(-1)!.toFixed(0)} ms, stopped`);
        cells.push(`> ${stopAbove}`, `${times.at(-1)!.toFixed(0)} (stopped)`);
        continue;
      }
      const p95 = quantile(times, 0.95);
      if (p95 > limit) over.push(`${query.name} (${role}): p95 ${p95.toFixed(1)} ms`);
      cells.push(quantile(times, 0.5).toFixed(1), p95.toFixed(1));
    }
    if (!values.explain) console.log(`| ${query.name} | ${[...rows].join(' / ')} | ${cells.join(' | ')} |`);
  }
  console.log(
    `\nload average at the end ${loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
  );
  await prisma.$disconnect();
  await handle.close();
  if (over.length > 0) {
    console.error(`\nabove the limits (p95 ${limit} ms, a run ${stopAbove} ms):\n${over.join('\n')}`);
    process.exit(1);
  }
}

async function largestMerchant(prisma: PrismaClient): Promise<{ id: string; code: string }> {
  const [largest] = await prisma.$queryRaw<{ id: string; code: string }[]>`
    SELECT m.id::text AS id, m.code FROM merchants m
    JOIN (SELECT merchant_id, count(*) AS n FROM operations GROUP BY merchant_id) o ON o.merchant_id = m.id
    ORDER BY o.n DESC LIMIT 1`;
  if (!largest) throw new Error('no operations: seed them first (npm run seed:operations)');
  return largest;
}

/** EXPLAIN ANALYZE of one statement Prisma sent, with the parameters it sent. */
async function explain(prisma: PrismaClient, statement: Statement): Promise<void> {
  if (!/^\s*SELECT/i.test(statement.query)) return;
  const params = JSON.parse(statement.params) as unknown[];
  const plan = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
    `EXPLAIN (ANALYZE, BUFFERS) ${statement.query}`,
    ...params,
  );
  console.log(`\n${statement.query}\n${JSON.stringify(params).slice(0, 300)}`);
  console.log(plan.map((row) => row['QUERY PLAN']).join('\n'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
