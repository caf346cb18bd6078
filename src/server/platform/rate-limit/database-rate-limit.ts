import { createHash } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';

// Token buckets in PostgreSQL, so that every instance counts against one limit: a take is one
// statement that refills the bucket by the time since its last take and takes up to `want`
// tokens, at least one, only if one is there (the row lock orders concurrent takes of one key);
// last_take records how many it took.
const AVAILABLE = 'LEAST($3::float8, bucket.tokens + EXTRACT(EPOCH FROM now() - bucket.updated_at) * $2::float8)';
const TAKE = `
INSERT INTO rate_buckets AS bucket (key, tokens, last_take, updated_at)
VALUES ($1, $3::float8 - LEAST($4::int, floor($3::float8)::int), LEAST($4::int, floor($3::float8)::int), now())
ON CONFLICT (key) DO UPDATE SET
  tokens = ${AVAILABLE} - LEAST($4::int, floor(${AVAILABLE})::int),
  last_take = LEAST($4::int, floor(${AVAILABLE})::int),
  updated_at = now()
WHERE ${AVAILABLE} >= 1
RETURNING last_take`;

const LEVEL = `
SELECT LEAST($3::float8, tokens + EXTRACT(EPOCH FROM now() - updated_at) * $2::float8) AS tokens
FROM rate_buckets WHERE key = $1`;

/** The stored key: printable ASCII as it is, anything else (a NUL, odd Unicode) by its digest. */
function storedKey(key: string): string {
  return /^[\x20-\x7e]{1,200}$/.test(key) ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * Takes up to `want` tokens (at least one): how many it took, or, when the bucket holds less
 * than one, `{ taken: 0, left }` with the tokens it holds.
 */
export async function takeFromDatabase(
  prisma: Db,
  key: string,
  rate: number,
  burst: number,
  want = 1,
): Promise<{ taken: number; left: number }> {
  const rows = await prisma.$queryRawUnsafe<{ last_take: number }[]>(TAKE, storedKey(key), rate, burst, want);
  if (rows.length > 0) return { taken: Number(rows[0]!.last_take), left: 0 };
  return { taken: 0, left: await levelInDatabase(prisma, key, rate, burst) };
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
