import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/db/adapter';
import { deployMigrations } from '@/server/db/migrations';
import { onEveryConnection } from '@/server/db/every-connection';
import { warmChargeStatements } from '@/server/services/charges/warm-charge-statements';

// The warm-up on PostgreSQL: every connection of the pool at once (distinct server processes),
// each left with the charge's statements prepared past the server's first five custom plans.
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
  it("holds every connection of the pool at once and readies the charge's statements on each", async () => {
    const seen: { pid: number; claims: number; plans: number }[] = [];
    await onEveryConnection(prisma, handle.connections, async (tx) => {
      await warmChargeStatements(tx);
      // The pattern split in two, so that this statement (prepared too) does not find itself.
      const [row] = await tx.$queryRawUnsafe<{ pid: number; claims: number; plans: number }[]>(
        `SELECT pg_backend_pid() AS pid,
                count(*)::int AS claims,
                COALESCE(max(generic_plans + custom_plans), 0)::int AS plans
         FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO ' || 'operations (id%'`,
      );
      seen.push(row!);
    });
    expect(handle.connections).toBe(20);
    expect(seen).toHaveLength(20);
    expect(new Set(seen.map((each) => each.pid)).size).toBe(20);
    for (const each of seen) {
      expect(each.claims).toBe(1);
      expect(each.plans).toBe(6);
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
});
