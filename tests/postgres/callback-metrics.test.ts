import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openedDatabase, type Db } from '@/server/platform/db/client';
import { callbackSigningKey } from '@/server/modules/events/callbacks/signing-keys';
import { storedCallbackOutcomes, type CallbackOutcomeCount } from '@/server/modules/events/callback-metrics';
import { metricsText } from '@/server/http/metrics';
import { startReceiver, type Receiver } from '../../e2e/support/receiver';
import type { WorkerProcess } from '../../scripts/support/worker-process';
import { insertEvents, startTestWorker, until } from './outbox-events';

// The production shape of the metrics: the standalone worker delivers (the instances run with
// WORKER_IN_SERVICE=false and no worker of their own), and /api/metrics of an instance, which
// is this test process here, counts its deliveries from the database.
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL database');

let prisma: Db;
let receiver: Receiver;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  prisma = (await openedDatabase()).prisma;
  await callbackSigningKey(prisma);
});

afterAll(async () => {
  await worker?.killHard();
  await receiver?.close();
  await closeDatabase();
});

function series(text: string, name: string): number {
  const line = text.split('\n').find((each) => each.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in the metrics`);
  return Number(line.slice(name.length + 1));
}

const countOf = (counts: CallbackOutcomeCount[], outcome: string) => counts.find((each) => each.outcome === outcome)?.count ?? 0;

describe("callback outcomes in an instance's metrics", () => {
  it("count the standalone worker's deliveries, retries and failures", async () => {
    receiver = await startReceiver();
    receiver.respond('/ok', () => 200);
    receiver.respond('/flaky', (attempt) => (attempt === 1 ? 503 : 200));
    receiver.respond('/dead', () => 500);
    const before = await storedCallbackOutcomes(prisma);
    const ok = await insertEvents(prisma, 4, () => receiver.url('/ok'));
    const flaky = await insertEvents(prisma, 1, () => receiver.url('/flaky'));
    const dead = await insertEvents(prisma, 1, () => receiver.url('/dead'));
    worker = startTestWorker();
    // CALLBACK_RETRY_SECONDS=1,1,1: the dead endpoint's event is given up after its fourth attempt.
    const ids = [...ok, ...flaky, ...dead];
    await until(async () => {
      const rows = await prisma.outboxEvent.findMany({ where: { id: { in: ids } }, select: { status: true } });
      return rows.every((row) => row.status !== 'PENDING') ? rows : null;
    }, 30_000);
    await worker.stop();

    const text = (await metricsText(prisma)).body;
    const delivered = series(text, 'pay_callback_attempts_total{outcome="delivered"}');
    const retry = series(text, 'pay_callback_attempts_total{outcome="retry"}');
    const failed = series(text, 'pay_callback_attempts_total{outcome="failed"}');
    console.log(
      `[callback-metrics] worker in its own process: ${delivered - countOf(before, 'delivered')} delivered, ` +
        `${retry - countOf(before, 'retry')} retry, ${failed - countOf(before, 'failed')} failed in the metrics`,
    );
    expect(delivered - countOf(before, 'delivered')).toBe(5);
    expect(retry - countOf(before, 'retry')).toBe(4);
    expect(failed - countOf(before, 'failed')).toBe(1);
    expect(series(text, 'pay_callback_attempt_duration_seconds_count{outcome="delivered"}')).toBe(delivered);
    expect(series(text, 'pay_callback_attempt_duration_seconds_bucket{le="+Inf",outcome="failed"}')).toBe(failed);
    expect(series(text, 'pay_callback_attempt_duration_seconds_sum{outcome="delivered"}')).toBeGreaterThan(0);
  });
});
