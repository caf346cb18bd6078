import { AppError } from '@/server/domain/errors';

// Token buckets kept in this process (DESIGN.md 10): `rate` requests per second refill a
// bucket of `burst`. An empty bucket answers 429 code 50 with Retry-After.
type Bucket = { tokens: number; updatedAt: number };

const buckets = new Map<string, Bucket>();
const MAX_BUCKETS = 100_000;

export function takeToken(key: string, rate: number, burst: number, now = Date.now()): void {
  let bucket = buckets.get(key);
  if (!bucket) {
    if (buckets.size >= MAX_BUCKETS) sweep(now);
    bucket = { tokens: burst, updatedAt: now };
    buckets.set(key, bucket);
  }
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate);
  bucket.updatedAt = now;
  if (bucket.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    throw new AppError('RATE_LIMITED', `rate limit of ${rate} requests per second exceeded`, {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
  bucket.tokens -= 1;
}

/** Whether the bucket is empty now, without taking from it (for limits that count failures only). */
export function isExhausted(key: string, rate: number, burst: number, now = Date.now()): boolean {
  const bucket = buckets.get(key);
  if (!bucket) return false;
  return Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate) < 1;
}

/** Drops buckets that are full again: they hold no information. */
function sweep(now: number): void {
  for (const [key, bucket] of buckets) {
    if (now - bucket.updatedAt > 60_000) buckets.delete(key);
  }
}

/** The caller's address as the proxy in front reports it. */
export function clientAddress(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || headers.get('x-real-ip') || 'unknown';
}
