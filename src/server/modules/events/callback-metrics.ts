import type { Db } from '@/server/platform/db/client';

// Callback delivery outcomes as Prometheus series, read from the database: every process that
// delivers (the standalone worker, or the service's own worker on PGlite) stores each attempt
// with its outcome and latency in callback_attempts, so any instance reports every delivery,
// whichever process made it. The worker has no metrics endpoint of its own.
export const CALLBACK_OUTCOMES = ['delivered', 'retry', 'failed'] as const;
/** Upper bounds of the latency histogram's buckets, in milliseconds (0.05 s to 10 s). */
export const CALLBACK_LATENCY_BUCKETS_MS = [50, 100, 250, 500, 1000, 2500, 5000, 10_000] as const;

export type CallbackOutcomeCount = {
  outcome: string;
  count: number;
  sumMs: number;
  /** Attempts at or under each of CALLBACK_LATENCY_BUCKETS_MS (cumulative, as Prometheus counts them). */
  buckets: number[];
};

// Attempts stored before the outcome column count as delivered (2xx) or retry.
const OUTCOME = `COALESCE(outcome, CASE WHEN status_code BETWEEN 200 AND 299 THEN 'delivered' ELSE 'retry' END)`;

export async function storedCallbackOutcomes(prisma: Db): Promise<CallbackOutcomeCount[]> {
  const buckets = CALLBACK_LATENCY_BUCKETS_MS.map((ms) => `count(*) FILTER (WHERE latency_ms <= ${ms})::int`).join(', ');
  const rows = await prisma.$queryRawUnsafe<{ outcome: string; count: number; sum_ms: number; buckets: number[] }[]>(
    `SELECT ${OUTCOME} AS outcome, count(*)::int AS count, COALESCE(sum(latency_ms), 0)::float8 AS sum_ms,
       ARRAY[${buckets}] AS buckets
     FROM callback_attempts GROUP BY 1 ORDER BY 1`,
  );
  return rows.map((row) => ({
    outcome: row.outcome,
    count: Number(row.count),
    sumMs: Number(row.sum_ms),
    buckets: row.buckets.map(Number),
  }));
}

export type CallbackBacklog = { destination: string; pending: number; inFlight: number; oldestSeconds: number };

/** Destinations reported by name; the rest add up under "other" (a label per merchant host would not scale). */
export const BACKLOG_DESTINATIONS = 20;

/** What waits for each destination (operations' callbacks and webhook endpoints alike): deliveries pending, leased, and the oldest's age. */
export async function storedCallbackBacklog(prisma: Db): Promise<CallbackBacklog[]> {
  const rows = await prisma.$queryRaw<{ destination: string; pending: number; in_flight: number; oldest_seconds: number }[]>`
    WITH pending AS (
      SELECT destination, lease_until, created_at FROM outbox_events WHERE status = 'PENDING' AND destination IS NOT NULL
      UNION ALL
      SELECT destination, lease_until, created_at FROM endpoint_deliveries WHERE status = 'PENDING'
    ), backlog AS (
      SELECT destination, count(*)::int AS pending,
        count(*) FILTER (WHERE lease_until >= now())::int AS in_flight,
        EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest_seconds
      FROM pending GROUP BY destination
    ), ranked AS (
      SELECT *, row_number() OVER (ORDER BY pending DESC, destination) AS rank FROM backlog
    )
    SELECT CASE WHEN rank <= ${BACKLOG_DESTINATIONS} THEN destination ELSE 'other' END AS destination,
      sum(pending)::int AS pending, sum(in_flight)::int AS in_flight, max(oldest_seconds)::float8 AS oldest_seconds
    FROM ranked GROUP BY 1 ORDER BY 2 DESC`;
  return rows.map((row) => ({
    destination: row.destination,
    pending: Number(row.pending),
    inFlight: Number(row.in_flight),
    oldestSeconds: Math.max(0, Number(row.oldest_seconds)),
  }));
}

const ATTEMPTS = 'pay_callback_attempts_total';
const DURATION = 'pay_callback_attempt_duration_seconds';

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** The Prometheus text of the counts: the attempts counter and the latency histogram, every outcome present. */
export function callbackMetricsText(counts: CallbackOutcomeCount[]): string {
  const byOutcome = new Map(counts.map((count) => [count.outcome, count]));
  const none = { count: 0, sumMs: 0, buckets: CALLBACK_LATENCY_BUCKETS_MS.map(() => 0) };
  const outcomes = [...new Set([...CALLBACK_OUTCOMES, ...byOutcome.keys()])];
  const attempts = [
    `# HELP ${ATTEMPTS} Callback delivery attempts by outcome: delivered, retry (will be tried again) or failed (given up), from the database`,
    `# TYPE ${ATTEMPTS} counter`,
    ...outcomes.map((outcome) => `${ATTEMPTS}{outcome="${label(outcome)}"} ${(byOutcome.get(outcome) ?? none).count}`),
  ];
  const duration = [`# HELP ${DURATION} Time the merchant's callback endpoint took to answer`, `# TYPE ${DURATION} histogram`];
  for (const outcome of outcomes) {
    const { count, sumMs, buckets } = byOutcome.get(outcome) ?? none;
    const name = `outcome="${label(outcome)}"`;
    CALLBACK_LATENCY_BUCKETS_MS.forEach((ms, index) => {
      duration.push(`${DURATION}_bucket{le="${ms / 1000}",${name}} ${buckets[index] ?? 0}`);
    });
    duration.push(`${DURATION}_bucket{le="+Inf",${name}} ${count}`, `${DURATION}_sum{${name}} ${sumMs / 1000}`);
    duration.push(`${DURATION}_count{${name}} ${count}`);
  }
  return `${attempts.join('\n')}\n\n${duration.join('\n')}\n`;
}
