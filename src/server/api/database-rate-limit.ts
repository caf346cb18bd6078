import { createHash } from 'node:crypto';
import type { Db } from '@/server/db/client';

// Token buckets in PostgreSQL, so that every instance counts against one limit: a take is one
// statement that refills the bucket by the time since its last take and takes a token only if
// one is there (the row lock orders concurrent takes of one key).
const TAKE = `
INSERT INTO rate_buckets AS bucket (key, tokens, updated_at) VALUES ($1, $3::float8 - 1, now())
ON CONFLICT (key) DO UPDATE SET
  tokens = LEAST($3::float8, bucket.tokens + EXTRACT(EPOCH FROM now() - bucket.updated_at) * $2::float8) - 1,
  updated_at = now()
WHERE LEAST($3::float8, bucket.tokens + EXTRACT(EPOCH FROM now() - bucket.updated_at) * $2::float8) >= 1
RETURNING tokens`;

const LEVEL = `
SELECT LEAST($3::float8, tokens + EXTRACT(EPOCH FROM now() - updated_at) * $2::float8) AS tokens
FROM rate_buckets WHERE key = $1`;

/** The stored key: printable ASCII as it is, anything else (a NUL, odd Unicode) by its digest. */
function storedKey(key: string): string {
  return /^[\x20-\x7e]{1,200}$/.test(key) ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Takes a token: null when taken, else the tokens the bucket holds now (less than one). */
export async function takeFromDatabase(prisma: Db, key: string, rate: number, burst: number): Promise<number | null> {
  const taken = await prisma.$queryRawUnsafe<{ tokens: number }[]>(TAKE, storedKey(key), rate, burst);
  if (taken.length > 0) return null;
  return levelInDatabase(prisma, key, rate, burst);
}

/** The tokens a bucket holds now (a full bucket when it has no row). */
export async function levelInDatabase(prisma: Db, key: string, rate: number, burst: number): Promise<number> {
  const rows = await prisma.$queryRawUnsafe<{ tokens: number }[]>(LEVEL, storedKey(key), rate, burst);
  return rows.length > 0 ? Number(rows[0]!.tokens) : burst;
}

/** Buckets untouched for a while are full again: they hold no information. */
export async function sweepDatabaseBuckets(prisma: Db, olderThanSeconds = 600): Promise<number> {
  return prisma.$executeRawUnsafe(
    `DELETE FROM rate_buckets WHERE updated_at < now() - make_interval(secs => $1::float8)`,
    olderThanSeconds,
  );
}
