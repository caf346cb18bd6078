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
