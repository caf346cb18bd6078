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
  admissionRefusals: Counter<'class' | 'signal'>;
  pressure: Gauge<'queue'>;
  databaseConnectionsInUse: Gauge;
  connectorCalls: Gauge<'connector'>;
  connectorCallLimit: Gauge<'connector'>;
  connectorCallsRefused: Counter<'connector'>;
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
    admissionRefusals: new Counter({
      name: 'pay_admission_refusals_total',
      help: "Requests admission control answered 503 code 02, by class and by the service's queue that was past its limit (event_loop, database, memory)",
      labelNames: ['class', 'signal'],
      registers: [registry],
    }),
    pressure: new Gauge({
      name: 'pay_service_queue_delay_seconds',
      help: "The service's own queues as admission control reads them: the event loop's and the database's standing delay (the least delay over the last 100 ms)",
      labelNames: ['queue'],
      registers: [registry],
    }),
    databaseConnectionsInUse: new Gauge({
      name: 'pay_db_connections_in_use',
      help: "Connections of this process's PostgreSQL pool handed out now (absent on the embedded database)",
      registers: [registry],
    }),
    connectorCalls: new Gauge({
      name: 'pay_connector_calls_in_flight',
      help: "Calls this process has in flight to each connector's processor (its bulkhead)",
      labelNames: ['connector'],
      registers: [registry],
    }),
    connectorCallLimit: new Gauge({
      name: 'pay_connector_call_limit',
      help: "The calls in flight each connector's bulkhead allows in this process",
      labelNames: ['connector'],
      registers: [registry],
    }),
    connectorCallsRefused: new Counter({
      name: 'pay_connector_calls_refused_total',
      help: 'Calls to a processor never sent because its bulkhead was full (the payment went to the next processor, or was answered unavailable)',
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
