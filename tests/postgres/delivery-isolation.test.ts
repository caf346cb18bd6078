import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openedDatabase, type Db } from '@/server/platform/db/client';
import { callbackSigningKey } from '@/server/modules/events/callbacks/signing-keys';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import type { WorkerProcess } from '../../scripts/support/worker-process';
import { insertEvents, startTestWorker, until } from './outbox-events';

// Issue 12, delivery isolation: hundreds of callbacks due to an endpoint that hangs, and to a
// host that does not resolve, do not delay another endpoint's first callback by more than a
// second or two. Before, the worker claimed due events in one global order with a fixed number
// in flight, so the hanging endpoint's events filled every slot until their timeouts (20 s here).
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL database');

let prisma: Db;
let hanging: Receiver;
let healthy: Receiver;
let worker: WorkerProcess | undefined;
const inserted: string[] = [];

beforeAll(async () => {
  prisma = (await openedDatabase()).prisma;
  await callbackSigningKey(prisma);
});

afterEach(async () => {
  await worker?.killHard();
  await hanging?.close();
  await healthy?.close();
  // The next suites' workers share this database: nothing of this test may be left to deliver.
  await prisma.callbackAttempt.deleteMany({ where: { eventId: { in: inserted } } });
  await prisma.outboxEvent.deleteMany({ where: { id: { in: inserted } } });
  await prisma.callbackDestination.deleteMany();
});

afterAll(async () => {
  await closeDatabase();
});

describe('callback delivery isolation', () => {
  it("keeps a healthy endpoint's first callback within two seconds behind 300 hanging and 200 unresolvable ones", async () => {
    hanging = await startReceiver();
    hanging.respond('/never', () => 'hang');
    healthy = await startReceiver();
    inserted.push(...(await insertEvents(prisma, 300, () => hanging.url('/never'))));
    // .invalid never resolves (RFC 6761 6.4); without a reachable name server it waits for the resolver's bound.
    inserted.push(...(await insertEvents(prisma, 200, (index) => `http://merchant-${index % 7}.does-not-resolve.invalid/hooks`)));
    worker = startTestWorker();
    // Under way: the worker's eight slots busy with the hanging endpoint and the unresolvable hosts.
    await hanging.waitFor((callbacks) => callbacks.length >= 1, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const startedAt = Date.now();
    const [id] = await insertEvents(prisma, 1, () => healthy.url('/hooks'));
    inserted.push(id!);
    const [callback] = await healthy.waitFor((callbacks) => callbacks.length === 1, 10_000);
    const delay = callback!.at - startedAt;
    console.log(`[isolation] healthy endpoint's first callback after ${delay} ms`);
    expect(callback!.eventId).toBe(id);
    expect(delay).toBeLessThan(2_000);
    // The hanging endpoint held its own slots only: four at most (each hangs for the 20 s timeout).
    expect(hanging.received.length).toBeLessThanOrEqual(4);
    const attempts = await prisma.callbackAttempt.count({ where: { error: { contains: 'did not resolve' } } });
    console.log(`[isolation] ${hanging.received.length} deliveries hanging, ${attempts} attempts to unresolvable hosts`);
    expect(attempts).toBeGreaterThan(0);
    const row = await until(async () => {
      const event = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: id! }, select: { status: true } });
      return event.status === 'DELIVERED' ? event : null;
    }, 10_000);
    expect(row.status).toBe('DELIVERED');
  });
});
