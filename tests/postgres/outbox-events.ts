import { randomUUID } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { startWorkerProcess, type WorkerProcess } from '../../scripts/support/worker-process';

// What the PostgreSQL worker tests share: outbox events written straight into the table (one
// authorized event each, to the URL given), standalone workers with short delays, and a poll.
export async function insertEvents(prisma: Db, count: number, url: (index: number) => string): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await prisma.outboxEvent.createMany({
    data: ids.map((id, index) => ({
      id,
      merchantId: randomUUID(),
      type: 'transaction.authorized',
      aggregateId: randomUUID(),
      callbackUrl: url(index),
      destination: new URL(url(index)).origin,
      payload: { success: 'true', action: 'notify', event_id: id, event_type: 'transaction.authorized', index },
    })),
  });
  return ids;
}

/** `npm run worker` on TEST_DATABASE_URL (no service runs its own: WORKER_IN_SERVICE=false is the instances' setting). */
export function startTestWorker(): WorkerProcess {
  return startWorkerProcess({
    DATABASE_URL: process.env.TEST_DATABASE_URL!,
    WORKER_POLL_MS: '50',
    CALLBACK_LEASE_SECONDS: '3',
    CALLBACK_TIMEOUT_MS: '20000',
    CALLBACK_RETRY_SECONDS: '1,1,1',
    CALLBACK_CONCURRENCY: '8',
  });
}

export async function until<T>(check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
