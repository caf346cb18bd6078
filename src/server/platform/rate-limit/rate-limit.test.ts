import { describe, expect, it } from 'vitest';
import { type AppError } from '@/server/core/domain/errors';
import { clientAddress, takeFromMemory } from './rate-limit';

function refused(run: () => void): AppError | null {
  try {
    run();
    return null;
  } catch (error) {
    return error as AppError;
  }
}

describe('takeFromMemory', () => {
  it('allows a burst, then refuses with 429 code 50 and Retry-After until tokens refill', () => {
    const key = `t-${Math.random()}`;
    const start = 1_000_000;
    for (let index = 0; index < 4; index += 1) takeFromMemory(key, 2, 4, start);
    const error = refused(() => takeFromMemory(key, 2, 4, start));
    expect(error?.kind).toBe('RATE_LIMITED');
    expect(error?.status).toBe(429);
    expect(error?.headers).toEqual({ 'Retry-After': '1' });
    expect(refused(() => takeFromMemory(key, 2, 4, start + 500))).toBeNull();
    expect(refused(() => takeFromMemory(key, 2, 4, start + 500))?.kind).toBe('RATE_LIMITED');
  });

  it('keeps separate buckets per key', () => {
    const start = 2_000_000;
    takeFromMemory('a-key', 1, 1, start);
    expect(refused(() => takeFromMemory('a-key', 1, 1, start))?.kind).toBe('RATE_LIMITED');
    expect(refused(() => takeFromMemory('b-key', 1, 1, start))).toBeNull();
  });
});

describe('clientAddress', () => {
  it('takes the address the Node entry settled in x-forwarded-for, never x-real-ip', () => {
    expect(clientAddress(new Headers({ 'x-forwarded-for': '203.0.113.9' }))).toBe('203.0.113.9');
    expect(clientAddress(new Headers({ 'x-real-ip': '198.51.100.2' }))).toBe('unknown');
    expect(clientAddress(new Headers())).toBe('unknown');
  });
});
