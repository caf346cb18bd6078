import { type Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { requestHashKey } from '@/server/auth/service-keys';
import { AppError } from '@/server/domain/errors';
import { requestHash } from './request-hash';

// Idempotency-Key (docs/DESIGN.md 3): the same key and body within 24 h replay the stored answer;
// the same key with another body is 409 40. A key is claimed before the work starts, so two
// concurrent requests with one key never both run: the second waits for the first's answer.
const RETENTION_MS = 24 * 60 * 60 * 1000;
const WAIT_MS = 25_000;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function withIdempotency<T extends object>(
  prisma: Db,
  options: { scope: string; key: string | null; body: unknown },
  run: () => Promise<T>,
): Promise<T> {
  if (options.key === null) return run();
  const { scope, key } = options;
  const hash = requestHash(await requestHashKey(prisma), { scope, body: options.body });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    await prisma.idempotencyRecord.deleteMany({ where: { scope, key, createdAt: { lt: new Date(Date.now() - RETENTION_MS) } } });
    const claimed = await prisma.idempotencyRecord.createMany({
      data: [{ scope, key, requestHash: hash, status: IN_PROGRESS, response: {} }],
      skipDuplicates: true,
    });
    if (claimed.count === 1) break;
    const existing = await prisma.idempotencyRecord.findUnique({
      where: { scope_key: { scope, key } },
      select: { requestHash: true, status: true, response: true },
    });
    if (!existing) continue;
    if (existing.requestHash !== hash) {
      throw new AppError('CONFLICT', 'Idempotency-Key was used with another request', {
        errors: [{ field: 'Idempotency-Key', code: 'key_reused', message: 'used with another request body' }],
      });
    }
    if (existing.status !== IN_PROGRESS) return existing.response as T;
    if (Date.now() > deadline) throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still in progress');
    await sleep(50);
  }
  try {
    const response = await run();
    await prisma.idempotencyRecord.update({
      where: { scope_key: { scope, key } },
      data: { status: 200, response: response as Prisma.InputJsonObject },
    });
    return response;
  } catch (error) {
    // A refused request is not remembered: fixing it and retrying with the key is allowed.
    await prisma.idempotencyRecord.delete({ where: { scope_key: { scope, key } } }).catch(() => undefined);
    throw error;
  }
}
