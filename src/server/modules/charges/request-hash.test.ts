import { describe, expect, it } from 'vitest';
import { requestHash } from './request-hash';

const key = Buffer.alloc(32, 7);

describe('requestHash', () => {
  it('ignores key order and undefined members', () => {
    expect(requestHash(key, { a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      requestHash(key, { b: { d: 'x', c: [1, 2] }, a: 1, e: undefined }),
    );
  });

  it('changes with any value, array order, or the key', () => {
    const base = requestHash(key, { a: [1, 2] });
    expect(requestHash(key, { a: [2, 1] })).not.toBe(base);
    expect(requestHash(key, { a: [1, 3] })).not.toBe(base);
    expect(requestHash(Buffer.alloc(32, 8), { a: [1, 2] })).not.toBe(base);
  });

  it('is a keyed digest that does not contain the input', () => {
    const digest = requestHash(key, { pan: '4111111111111111' });
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(digest).not.toContain('4111');
  });
});
