import type { Db, Tx } from './client';

// A pool opens its connections as requests need them, and a new PostgreSQL connection starts with
// empty caches: the first run of a statement on it parses and plans the statement and loads the
// metadata of every table and index it touches, and the server plans a prepared statement afresh
// for its first five runs. A fresh instance under load pays that on each of its pool's
// connections while requests queue (docs/BENCHMARKS.md, "fresh instance"), so the warm-up pays it
// before the instance says it is ready.

class RolledBack extends Error {}

/**
 * Runs `work` on `connections` connections at once, each in a transaction that is rolled back, so
 * nothing it writes is kept. Each transaction waits until all have begun (or `waitMs` passed), so
 * that they hold distinct connections of the pool.
 */
export async function onEveryConnection(
  prisma: Db,
  connections: number,
  work: (tx: Tx) => Promise<void>,
  waitMs = 5_000,
): Promise<void> {
  let begun = 0;
  let allBegun = () => {};
  const everyoneIn = new Promise<void>((resolve) => {
    allBegun = resolve;
  });
  const timer = setTimeout(() => allBegun(), waitMs);
  const one = () =>
    prisma
      .$transaction(async (tx) => {
        begun += 1;
        if (begun === connections) allBegun();
        await everyoneIn;
        await work(tx);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  // Every transaction ends before this returns, a failed one included: one that cannot begin
  // (no connection to be had) releases the others, which would otherwise wait for it and hold
  // their connections until the transaction timeout, after the instance said it was ready.
  const started = Array.from({ length: connections }, () => one().finally(() => allBegun()));
  const results = await Promise.allSettled(started);
  clearTimeout(timer);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
