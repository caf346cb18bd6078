import { describe, expect, it } from 'vitest';
import type { Db } from './client';
import { batchedReads } from './batched-reads';

// Reads batched per database handle (batched-reads.ts): one statement in flight, the reads asked
// meanwhile together in the next; no wait when nothing is in flight; a failure is its batch's.

/** A read whose statements are held until released: each call's keys, and its release. */
function heldReads(answer: (key: string) => string | undefined = (key) => `row ${key}`) {
  const calls: { keys: readonly string[]; release: (error?: Error) => void }[] = [];
  const read = batchedReads(
    (_db, keys: readonly string[]) =>
      new Promise<(string | undefined)[]>((resolve, reject) => {
        calls.push({ keys, release: (error) => (error ? reject(error) : resolve(keys.map(answer))) });
      }),
    { maxBatchSize: 3 },
  );
  return { read, calls };
}

const handle = () => ({}) as Db;
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('batched reads', () => {
  it('send a read at once when none is in flight, and the reads asked in its tick with it', async () => {
    const { read, calls } = heldReads();
    const db = handle();
    const answers = Promise.all([read(db, 'a'), read(db, 'b')]);
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([['a', 'b']]);
    calls[0]!.release();
    expect(await answers).toEqual(['row a', 'row b']);
  });

  it('hold the reads asked while one is in flight, and send them together once it answers', async () => {
    const { read, calls } = heldReads();
    const db = handle();
    const first = read(db, 'a');
    await settled();
    const later = [read(db, 'b'), read(db, 'c')];
    await settled();
    const after = read(db, 'd');
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([['a']]);
    calls[0]!.release();
    expect(await first).toBe('row a');
    await settled();
    // b and c, then d, which came once their batch was open: one statement (at most 3 keys).
    expect(calls.map((call) => call.keys)).toEqual([['a'], ['b', 'c', 'd']]);
    calls[1]!.release();
    expect(await Promise.all([...later, after])).toEqual(['row b', 'row c', 'row d']);
  });

  it('split a batch past its bound, one statement in flight at a time', async () => {
    const { read, calls } = heldReads();
    const db = handle();
    const answers = Promise.all(['a', 'b', 'c', 'd', 'e'].map((key) => read(db, key)));
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([['a', 'b', 'c']]);
    calls[0]!.release();
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    calls[1]!.release();
    expect(await answers).toEqual(['row a', 'row b', 'row c', 'row d', 'row e']);
  });

  it("fail a failed statement's reads only, and go on with the next batch", async () => {
    const { read, calls } = heldReads();
    const db = handle();
    const failing = read(db, 'a');
    await settled();
    const next = read(db, 'b');
    calls[0]!.release(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await settled();
    calls[1]!.release();
    expect(await next).toBe('row b');
  });

  it('batch each database handle apart, and answer undefined for a key the read did not find', async () => {
    const { read, calls } = heldReads((key) => (key === 'gone' ? undefined : `row ${key}`));
    const [one, two] = [handle(), handle()];
    const answers = Promise.all([read(one, 'a'), read(two, 'gone')]);
    await settled();
    expect(calls.map((call) => call.keys)).toEqual([['a'], ['gone']]);
    for (const call of calls) call.release();
    expect(await answers).toEqual(['row a', undefined]);
  });
});
