import { afterAll, describe, expect, it } from 'vitest';
import { chargeOnce, operatorClient, token } from '../../scripts/support/api-client';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import { CLEAN, integrity } from './integrity';
import { countBy, settledEvents } from './stored-events';
import { DATABASE, deployment, FULL, HANGING_DELIVERY_WORKER, killHard, reliabilityPort } from './service-under-test';

// kill -9 of the service while its worker is delivering callbacks (each first delivery hangs
// at the merchant), then a restart: every event is delivered at least once, in order, when the
// dead worker's leases end, and the outbox says DELIVERED for each.
const PORT = reliabilityPort(2);
const deploy = deployment(PORT);
let receiver: Receiver;

afterAll(async () => {
  await receiver?.close();
  await deploy.finish();
});

describe(`kill -9 of the service's worker during callback deliveries (${DATABASE})`, () => {
  it('delivers every event at least once after the restart', async () => {
    const count = FULL ? 40 : 8;
    receiver = await startReceiver();
    let service = await deploy.start(HANGING_DELIVERY_WORKER);
    const bearer = await token(service.origin);
    const charged: Awaited<ReturnType<typeof chargeOnce>>[] = [];
    for (let index = 0; index < count; index += 1) {
      receiver.respond(`/c${index}`, (attempt) => (attempt === 1 ? 'hang' : 200));
      charged.push(await chargeOnce(service.origin, bearer, 'cb', { callback_url: receiver.url(`/c${index}`) }));
    }
    // Every charge's first event is on its way, and hanging: the kill comes mid-delivery.
    await receiver.waitFor((callbacks) => new Set(callbacks.map((callback) => callback.path)).size === count, 20_000);
    await killHard(service);
    service = await deploy.start(HANGING_DELIVERY_WORKER);
    const distinct = (path: string) =>
      new Set(receiver.received.filter((each) => each.path === path).map((each) => each.eventId));
    await receiver.waitFor(() => charged.every((_, index) => distinct(`/c${index}`).size === 3), 60_000);
    const operator = operatorClient(service.origin, deploy.serviceFile);
    const statuses = (await settledEvents(operator, charged)).map((event) => event.status);
    for (const [index] of charged.entries()) {
      const types = receiver.received.filter((each) => each.path === `/c${index}`).map((each) => each.json.event_type);
      expect([...new Set(types)]).toStrictEqual(['transaction.registered', 'transaction.pending', 'transaction.authorized']);
    }
    await service.stop();
    const checks = await deploy.inspect(integrity);
    const arrivals = receiver.received.length;
    console.log(
      `[fault:worker] ${DATABASE}: ${count * 3} events, ${arrivals} arrivals (${arrivals - count * 3} repeats: ` +
        `the ${count} deliveries cut by the kill), statuses ${JSON.stringify(countBy(statuses))}, database checks ${JSON.stringify(checks)}`,
    );
    expect(statuses).toStrictEqual(Array(count * 3).fill('DELIVERED'));
    expect(checks).toStrictEqual(CLEAN);
  });
});
