import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { startWorker } from './worker';

// The worker through a database outage: one line when its jobs pause, one when they resume, not
// one per job per poll.

afterEach(() => {
  vi.restoreAllMocks();
});

/** A database whose every call fails with `fault` while `down.now`, and finds nothing to do otherwise. */
function database(down: { now: boolean }, fault: () => Error): Db {
  // Lazy, as Prisma's are: a query runs when awaited (or by $transaction), not when made.
  const answer = (value: unknown) => () => ({
    then: (resolve: (value: unknown) => unknown, reject: (error: unknown) => unknown) =>
      (down.now ? Promise.reject(fault()) : Promise.resolve(value)).then(resolve, reject),
  });
  const model = new Proxy({}, { get: () => answer([]) });
  return new Proxy({} as Db, {
    get: (_, property) => {
      if (property === '$queryRaw' || property === '$queryRawUnsafe') return answer([]);
      if (property === '$executeRaw' || property === '$executeRawUnsafe') return answer(0);
      if (property === '$transaction') return answer([[], []]);
      return model;
    },
  });
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

async function runFor(prisma: Db, ms: number) {
  const worker = startWorker(prisma, 'test');
  await new Promise((resolve) => setTimeout(resolve, ms));
  await worker.stop();
}

function lines(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.map((call) => String((JSON.parse(String(call[0])) as { message: string }).message));
}

describe('startWorker', () => {
  it('says a database outage once when it starts and once when it ends', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const infos = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const down = { now: true };
    const prisma = database(down, refused);
    const worker = startWorker(prisma, 'test');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    down.now = false;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await worker.stop();
    expect(lines(errors)).toEqual(['worker jobs paused: the database is unavailable']);
    expect(lines(infos).filter((line) => line.startsWith('worker jobs'))).toEqual(['worker jobs resumed: the database is back']);
  });

  it('logs every other failure as it happens', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await runFor(
      database({ now: true }, () => new Error('a bug')),
      1_200,
    );
    expect(lines(errors).length).toBeGreaterThan(3);
    expect(new Set(lines(errors).map((line) => line.replace(/ failed$/, '')))).toContain('worker job expiry');
  });
});
