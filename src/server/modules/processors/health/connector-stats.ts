import { env } from '@/env';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';

// Health statistics per connector, method and brand (docs/ORCHESTRATION.md 4), from the attempts
// themselves: every attempt (a transaction, or a claim while in flight) names its connector. Retries are attempts of
// one payment, not more payments: the payment approval rate counts operations, not rows, and the
// first-attempt rate counts only attempts that opened their operation.

export const STAT_WINDOWS = { hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const;
export type StatWindow = keyof typeof STAT_WINDOWS;

/** A processor approved the attempt (what happened to it afterwards does not change that). */
const APPROVED = `t.state IN ('AUTORIZADO', 'LIQUIDADO', 'EXTORNADO')`;
/** A processor decided the attempt: approved or declined. Pending ones (a bank transfer, a code to pay) are not yet. */
const DECIDED = `(${APPROVED} OR t.state = 'DENEGADO')`;
const PENDING = `t.state IN ('REGISTRADO', 'PENDIENTE')`;

/**
 * Every attempt: the transactions, and the attempts in flight (charge_claims), which count as
 * pending attempts of their connector, as their REGISTRADO rows would.
 */
const ATTEMPTS = `(
  SELECT operation_id, attempt, merchant_id, connector_id, method, card_brand, state, decline_class, latency_ms, created_at
  FROM transactions
  UNION ALL
  SELECT c.operation_id, c.attempt, c.merchant_id, c.connector_id, (c.attempt_row->>'method')::"PaymentMethod",
         c.attempt_row->>'card_brand', 'REGISTRADO'::"TransactionState", NULL, NULL, c.claimed_at
  FROM charge_claims c
) t`;

export type ConnectorStat = {
  connector: string;
  method: string;
  brand: string | null;
  attempts: number;
  /** Attempts that opened their operation, those of them decided (approved or declined) and approved. */
  firstAttempts: number;
  firstDecided: number;
  firstApproved: number;
  /** Operations this connector carried an attempt of, those it decided, approved, and those still pending. */
  payments: number;
  decidedPayments: number;
  approvedPayments: number;
  pendingPayments: number;
  technicalFailures: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  declineCodes: { code: string; count: number }[];
};

type Scope = { since: Date; merchantIds: string[] | null };

function scoped({ since, merchantIds }: Scope): Prisma.Sql {
  const merchants = merchantIds === null ? Prisma.empty : Prisma.sql`AND t.merchant_id = ANY(${merchantIds}::uuid[])`;
  return Prisma.sql`t.connector_id IS NOT NULL AND t.created_at >= ${since} ${merchants}`;
}

export async function connectorStats(prisma: Db, scope: Scope): Promise<ConnectorStat[]> {
  const where = scoped(scope);
  const [rows, codes] = await Promise.all([
    prisma.$queryRaw<
      {
        connector: string;
        method: string;
        brand: string | null;
        attempts: number;
        first_attempts: number;
        first_decided: number;
        first_approved: number;
        payments: number;
        decided_payments: number;
        approved_payments: number;
        pending_payments: number;
        technical: number;
        p50: number | null;
        p95: number | null;
      }[]
    >`
      SELECT t.connector_id AS connector, t.method::text AS method, t.card_brand AS brand,
        count(*)::int AS attempts,
        count(*) FILTER (WHERE t.attempt = 1)::int AS first_attempts,
        count(*) FILTER (WHERE t.attempt = 1 AND ${Prisma.raw(DECIDED)})::int AS first_decided,
        count(*) FILTER (WHERE t.attempt = 1 AND ${Prisma.raw(APPROVED)})::int AS first_approved,
        count(DISTINCT t.operation_id)::int AS payments,
        count(DISTINCT t.operation_id) FILTER (WHERE ${Prisma.raw(DECIDED)})::int AS decided_payments,
        count(DISTINCT t.operation_id) FILTER (WHERE ${Prisma.raw(APPROVED)})::int AS approved_payments,
        count(DISTINCT t.operation_id) FILTER (WHERE ${Prisma.raw(PENDING)})::int AS pending_payments,
        count(*) FILTER (WHERE t.decline_class = 'technical')::int AS technical,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY t.latency_ms) AS p50,
        percentile_cont(0.95) WITHIN GROUP (ORDER BY t.latency_ms) AS p95
      FROM ${Prisma.raw(ATTEMPTS)} WHERE ${where}
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    prisma.$queryRaw<{ connector: string; method: string; brand: string | null; code: string; count: number }[]>`
      SELECT t.connector_id AS connector, t.method::text AS method, t.card_brand AS brand,
        t.processor_response -> 'result_message' ->> 'code' AS code, count(*)::int AS count
      FROM transactions t WHERE ${where} AND t.state = 'DENEGADO' AND t.processor_response IS NOT NULL
      GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC`,
  ]);
  const key = (row: { connector: string; method: string; brand: string | null }) => `${row.connector}|${row.method}|${row.brand}`;
  const codesOf = new Map<string, { code: string; count: number }[]>();
  for (const row of codes) {
    if (row.code === null) continue;
    const list = codesOf.get(key(row)) ?? [];
    list.push({ code: row.code, count: Number(row.count) });
    codesOf.set(key(row), list);
  }
  return rows.map((row) => ({
    connector: row.connector,
    method: row.method,
    brand: row.brand,
    attempts: Number(row.attempts),
    firstAttempts: Number(row.first_attempts),
    firstDecided: Number(row.first_decided),
    firstApproved: Number(row.first_approved),
    payments: Number(row.payments),
    decidedPayments: Number(row.decided_payments),
    approvedPayments: Number(row.approved_payments),
    pendingPayments: Number(row.pending_payments),
    technicalFailures: Number(row.technical),
    latencyP50Ms: row.p50 === null ? null : Math.round(Number(row.p50)),
    latencyP95Ms: row.p95 === null ? null : Math.round(Number(row.p95)),
    declineCodes: codesOf.get(key(row)) ?? [],
  }));
}

export type ApprovalPoint = { connector: string; at: Date; decided: number; approved: number };

/**
 * Approval rate (approved of decided attempts) per connector over time: hourly buckets for a day,
 * daily ones for a week, both of the business time zone's clock (a day starts at its midnight).
 */
export async function approvalSeries(prisma: Db, scope: Scope & { bucket: 'hour' | 'day' }): Promise<ApprovalPoint[]> {
  const rows = await prisma.$queryRaw<{ connector: string; at: Date; decided: number; approved: number }[]>`
    SELECT t.connector_id AS connector, date_trunc(${scope.bucket}, t.created_at, ${env().BUSINESS_TIME_ZONE}) AS at,
      count(*) FILTER (WHERE ${Prisma.raw(DECIDED)})::int AS decided,
      count(*) FILTER (WHERE ${Prisma.raw(APPROVED)})::int AS approved
    FROM transactions t WHERE ${scoped(scope)} AND t.method IN ('CARD', 'YAPE')
    GROUP BY 1, 2 ORDER BY 2, 1`;
  return rows.map((row) => ({
    connector: row.connector,
    at: row.at,
    decided: Number(row.decided),
    approved: Number(row.approved),
  }));
}

/** Attempts by connector, method and outcome over all time: the Prometheus series of /api/metrics. */
export async function storedConnectorAttempts(
  prisma: Db,
): Promise<{ connector: string; method: string; outcome: string; count: number }[]> {
  const rows = await prisma.$queryRaw<{ connector: string; method: string; outcome: string; count: number }[]>`
    SELECT t.connector_id AS connector, t.method::text AS method,
      CASE WHEN ${Prisma.raw(APPROVED)} THEN 'approved'
           WHEN t.decline_class = 'technical' THEN 'technical'
           WHEN t.state = 'DENEGADO' THEN 'declined'
           ELSE 'other' END AS outcome,
      count(*)::int AS count
    FROM ${Prisma.raw(ATTEMPTS)} WHERE t.connector_id IS NOT NULL
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}
