import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import type { DatabaseHandle } from '@/server/platform/db/adapter';
import { openMigratedPglite } from '@tests/support/procedure-test-support';
import type { Db } from '@/server/platform/db/client';
import { withIdempotency } from './idempotency';

// Idempotency-Key claims on a real embedded database: an answer replayed, one that is not the
// work's last word not remembered, and a claim left by a dead request taken over without the
// dead request's late answer or release touching the new owner's claim.
let handle: DatabaseHandle;
let prisma: PrismaClient;

beforeAll(async () => {
  handle = await openMigratedPglite();
  prisma = new PrismaClient({ adapter: handle.factory });
});

afterAll(async () => {
  await prisma.$disconnect();
  await handle.close();
});

const db = () => prisma as unknown as Db;

describe('withIdempotency', () => {
  it('replays the stored answer to the same key and body, running the work once', async () => {
    let runs = 0;
    const work = async () => ({ run: ++runs });
    const options = { scope: 's:replay', key: 'k1', body: { amount: '100' } };
    expect(await withIdempotency(db(), options, work)).toEqual({ run: 1 });
    expect(await withIdempotency(db(), options, work)).toEqual({ run: 1 });
    expect(runs).toBe(1);
  });

  it('does not remember an answer that is not final: the retry runs the work again', async () => {
    let runs = 0;
    const work = async () => ({ state: runs++ === 0 ? 'REGISTRADO' : 'AUTORIZADO' });
    const options = {
      scope: 's:final',
      key: 'k1',
      body: {},
      final: (answer: { state: string }) => answer.state !== 'REGISTRADO',
    };
    expect(await withIdempotency(db(), options, work)).toEqual({ state: 'REGISTRADO' });
    expect(await withIdempotency(db(), options, work)).toEqual({ state: 'AUTORIZADO' });
    expect(await withIdempotency(db(), options, work)).toEqual({ state: 'AUTORIZADO' });
    expect(runs).toBe(2);
  });

  it('takes over a claim 30 s old; the late first request neither stores over nor releases the new one', async () => {
    const options = { scope: 's:takeover', key: 'k1', body: {} };
    let releaseFirst!: () => void;
    const first = withIdempotency(
      db(),
      options,
      () => new Promise<{ by: string }>((resolve) => (releaseFirst = () => resolve({ by: 'first' }))),
    );
    await expect.poll(() => prisma.idempotencyRecord.count({ where: { scope: 's:takeover' } })).toBe(1);
    // The first request's claim ages past the takeover.
    await prisma.idempotencyRecord.updateMany({
      where: { scope: 's:takeover' },
      data: { createdAt: new Date(Date.now() - 31_000) },
    });
    expect(await withIdempotency(db(), options, async () => ({ by: 'second' }))).toEqual({ by: 'second' });
    releaseFirst();
    expect(await first).toEqual({ by: 'first' });
    // The stored answer is the second's, and stays so.
    expect(await withIdempotency(db(), options, async () => ({ by: 'third' }))).toEqual({ by: 'second' });
  });
});
