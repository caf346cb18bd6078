import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import { onEveryConnection } from '@/server/platform/db/every-connection';
import { warmHotStatements } from '@/server/startup/warm-statements';
import { warmCharge, warmChargePath } from '@/server/startup/warm-charge';
import { breakers } from '@/server/modules/processors/breakers';
import { getTransaction } from '@/server/modules/charges/get-transaction';
import { listRefunds } from '@/server/modules/refunds/list-refunds';

// The warm-up on PostgreSQL: every connection of the pool at once (distinct server processes),
// every one begun before any runs its work, each left with the hot paths' statements prepared past
// the server's first five custom plans.
let handle: DatabaseHandle;
let prisma: PrismaClient;

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' });
  await deployMigrations(handle.factory);
  prisma = new PrismaClient({ adapter: handle.factory });
});

afterAll(async () => {
  await prisma.$disconnect();
  await handle.close();
});

describe('onEveryConnection on PostgreSQL', () => {
  it("holds every connection of the pool at once and readies the hot paths' statements on each", async () => {
    type Seen = { pid: number; claims: number; plans: number; transaction_reads: number; refund_pages: number };
    const seen: Seen[] = [];
    const times: { began: Date; working: Date }[] = [];
    await onEveryConnection(prisma, handle.connections, async (tx) => {
      // now() is when the transaction began, clock_timestamp() when its work starts.
      const [time] = await tx.$queryRawUnsafe<{ began: Date; working: Date }[]>(
        'SELECT now() AS began, clock_timestamp() AS working',
      );
      times.push(time!);
      await warmHotStatements(tx);
      // The pattern split in two, so that this statement (prepared too) does not find itself.
      const prepared = async () =>
        (
          await tx.$queryRawUnsafe<Seen[]>(
            `SELECT pg_backend_pid() AS pid,
                    count(*) FILTER (WHERE statement LIKE '%INSERT INTO ' || 'operations (id%')::int AS claims,
                    COALESCE(max(generic_plans + custom_plans)
                      FILTER (WHERE statement LIKE '%INSERT INTO ' || 'operations (id%'), 0)::int AS plans,
                    count(*) FILTER (WHERE statement LIKE '%AS "state' || 'Reason"%')::int AS transaction_reads,
                    count(*) FILTER (WHERE statement LIKE '%FROM refunds ' || 'r%')::int AS refund_pages
             FROM pg_prepared_statements`,
          )
        )[0]!;
      const row = await prepared();
      // A merchant's real requests then find their statements ready: none is prepared anew.
      const merchant = {
        id: randomUUID(),
        code: 'ANYONE',
        name: 'Anyone',
        enabledMethods: ['CARD'],
        expirySeconds: {},
        captureModes: {},
        captureWindowDays: 7,
      };
      await expect(getTransaction(tx, merchant, 'order-1', randomUUID())).rejects.toThrow('no such transaction');
      for (const filters of [
        {},
        { start_date: '2026-11-01', end_date: '2026-11-26' },
        { state: 'RESOLVED' as const, start_date: '2026-11-01', end_date: '2026-11-26' },
      ]) {
        await listRefunds(tx, { merchantIds: [merchant.id], merchantCode: merchant.code }, filters);
      }
      const afterRequests = await prepared();
      expect(afterRequests.transaction_reads).toBe(row.transaction_reads);
      expect(afterRequests.refund_pages).toBe(row.refund_pages);
      seen.push(row);
    });
    expect(handle.connections).toBe(20);
    expect(seen).toHaveLength(20);
    expect(new Set(seen.map((each) => each.pid)).size).toBe(20);
    // The barrier: no work started before the last of the 20 transactions had begun.
    const lastBegun = Math.max(...times.map((each) => each.began.getTime()));
    expect(Math.min(...times.map((each) => each.working.getTime()))).toBeGreaterThanOrEqual(lastBegun);
    for (const each of seen) {
      expect(each.claims).toBe(1);
      expect(each.plans).toBe(6);
      expect(each.transaction_reads).toBe(1);
      // The pages and counts of the warmed filters (list-refunds.ts): without filters, by one day
      // and by several, each also by state; the requests above then prepared none anew.
      expect(each.refund_pages).toBe(7);
    }

    // Past the pool's idle timeout (10 s), the same connections, still ready.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const later: number[] = [];
    await onEveryConnection(prisma, handle.connections, async (tx) => {
      const [row] = await tx.$queryRawUnsafe<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
      later.push(row!.pid);
    });
    expect(new Set(later)).toEqual(new Set(seen.map((each) => each.pid)));
  });

  it('makes its charges on every connection at once, and keeps none of them', async () => {
    const count = () =>
      prisma.$queryRawUnsafe<Record<string, number>[]>(
        `SELECT (SELECT count(*)::int FROM merchants) AS merchants, (SELECT count(*)::int FROM operations) AS operations,
                (SELECT count(*)::int FROM transactions) AS transactions, (SELECT count(*)::int FROM outbox_events) AS events,
                (SELECT count(*)::int FROM sandbox_processor_records) AS records`,
      );
    const before = await count();
    let charged = 0;
    await onEveryConnection(prisma, handle.connections, async (tx) => {
      for (let charge = 0; charge < 6; charge += 1) await warmCharge(tx);
      charged += 1;
    });
    expect(charged).toBe(handle.connections);
    expect(await warmChargePath(prisma, handle.connections)).toBe(6 * handle.connections);
    expect(await count()).toEqual(before);
    expect(breakers().snapshot()).toEqual([]);
  });
});
