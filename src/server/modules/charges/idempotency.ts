import { waitAway } from '@/server/platform/http/time-away';
import { randomUUID } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { requestHashKey } from '@/server/platform/security/service-keys';
import { AppError } from '@/server/core/domain/errors';
import { persistently } from '@/server/platform/db/transient-faults';
import { requestHash } from './request-hash';

// Idempotency-Key (docs/DESIGN.md 3): the same key and body within 24 h replay the stored answer;
// the same key with another body is 409 40. A key is claimed before the work starts, so two
// concurrent requests with one key never both run: the second waits for the first's answer.
const RETENTION_MS = 24 * 60 * 60 * 1000;
const WAIT_MS = 25_000;
/**
 * A claim this old whose answer never came was left by a process that died or lost the database
 * for good: the next request with the key takes it over. The work itself is idempotent below
 * (a charge replays its stored answer by its operation number and body).
 */
const ABANDONED_MS = 30_000;
const IN_PROGRESS = 0;

/** 1 to 255 printable ASCII characters (also the documented schema of the header). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new AppError('VALIDATION', 'Idempotency-Key must be 1 to 255 printable ASCII characters', {
      errors: [{ field: 'Idempotency-Key', code: 'invalid_string', message: 'must be 1 to 255 printable ASCII characters' }],
    });
  }
  return header;
}

export async function withIdempotency<T extends object>(
  prisma: Db,
  options: {
    scope: string;
    key: string | null;
    body: unknown;
    /** Whether an answer is the work's last word, to replay for 24 h (by default every answer is). */
    final?: (response: T) => boolean;
  },
  run: () => Promise<T>,
): Promise<T> {
  if (options.key === null) return run();
  const { scope, key } = options;
  const hash = requestHash(await requestHashKey(prisma), { scope, body: options.body });
  const deadline = Date.now() + WAIT_MS;
  // This request's claim, so that it stores or releases only its own (not one that took over).
  const mine = { scope, key, status: IN_PROGRESS, response: { equals: { claim: randomUUID() } } };
  for (;;) {
    await prisma.idempotencyRecord.deleteMany({ where: { scope, key, createdAt: { lt: new Date(Date.now() - RETENTION_MS) } } });
    const claimed = await prisma.idempotencyRecord.createMany({
      data: [{ scope, key, requestHash: hash, status: IN_PROGRESS, response: mine.response.equals }],
      skipDuplicates: true,
    });
    if (claimed.count === 1) break;
    const existing = await prisma.idempotencyRecord.findUnique({
      where: { scope_key: { scope, key } },
      select: { requestHash: true, status: true, response: true, createdAt: true },
    });
    if (!existing) continue;
    if (existing.requestHash !== hash) {
      throw new AppError('CONFLICT', 'Idempotency-Key was used with another request', {
        errors: [{ field: 'Idempotency-Key', code: 'key_reused', message: 'used with another request body' }],
      });
    }
    if (existing.status !== IN_PROGRESS) return existing.response as T;
    if (existing.createdAt.getTime() < Date.now() - ABANDONED_MS) {
      await prisma.idempotencyRecord.deleteMany({ where: { scope, key, status: IN_PROGRESS, createdAt: existing.createdAt } });
      continue;
    }
    if (Date.now() > deadline) throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still in progress');
    await waitAway(50);
  }
  const release = () => persistently(() => prisma.idempotencyRecord.deleteMany({ where: mine })).catch(() => undefined);
  let response: T;
  try {
    response = await run();
  } catch (error) {
    // A refused request is not remembered: fixing it and retrying with the key is allowed. The
    // claim is released even across a database restart, or the retry would wait for nothing.
    await release();
    throw error;
  }
  if (options.final && !options.final(response)) {
    // An answer that is not the last word (a charge still with its processor) is not replayed:
    // a retry with the key asks again.
    await release();
    return response;
  }
  // The work is done: its answer is stored even across a database restart (unless another
  // request took the claim over meanwhile: its own answer is stored then).
  await persistently(() => prisma.idempotencyRecord.updateMany({ where: mine, data: { status: 200, response } }));
  return response;
}
