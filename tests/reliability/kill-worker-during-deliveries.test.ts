import { afterAll, describe, expect, it } from 'vitest';
import { chargeOnce, operatorClient, token } from '../../scripts/support/api-client';
import { startWorkerProcess, type WorkerProcess } from '../../scripts/support/worker-process';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import { CLEAN, integrity } from './integrity';
import { countBy, settledEvents } from './stored-events';
import { DATABASE_URL, deployment, FULL, HANGING_DELIVERY_WORKER, reliabilityPort } from './service-under-test';
import type { ServiceProcess } from '../../scripts/support/service-process';

// The production shape on PostgreSQL: an instance with WORKER_IN_SERVICE=false and the
// standalone worker (`npm run worker`), killed with SIGKILL while every charge's first callback
// hangs at the merchant, then started again (once, or three times in the full run): every event
// is delivered at least once, in order, its delivery stored, and none is lost.
const PORT = reliabilityPort(4);
const WORKER = { DATABASE_URL, ...HANGING_DELIVERY_WORKER };
const deploy = deployment(PORT);
let service: ServiceProcess | undefined;
let worker: WorkerProcess | undefined;
let receiver: Receiver | undefined;

afterAll(async () => {
  await worker?.stop();
  await service?.stop();
  await receiver?.close();
  await deploy.finish();
});

const startWorker = () => startWorkerProcess(WORKER, { logFile: deploy.logFile('worker') });

describe.skipIf(!DATABASE_URL)('kill -9 of the standalone worker during callback deliveries (PostgreSQL)', () => {
  it('delivers every event at least once after each restart, and stores every delivery', async () => {
    const count = FULL ? 40 : 8;
    const kills = FULL ? 3 : 1;
    const hooks = await startReceiver();
    receiver = hooks;
    service = await deploy.start({ WORKER_IN_SERVICE: 'false' });
    const bearer = await token(service.origin);
    const charged: Awaited<ReturnType<typeof chargeOnce>>[] = [];
    for (let index = 0; index < count; index += 1) {
      // The first event's first `kills` tries hang: each kill cuts a delivery of every charge.
      hooks.respond(`/w${index}`, (attempt) => (attempt <= kills ? 'hang' : 200));
      charged.push(await chargeOnce(service.origin, bearer, 'wk', { callback_url: hooks.url(`/w${index}`) }));
    }
    const tries = (index: number) => hooks.received.filter((each) => each.path === `/w${index}`).length;
    worker = startWorker();
    for (let round = 1; round <= kills; round += 1) {
      await hooks.waitFor(() => charged.every((_, index) => tries(index) >= round), 30_000);
      await worker.killHard();
      worker = startWorker();
    }
    const distinct = (index: number) =>
      new Set(hooks.received.filter((each) => each.path === `/w${index}`).map((each) => each.eventId));
    await hooks.waitFor(() => charged.every((_, index) => distinct(index).size === 3), 60_000);

    const operator = operatorClient(service.origin, deploy.serviceFile);
    const events = await settledEvents(operator, charged);
    const statuses = events.map((event) => event.status);
    const eventIds = events.map((event) => event.id);
    for (const [index] of charged.entries()) {
      const types = hooks.received.filter((each) => each.path === `/w${index}`).map((each) => each.json.event_type);
      expect([...new Set(types)]).toStrictEqual(['transaction.registered', 'transaction.pending', 'transaction.authorized']);
    }
    const arrived = new Set(hooks.received.map((each) => each.eventId));
    const stored = await deploy.inspect((prisma) =>
      prisma.callbackAttempt.groupBy({ by: ['outcome'], where: { eventId: { in: eventIds } }, _count: { _all: true } }),
    );
    const attempts = Object.fromEntries(stored.map((row) => [row.outcome ?? 'none', row._count._all]));
    await worker.stop();
    await service.stop();
    const checks = await deploy.inspect(integrity);
    const arrivals = hooks.received.length;
    console.log(
      `[fault:standalone-worker] PostgreSQL, ${kills} kill(s) of the worker: ${count * 3} events, ${arrivals} arrivals ` +
        `(${arrivals - count * 3} repeats: ${count} deliveries cut by each kill), ` +
        `${eventIds.filter((id) => !arrived.has(id)).length} never arrived, statuses ${JSON.stringify(countBy(statuses))}, ` +
        `stored attempts ${JSON.stringify(attempts)}, database checks ${JSON.stringify(checks)}`,
    );
    expect(eventIds).toHaveLength(count * 3);
    expect(eventIds.filter((id) => !arrived.has(id))).toStrictEqual([]);
    expect(statuses).toStrictEqual(Array(count * 3).fill('DELIVERED'));
    // One stored delivery per event: a cut attempt dies with its worker before it is recorded.
    expect(attempts).toStrictEqual({ delivered: count * 3 });
    expect(arrivals).toBe(count * 3 + count * kills);
    expect(checks).toStrictEqual(CLEAN);
  });
});
