import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openedDatabase, type Db } from '@/server/db/client';
import { verifyBody } from '@/server/callbacks/sign';
import { callbackSigningKey } from '@/server/auth/service-keys';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';

// Worker processes (`npm run worker`) over one PostgreSQL outbox: every event delivered, none
// twice at once; a worker killed during a delivery leaves the event to another (at least once).
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL database');

let prisma: Db;
let receiver: Receiver;
const workers: ChildProcess[] = [];

function startWorkerProcess(): ChildProcess {
  const child = spawn('npx', ['tsx', 'scripts/worker.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      WORKER_POLL_MS: '50',
      CALLBACK_LEASE_SECONDS: '3',
      CALLBACK_TIMEOUT_MS: '20000',
      CALLBACK_RETRY_SECONDS: '1,1,1',
      CALLBACK_CONCURRENCY: '8',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  workers.push(child);
  return child;
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function insertEvents(count: number, url: (index: number) => string): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await prisma.outboxEvent.createMany({
    data: ids.map((id, index) => ({
      id,
      merchantId: randomUUID(),
      type: 'transaction.authorized',
      aggregateId: randomUUID(),
      callbackUrl: url(index),
      payload: { success: 'true', action: 'notify', event_id: id, event_type: 'transaction.authorized', index },
    })),
  });
  return ids;
}

async function until<T>(check: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  prisma = (await openedDatabase()).prisma;
  await callbackSigningKey(prisma);
});

afterEach(async () => {
  for (const child of workers.splice(0)) kill(child, 'SIGKILL');
  await receiver?.close();
});

afterAll(async () => {
  await closeDatabase();
});

describe('workers over one PostgreSQL outbox', () => {
  it('deliver every event exactly once between two workers, never one event twice at once', async () => {
    receiver = await startReceiver();
    receiver.respond('/hooks', () => 200);
    const ids = await insertEvents(80, () => receiver.url('/hooks'));
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
    const [id] = await insertEvents(1, () => receiver.url('/slow'));
    const first = startWorkerProcess();
    await receiver.waitFor((callbacks) => callbacks.length === 1, 30_000);
    kill(first, 'SIGKILL');
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
