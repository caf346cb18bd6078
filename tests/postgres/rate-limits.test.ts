import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import { levelInDatabase, sweepDatabaseBuckets, takeFromDatabase } from '@/server/platform/rate-limit/database-rate-limit';
import { takeToken } from '@/server/platform/rate-limit/rate-limit';

// Rate limits shared through PostgreSQL: two clients of one database (as two service instances
// are) take from the same bucket, concurrent takes never hand out more than the bucket holds.
const handles: DatabaseHandle[] = [];
const instances: PrismaClient[] = [];

beforeAll(async () => {
  for (let index = 0; index < 2; index += 1) {
    const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' });
    if (index === 0) await deployMigrations(handle.factory);
    handles.push(handle);
    instances.push(new PrismaClient({ adapter: handle.factory }));
  }
});

afterAll(async () => {
  for (const prisma of instances) await prisma.$disconnect();
  for (const handle of handles) await handle.close();
});

describe('database token buckets', () => {
  it('share one bucket between instances', async () => {
    const key = `shared-${Date.now()}`;
    const [a, b] = instances as [PrismaClient, PrismaClient];
    expect(await takeFromDatabase(a, key, 0.01, 3)).toEqual({ taken: 1, left: 0 });
    expect(await takeFromDatabase(b, key, 0.01, 3)).toEqual({ taken: 1, left: 0 });
    expect(await takeFromDatabase(a, key, 0.01, 3)).toEqual({ taken: 1, left: 0 });
    const refused = await takeFromDatabase(b, key, 0.01, 3);
    expect(refused.taken).toBe(0);
    expect(refused.left).toBeLessThan(1);
    expect(await levelInDatabase(a, key, 0.01, 3)).toBeLessThan(1);
  });

  it('hand out exactly the burst to 40 concurrent takes from both instances', async () => {
    const key = `race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) => takeFromDatabase(instances[index % 2]!, key, 0.001, 10)),
    );
    expect(results.filter((result) => result.taken === 1)).toHaveLength(10);
    expect(results.filter((result) => result.taken === 0)).toHaveLength(30);
  });

  it('lease several tokens at once, never more than the bucket holds, across instances', async () => {
    const key = `lease-${Date.now()}`;
    const [a, b] = instances as [PrismaClient, PrismaClient];
    // A bucket of 10 at a negligible refill: takes of up to 4 get 4, 4, then the 2 left.
    expect(await takeFromDatabase(a, key, 0.001, 10, 4)).toEqual({ taken: 4, left: 0 });
    expect(await takeFromDatabase(b, key, 0.001, 10, 4)).toEqual({ taken: 4, left: 0 });
    expect(await takeFromDatabase(a, key, 0.001, 10, 4)).toEqual({ taken: 2, left: 0 });
    expect((await takeFromDatabase(b, key, 0.001, 10, 4)).taken).toBe(0);
    // Concurrent leases of a fresh bucket hand out exactly its 10 tokens in all.
    const race = `lease-race-${Date.now()}`;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, index) => takeFromDatabase(instances[index % 2]!, race, 0.001, 10, 3)),
    );
    expect(results.reduce((sum, result) => sum + result.taken, 0)).toBe(10);
  });

  it('take keys with a NUL or odd Unicode (a client_id of an attacker) like any other', async () => {
    const [a] = instances as [PrismaClient];
    const key = `token-client:bad\u0000\ud800-${Date.now()}`;
    expect((await takeFromDatabase(a, key, 0.01, 1)).taken).toBe(1);
    expect((await takeFromDatabase(a, key, 0.01, 1)).taken).toBe(0);
  });

  it('refill with time and forget idle buckets', async () => {
    const key = `refill-${Date.now()}`;
    const [a] = instances as [PrismaClient];
    expect((await takeFromDatabase(a, key, 20, 1)).taken).toBe(1);
    expect((await takeFromDatabase(a, key, 20, 1)).taken).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await takeFromDatabase(a, key, 20, 1)).taken).toBe(1);
    expect(await sweepDatabaseBuckets(a, 0)).toBeGreaterThan(0);
    expect(await levelInDatabase(a, key, 20, 1)).toBe(1);
  });

  it('admit a whole burst of concurrent requests of one instance, leased a few tokens at a time', async () => {
    // 100/s, burst 200: a take brings 5 tokens. 200 requests at once must all pass (each waits
    // for the take in flight and spends from its lease); the next 100 at once find the bucket
    // nearly empty and only what refilled meanwhile passes.
    const key = `burst-${Date.now()}`;
    const started = Date.now();
    const first = await Promise.allSettled(Array.from({ length: 200 }, () => takeToken(key, 100, 200)));
    expect(first.filter((result) => result.status === 'rejected')).toHaveLength(0);
    const second = await Promise.allSettled(Array.from({ length: 100 }, () => takeToken(key, 100, 200)));
    const refill = Math.ceil(((Date.now() - started) / 1000) * 100) + 5;
    expect(second.filter((result) => result.status === 'fulfilled').length).toBeLessThanOrEqual(refill);
    expect(second.filter((result) => result.status === 'rejected').length).toBeGreaterThan(0);
  });
});
