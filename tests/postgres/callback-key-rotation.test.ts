import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openedDatabase, type Db } from '@/server/platform/db/client';
import { verifyBody } from '@/server/modules/events/callbacks/sign';
import { callbackKeys, rotateCallbackKey } from '@/server/modules/events/callbacks/signing-keys';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import type { WorkerProcess } from '../../scripts/support/worker-process';
import { insertEvents, startTestWorker } from './outbox-events';

// A callback signing key rotated while a worker process delivers: every callback names its key
// (signature-key-id) and verifies with it; the worker moves to the new key within its key cache
// (10 s); the replaced key stays published, so what it signed still verifies.
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL database');

let prisma: Db;
let receiver: Receiver;
let worker: WorkerProcess | undefined;
const inserted: string[] = [];

beforeAll(async () => {
  prisma = (await openedDatabase()).prisma;
});

afterEach(async () => {
  await worker?.killHard();
  await receiver?.close();
  await prisma.callbackAttempt.deleteMany({ where: { eventId: { in: inserted } } });
  await prisma.outboxEvent.deleteMany({ where: { id: { in: inserted } } });
});

afterAll(async () => {
  await closeDatabase();
});

describe('callback signing key rotation', () => {
  it('signs with the new key after a rotation, and the old key stays published for the overlap', async () => {
    receiver = await startReceiver();
    const before = (await callbackKeys(prisma)).active;
    worker = startTestWorker();
    inserted.push(...(await insertEvents(prisma, 3, () => receiver.url('/before'))));
    await receiver.waitFor((callbacks) => callbacks.length === 3, 30_000);

    const rotated = await rotateCallbackKey(prisma, 7);
    const published = (await callbackKeys(prisma)).published;
    expect(published.map((key) => key.kid)).toEqual([rotated.kid, before.kid]);
    // Events go on; within the worker's key cache it signs with the new key.
    const deadline = Date.now() + 20_000;
    while (!receiver.received.some((callback) => callback.keyId === rotated.kid) && Date.now() < deadline) {
      inserted.push(...(await insertEvents(prisma, 1, () => receiver.url('/after'))));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const pemOf = new Map(published.map((key) => [key.kid, key.publicKeyPem]));
    expect(receiver.received.some((callback) => callback.keyId === rotated.kid)).toBe(true);
    for (const callback of receiver.received) {
      expect([before.kid, rotated.kid]).toContain(callback.keyId);
      expect(verifyBody(callback.body, callback.signature, pemOf.get(callback.keyId)!)).toBe(true);
    }
    expect(receiver.received.filter((callback) => callback.path === '/before').every((each) => each.keyId === before.kid)).toBe(
      true,
    );
  });
});
