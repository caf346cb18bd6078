import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openedDatabase, type Db } from '@/server/platform/db/client';
import { verifyBody } from '@/server/modules/events/callbacks/sign';
import { callbackSigningKey } from '@/server/modules/events/callbacks/signing-keys';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import type { WorkerProcess } from '../../scripts/support/worker-process';
import { insertEvents, startTestWorker, until } from './outbox-events';

// Worker processes (`npm run worker`) over one PostgreSQL outbox: every event delivered, none
// twice at once; a worker killed during a delivery leaves the event to another (at least once).
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL database');

let prisma: Db;
let receiver: Receiver;
const workers: WorkerProcess[] = [];

function startWorkerProcess(): WorkerProcess {
  const worker = startTestWorker();
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  prisma = (await openedDatabase()).prisma;
  await callbackSigningKey(prisma);
});

afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.killHard();
  await receiver?.close();
});

afterAll(async () => {
  await closeDatabase();
});

describe('workers over one PostgreSQL outbox', () => {
  it('deliver every event exactly once between two workers, never one event twice at once', async () => {
    receiver = await startReceiver();
    receiver.respond('/hooks', () => 200);
    const ids = await insertEvents(prisma, 80, () => receiver.url('/hooks'));
    startWorkerProcess();
    startWorkerProcess();
    await receiver.waitFor((callbacks) => new Set(callbacks.map((callback) => callback.eventId)).size === ids.length, 60_000);
    const { publicKeyPem } = await callbackSigningKey(prisma);
    expect(receiver.received.every((callback) => verifyBody(callback.body, callback.signature, publicKeyPem))).toBe(true);
    const delivered = await until(async () => {
      const rows = await prisma.outboxEvent.findMany({ where: { id: { in: ids } }, select: { status: true, attempts: true } });
      return rows.every((row) => row.status === 'DELIVERED') ? rows : null;
    }, 20_000);
    expect(delivered).toHaveLength(80);
    expect(delivered.every((row) => row.attempts === 1)).toBe(true);
    // Each id exactly once: no event was delivered twice, at once or otherwise.
    expect(receiver.received.map((callback) => callback.eventId).sort()).toEqual([...ids].sort());
    expect(await prisma.callbackAttempt.count({ where: { eventId: { in: ids } } })).toBe(80);
  });

  it('redeliver the event of a worker killed during its delivery, after the lease', async () => {
    receiver = await startReceiver();
    receiver.respond('/slow', (attempt) => (attempt === 1 ? 'hang' : 200));
    const [id] = await insertEvents(prisma, 1, () => receiver.url('/slow'));
    const first = startWorkerProcess();
    await receiver.waitFor((callbacks) => callbacks.length === 1, 30_000);
    await first.killHard();
    const killedAt = Date.now();
    startWorkerProcess();
    await receiver.waitFor((callbacks) => callbacks.length === 2, 30_000);
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1_000);
    expect(receiver.received.map((callback) => callback.eventId)).toEqual([id, id]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const row = await until(async () => {
      const event = await prisma.outboxEvent.findUniqueOrThrow({ where: { id }, select: { status: true, attempts: true } });
      return event.status === 'DELIVERED' ? event : null;
    }, 20_000);
    expect(row).toEqual({ status: 'DELIVERED', attempts: 1 });
  });
});
