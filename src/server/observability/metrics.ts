import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '@/server/db/client';
import { statementsSent } from '@/server/db/statement-count';
import { breakers } from '@/server/services/charges/breakers';
import { storedConnectorAttempts } from '@/server/services/health/connector-stats';
import { callbackMetricsText, storedCallbackBacklog, storedCallbackOutcomes } from './callback-metrics';

const BREAKER_VALUE = { closed: 0, half_open: 1, open: 2 } as const;

// Prometheus metrics: HTTP requests and their latency are this process's own (each instance is
// scraped on its own); the count of transactions and refunds per state and the callback
// delivery outcomes are database-wide, the same on every instance, so they include what the
// standalone worker delivered. Those are read at scrape time, at most every
// DATABASE_READ_TTL_MS, so that frequent scrapes of several instances do not each count large
// tables.
type Metrics = {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  latency: Histogram<'route' | 'method'>;
  transactions: Gauge<'state'>;
  refunds: Gauge<'state'>;
  connectorAttempts: Gauge<'connector' | 'method' | 'outcome'>;
  breakers: Gauge<'connector'>;
  callbackBacklog: Gauge<'destination'>;
  callbackInFlight: Gauge<'destination'>;
  callbackOldest: Gauge<'destination'>;
  statements: Counter;
};

const DATABASE_READ_TTL_MS = 15_000;

function create(): Metrics {
  const registry = new Registry();
  let reported = 0;
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'pay_http_requests_total',
      help: 'API requests answered, by route, method and status code',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'pay_http_request_duration_seconds',
      help: 'Time to answer an API request',
      labelNames: ['route', 'method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    transactions: new Gauge({
      name: 'pay_transactions',
      help: 'Transactions in the database by current state',
      labelNames: ['state'],
      registers: [registry],
    }),
    refunds: new Gauge({
      name: 'pay_refunds',
      help: 'Refunds in the database by current state',
      labelNames: ['state'],
      registers: [registry],
    }),
    connectorAttempts: new Gauge({
      name: 'pay_connector_attempts',
      help: 'Payment attempts in the database by connector, method and outcome (approved, declined, technical, other: pending, cancelled or expired)',
      labelNames: ['connector', 'method', 'outcome'],
      registers: [registry],
    }),
    callbackBacklog: new Gauge({
      name: 'pay_callback_backlog_events',
      help: 'Callback events not yet delivered (due now or waiting for a retry) by destination (the callback URL origin; the 20 largest, the rest as "other"), from the database',
      labelNames: ['destination'],
      registers: [registry],
    }),
    callbackInFlight: new Gauge({
      name: 'pay_callback_in_flight',
      help: 'Callback deliveries under way (leased) by destination, across every worker',
      labelNames: ['destination'],
      registers: [registry],
    }),
    callbackOldest: new Gauge({
      name: 'pay_callback_backlog_oldest_seconds',
      help: 'Age of the oldest callback event not yet delivered, by destination',
      labelNames: ['destination'],
      registers: [registry],
    }),
    breakers: new Gauge({
      name: 'pay_connector_breaker_state',
      help: "This process's circuit breaker per connector: 0 closed, 1 half-open, 2 open",
      labelNames: ['connector'],
      registers: [registry],
    }),
    statements: new Counter({
      name: 'pay_db_statements_total',
      help: 'Statements this process sent to the database (a COMMIT or ROLLBACK counts as one)',
      registers: [registry],
      // Counted in the driver adapter (db/statement-count.ts); brought up to date at each scrape.
      collect() {
        const sent = statementsSent();
        this.inc(sent - reported);
        reported = sent;
      },
    }),
  };
}

// One registry per process, shared by every bundle of the Next server (like the database handle).
const slot = globalThis as typeof globalThis & {
  __payMetrics?: Metrics;
  __payDatabaseRead?: { at: number; read: Promise<string> };
};

export function metrics(): Metrics {
  slot.__payMetrics ??= create();
  return slot.__payMetrics;
}

/** Sets the state gauges and returns the callback series' text (one read shared by concurrent scrapes). */
async function readDatabaseSeries(prisma: Db): Promise<string> {
  const [transactions, refunds, callbacks, attempts, backlog] = await Promise.all([
    prisma.transaction.groupBy({ by: ['state'], _count: { _all: true } }),
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
  for (const row of transactions) transactionGauge.set({ state: row.state }, row._count._all);
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
  const { registry, breakers: breakerGauge } = metrics();
  breakerGauge.reset();
  for (const breaker of breakers().snapshot()) breakerGauge.set({ connector: breaker.connector }, BREAKER_VALUE[breaker.state]);
  return { contentType: registry.contentType, body: `${await registry.metrics()}\n${callbacks}` };
}
