import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma, PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import { seedOperations } from '../../scripts/support/seed-operations';
import { counterProblems, raceRefundMoves } from '../support/refund-counts';

// GET /refund's operations_count, read from refund_day_counts, stays exact while refunds are
// registered and moved on many connections at once, some of those transactions rolling back.
let handle: DatabaseHandle;
let prisma: PrismaClient;
let merchantIds: string[];

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' });
  await deployMigrations(handle.factory);
  prisma = new PrismaClient({ adapter: handle.factory });
  const run = `RC${Date.now().toString(36).toUpperCase()}`;
  const merchants = await Promise.all(
    [1, 2].map((n) => prisma.merchant.create({ data: { code: `${run}${n}`, name: `Counts ${n}` }, select: { id: true } })),
  );
  merchantIds = merchants.map((row) => row.id);
  await seedOperations(prisma, { merchantIds, count: 1500, prefix: `${run}-`, batchSize: 500, concurrency: 2 });
}, 120_000);

// The rows go again: the worker test that shares this database would process the refunds.
afterAll(async () => {
  const ids = Prisma.join(merchantIds.map((id) => Prisma.sql`${id}::uuid`));
  await prisma.$transaction([
    prisma.$executeRaw`DELETE FROM outbox_events WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM refunds WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM lifecycle_entries WHERE transaction_id IN (SELECT id FROM transactions WHERE merchant_id IN (${ids}))`,
    prisma.$executeRaw`DELETE FROM transactions WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM operations WHERE merchant_id IN (${ids})`,
    prisma.$executeRaw`DELETE FROM merchants WHERE id IN (${ids})`,
  ]);
  expect(await counterProblems(prisma)).toEqual([]);
  await prisma.$disconnect();
  await handle.close();
});

describe('refund counters', () => {
  it('are right after seeding', async () => {
    expect(await counterProblems(prisma)).toEqual([]);
  });

  it('keep operations_count exact under concurrent refund moves, rolled-back ones included', async () => {
    expect(await raceRefundMoves(prisma, merchantIds, 60)).toEqual([]);
  }, 300_000);
});
