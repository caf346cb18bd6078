import { expect, test } from 'vitest';
import { DEFAULT_RETRY } from '../src/index.js';
import { backoffMs, delayBeforeRetry, parseRetryAfter } from '../src/retry.js';

test('Retry-After as seconds or as an HTTP date; nothing when absent or unreadable', () => {
  const now = Date.parse('2026-05-01T10:00:00Z');
  expect(parseRetryAfter('1', now)).toBe(1000);
  expect(parseRetryAfter(' 30 ', now)).toBe(30_000);
  expect(parseRetryAfter('Fri, 01 May 2026 10:00:05 GMT', now)).toBe(5000);
  expect(parseRetryAfter('Fri, 01 May 2026 09:00:00 GMT', now)).toBe(0);
  expect(parseRetryAfter(null, now)).toBeUndefined();
  expect(parseRetryAfter('soon', now)).toBeUndefined();
});

test('full jitter: a random share of the doubling ceiling, capped', () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
  expect([1, 2, 3, 4, 5].map((retry) => backoffMs(retry, options, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  expect(backoffMs(3, options, () => 0)).toBe(0);
  expect(backoffMs(3, options, () => 0.5)).toBe(200);
});

test('never sooner than Retry-After; nothing when it asks for longer than the client waits', () => {
  const options = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 10_000 };
  expect(delayBeforeRetry(1, 1000, options, () => 1)).toBe(1000);
  expect(delayBeforeRetry(5, 500, options, () => 1)).toBe(1000);
  expect(delayBeforeRetry(1, 60_000, options)).toBeUndefined();
});
