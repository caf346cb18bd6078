import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '@/server/db/client';

// Prometheus metrics of one process (each instance is scraped on its own): HTTP requests and
// their latency, callback delivery outcomes, and the database-wide count of transactions and
// refunds per state (read at scrape time, at most every STATE_COUNT_TTL_MS, so that frequent
// scrapes of several instances do not each count a large table).
type Metrics = {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  latency: Histogram<'route' | 'method'>;
  callbacks: Counter<'outcome'>;
  callbackLatency: Histogram<'outcome'>;
  transactions: Gauge<'state'>;
  refunds: Gauge<'state'>;
};

const STATE_COUNT_TTL_MS = 15_000;

function create(): Metrics {
  const registry = new Registry();
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
    callbacks: new Counter({
      name: 'pay_callback_attempts_total',
      help: 'Callback delivery attempts by outcome: delivered, retry (will be tried again) or failed (given up)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    callbackLatency: new Histogram({
      name: 'pay_callback_attempt_duration_seconds',
      help: "Time the merchant's callback endpoint took to answer",
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
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
  };
}

// One registry per process, shared by every bundle of the Next server (like the database handle).
const slot = globalThis as typeof globalThis & { __payMetrics?: Metrics; __payStateCountAt?: number };

export function metrics(): Metrics {
  slot.__payMetrics ??= create();
  return slot.__payMetrics;
}

async function refreshStateCounts(prisma: Db): Promise<void> {
  const now = Date.now();
  if (slot.__payStateCountAt !== undefined && now - slot.__payStateCountAt < STATE_COUNT_TTL_MS) return;
  slot.__payStateCountAt = now;
  const [transactions, refunds] = await Promise.all([
    prisma.transaction.groupBy({ by: ['state'], _count: { _all: true } }),
    prisma.refund.groupBy({ by: ['state'], _count: { _all: true } }),
  ]);
  const { transactions: transactionGauge, refunds: refundGauge } = metrics();
  transactionGauge.reset();
  for (const row of transactions) transactionGauge.set({ state: row.state }, row._count._all);
  refundGauge.reset();
  for (const row of refunds) refundGauge.set({ state: row.state }, row._count._all);
}

/** The Prometheus text exposition of this process. */
export async function metricsText(prisma: Db): Promise<{ contentType: string; body: string }> {
  await refreshStateCounts(prisma);
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
