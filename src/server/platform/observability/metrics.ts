import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { statementsSent } from '@/server/platform/db/statement-count';

// Prometheus metrics: HTTP requests and their latency are this process's own (each instance is
// scraped on its own); the count of transactions and refunds per state and the callback
// delivery outcomes are database-wide, the same on every instance, so they include what the
// standalone worker delivered. Those are set at scrape time (src/server/http/metrics.ts).
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
};

export function metrics(): Metrics {
  slot.__payMetrics ??= create();
  return slot.__payMetrics;
}
