import { env } from '@/env';
import { db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { levelInDatabase, takeFromDatabase } from './database-rate-limit';
import { leaseSize, TokenLeases } from './token-leases';
import type { HeaderReader } from '@/server/platform/http/api-request';

// Token buckets (docs/DESIGN.md 10): `rate` requests per second refill a bucket of `burst`. An empty
// bucket answers 429 code 50 with Retry-After. On PostgreSQL the buckets live in the database,
// so several instances share each limit; on the embedded database (one process) in memory.
//
// On PostgreSQL an instance takes the tokens of 50 ms of the rate at once (at least one) and
// spends them locally (token-leases.ts), so a busy credential costs the database one take per
// few requests instead of one per request. Leased tokens are gone from the shared bucket, so the
// instances together never exceed the limit; tokens left unspent after a second lapse (a little
// under the limit, never over it). One take per key is in flight at a time: requests that find
// the lease empty while it runs wait for it and spend what it brought, so a burst neither takes
// a lease per request nor is refused while tokens sit leased. Under 40 requests per second a
// take is one token.
type Bucket = { tokens: number; updatedAt: number };

const buckets = new Map<string, Bucket>();
const MAX_BUCKETS = 100_000;
const leases = new TokenLeases(MAX_BUCKETS);
/** The database take running for a key, if any, and how many requests wait for it (see above). */
type Take = { result: Promise<{ taken: number; left: number }>; waiting: number };
const takes = new Map<string, Take>();

function refused(tokens: number, rate: number): AppError {
  const retryAfter = Math.max(1, Math.ceil((1 - tokens) / rate));
  return new AppError('RATE_LIMITED', `rate limit of ${rate} requests per second exceeded`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/** Takes a token of the key's bucket, or throws 429. */
export async function takeToken(key: string, rate: number, burst: number): Promise<void> {
  if (!env().DATABASE_URL) return takeFromMemory(key, rate, burst);
  let waited = 0;
  for (;;) {
    if (leases.spend(key)) return;
    const running = takes.get(key);
    if (!running) break;
    // Another request's take is running: spend from what it brings. If it found the bucket
    // empty, so does this request (no second take at the same moment).
    running.waiting += 1;
    const outcome = await running.result.catch(() => null);
    waited = Math.max(waited, running.waiting);
    if (outcome && outcome.taken < 1) throw refused(outcome.left, rate);
  }
  // Enough for the requests that queued behind the last take too, so a burst is one or two takes.
  const want = Math.min(Math.floor(burst), Math.max(leaseSize(rate, burst), waited));
  const take: Take = { result: (async () => takeFromDatabase(await db(), key, rate, burst, want))(), waiting: 0 };
  takes.set(key, take);
  try {
    const { taken, left } = await take.result;
    if (taken < 1) throw refused(left, rate);
    if (taken > 1) leases.add(key, taken - 1);
  } finally {
    takes.delete(key);
  }
}

/** Whether the bucket is empty now, without taking from it (for limits that count failures only). */
export async function isExhausted(key: string, rate: number, burst: number): Promise<boolean> {
  if (!env().DATABASE_URL) return memoryLevel(key, rate, burst) < 1;
  return (await levelInDatabase(await db(), key, rate, burst)) < 1;
}

export function takeFromMemory(key: string, rate: number, burst: number, now = Date.now()): void {
  let bucket = buckets.get(key);
  if (!bucket) {
    if (buckets.size >= MAX_BUCKETS) sweep(now);
    bucket = { tokens: burst, updatedAt: now };
    buckets.set(key, bucket);
  }
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate);
  bucket.updatedAt = now;
  if (bucket.tokens < 1) throw refused(bucket.tokens, rate);
  bucket.tokens -= 1;
}

function memoryLevel(key: string, rate: number, burst: number, now = Date.now()): number {
  const bucket = buckets.get(key);
  if (!bucket) return burst;
  return Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate);
}

/** Drops buckets that are full again: they hold no information. */
function sweep(now: number): void {
  for (const [key, bucket] of buckets) {
    if (now - bucket.updatedAt > 60_000) buckets.delete(key);
  }
}

/** The caller's address, as the Node entry settled it from the peer and TRUSTED_PROXIES (http/node-api.ts). */
export function clientAddress(headers: HeaderReader): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || 'unknown';
}
