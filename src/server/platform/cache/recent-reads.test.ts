import { describe, expect, it } from 'vitest';
import { RecentReads } from './recent-reads';

describe('RecentReads', () => {
  it('reads a key once within the time to live, again after it and after forget', async () => {
    const reads: string[] = [];
    const cache = new RecentReads<string>(1_000);
    const read = (key: string, now: number) =>
      cache.get(
        key,
        async () => {
          reads.push(`${key}@${now}`);
          return `${key}:${reads.length}`;
        },
        now,
      );
    expect(await read('a', 0)).toBe('a:1');
    expect(await read('a', 999)).toBe('a:1');
    expect(await read('b', 999)).toBe('b:2');
    expect(await read('a', 1_000)).toBe('a:3');
    cache.forget('a');
    expect(await read('a', 1_001)).toBe('a:4');
    expect(reads).toEqual(['a@0', 'b@999', 'a@1000', 'a@1001']);
  });

  it('keeps at most maxEntries keys, dropping the oldest read', async () => {
    let count = 0;
    const cache = new RecentReads<number>(60_000, 2);
    const read = (key: string) => cache.get(key, async () => ++count, 0);
    await read('a');
    await read('b');
    await read('c');
    expect([await read('b'), await read('c'), count]).toEqual([2, 3, 3]);
    expect(await read('a')).toBe(4);
  });
});

describe('RecentReads, reads in flight', () => {
  function deferred<T>() {
    let resolve!: (value: T) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<T>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    return { promise, resolve, reject };
  }

  it('gives requests that miss one key at once a single read', async () => {
    const cache = new RecentReads<string>(1_000);
    const pending = deferred<string>();
    let reads = 0;
    const read = () => {
      reads += 1;
      return pending.promise;
    };
    const answers = [cache.get('a', read, 0), cache.get('a', read, 1), cache.get('a', read, 2)];
    expect(reads).toBe(1);
    pending.resolve('a:1');
    expect(await Promise.all(answers)).toEqual(['a:1', 'a:1', 'a:1']);
    expect(await cache.get('a', read, 500)).toBe('a:1');
    expect(reads).toBe(1);
  });

  it('does not keep a read that forget overtook, and the next request reads again', async () => {
    const cache = new RecentReads<string>(1_000);
    const before = deferred<string>();
    const early = cache.get('a', () => before.promise, 0);
    cache.forget('a');
    const after = cache.get('a', async () => 'changed', 1);
    before.resolve('stale');
    expect(await early).toBe('stale');
    expect(await after).toBe('changed');
    expect(await cache.get('a', async () => 'read again', 2)).toBe('changed');
  });

  it('passes a failed read to every request that shared it, and keeps nothing', async () => {
    const cache = new RecentReads<string>(1_000);
    const failing = deferred<string>();
    const shared = [cache.get('a', () => failing.promise, 0), cache.get('a', () => failing.promise, 0)];
    failing.reject(new Error('database away'));
    for (const each of shared) await expect(each).rejects.toThrow('database away');
    expect(await cache.get('a', async () => 'back', 1)).toBe('back');
  });
});
