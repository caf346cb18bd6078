import type { Db } from '@/server/platform/db/client';
import { metrics } from '@/server/platform/observability/metrics';
import { breakers } from '@/server/modules/processors/breakers';
import { bulkheads } from '@/server/modules/processors/bulkheads';
import { databaseQueue } from '@/server/platform/db/database-queue';
import { pressureReading } from '@/server/platform/http/service-pressure';
import { storedConnectorAttempts } from '@/server/modules/processors/health/connector-stats';
import { callbackMetricsText, storedCallbackBacklog, storedCallbackOutcomes } from '@/server/modules/events/callback-metrics';

// GET /api/metrics's body: this process's registry, with the database-wide series set at scrape
// time. Those are read at most every DATABASE_READ_TTL_MS, so that frequent scrapes of several
// instances do not each count large tables.
const DATABASE_READ_TTL_MS = 15_000;
const BREAKER_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

// One read per process, shared by every bundle of the Next server (like the registry).
const slot = globalThis as typeof globalThis & { __payDatabaseRead?: { at: number; read: Promise<string> } };

/** Sets the state gauges and returns the callback series' text (one read shared by concurrent scrapes). */
async function readDatabaseSeries(prisma: Db): Promise<string> {
  const [transactions, inFlight, refunds, callbacks, attempts, backlog] = await Promise.all([
    prisma.transaction.groupBy({ by: ['state'], _count: { _all: true } }),
    prisma.chargeClaim.count(),
    prisma.refund.groupBy({ by: ['state'], _count: { _all: true } }),
    storedCallbackOutcomes(prisma),
    storedConnectorAttempts(prisma),
    storedCallbackBacklog(prisma),
  ]);
  const { transactions: transactionGauge, refunds: refundGauge, connectorAttempts } = metrics();
  const { callbackBacklog, callbackInFlight, callbackOldest } = metrics();
  for (const gauge of [callbackBacklog, callbackInFlight, callbackOldest]) gauge.reset();
  for (const row of backlog) {
    callbackBacklog.set({ destination: row.destination }, row.pending);
    callbackInFlight.set({ destination: row.destination }, row.inFlight);
    callbackOldest.set({ destination: row.destination }, row.oldestSeconds);
  }
  connectorAttempts.reset();
  for (const row of attempts)
    connectorAttempts.set({ connector: row.connector, method: row.method, outcome: row.outcome }, row.count);
  transactionGauge.reset();
  // Attempts in flight (charge_claims) are REGISTRADO until their outcome writes them.
  const registered = (transactions.find((row) => row.state === 'REGISTRADO')?._count._all ?? 0) + inFlight;
  for (const row of transactions) transactionGauge.set({ state: row.state }, row._count._all);
  if (registered > 0) transactionGauge.set({ state: 'REGISTRADO' }, registered);
  refundGauge.reset();
  for (const row of refunds) refundGauge.set({ state: row.state }, row._count._all);
  return callbackMetricsText(callbacks);
}

function databaseSeries(prisma: Db): Promise<string> {
  const now = Date.now();
  const last = slot.__payDatabaseRead;
  if (last && now - last.at < DATABASE_READ_TTL_MS) return last.read;
  const read = readDatabaseSeries(prisma);
  slot.__payDatabaseRead = { at: now, read };
  // A failed read is not kept: the next scrape tries again.
  read.catch(() => {
    if (slot.__payDatabaseRead?.read === read) slot.__payDatabaseRead = undefined;
  });
  return read;
}

/** The Prometheus text exposition: this process's registry, then the database's callback series. */
export async function metricsText(prisma: Db): Promise<{ contentType: string; body: string }> {
  const callbacks = await databaseSeries(prisma);
  const { registry, breakers: breakerGauge, connectorCalls, connectorCallLimit, pressure, databaseConnectionsInUse } = metrics();
  breakerGauge.reset();
  for (const breaker of breakers().snapshot()) breakerGauge.set({ connector: breaker.connector }, BREAKER_VALUE[breaker.state]);
  for (const bulkhead of bulkheads().snapshot()) {
    connectorCalls.set({ connector: bulkhead.connector }, bulkhead.inFlight);
    connectorCallLimit.set({ connector: bulkhead.connector }, bulkhead.limit);
  }
  const reading = pressureReading();
  pressure.set({ queue: 'event_loop' }, reading.eventLoopDelayMs / 1000);
  pressure.set({ queue: 'database' }, reading.databaseWaitMs / 1000);
  const inUse = databaseQueue().connectionsInUse();
  if (inUse !== null) databaseConnectionsInUse.set(inUse);
  return { contentType: registry.contentType, body: `${await registry.metrics()}\n${callbacks}` };
}
