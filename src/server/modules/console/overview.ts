import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { env } from '@/env';
import { startOfDay } from '@/server/core/domain/business-day';
import type { MerchantScope } from '@/server/modules/access/merchant-scope';

// The console overview: volumes, approval rate, pending and refunds, and the series of its
// two charts, for the user's merchants. Days are business days (America/Lima by default).
// Each figure counts one set: the volume is money captured of approved payments (AUTORIZADO,
// LIQUIDADO: a partial capture counts what was captured, an authorization still to capture
// counts apart) beside the count of those approved operations; the approval rate is approved of
// approved and declined, so a payment still pending (a bank transfer, a PagoEfectivo code) is
// counted apart, not as declined. Refunds count as refunded once RESOLVED; those REGISTERED or
// IN_PROCESS are shown apart, and REJECTED ones gave nothing back.

/** What an approved payment captured: its amount when captured with its authorization. */
const CAPTURED = Prisma.sql`CASE WHEN capture_status IS NULL THEN amount WHEN capture_status = 'CAPTURED' THEN captured_amount ELSE 0 END`;
const APPROVED = Prisma.sql`state IN ('AUTORIZADO', 'LIQUIDADO')`;

function businessToday(zone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function daysBefore(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - count);
  return date.toISOString().slice(0, 10);
}

export async function overview(prisma: Db, scope: MerchantScope, now = new Date()) {
  const zone = env().BUSINESS_TIME_ZONE;
  const today = businessToday(zone, now);
  const since = {
    today: startOfDay(today, zone),
    week: startOfDay(daysBefore(today, 6), zone),
    month: startOfDay(daysBefore(today, 29), zone),
  };
  const merchantFilter = scope.kind === 'one' ? Prisma.sql`AND merchant_id = ${scope.merchantId}::uuid` : Prisma.empty;

  const windows = await prisma.$queryRaw<
    {
      period: string;
      currency: string;
      count: bigint;
      approved: bigint;
      declined: bigint;
      volume: bigint | null;
      uncaptured: bigint | null;
    }[]
  >`
    SELECT w.period, t.currency, count(*)::bigint AS count,
      count(*) FILTER (WHERE ${APPROVED})::bigint AS approved,
      count(*) FILTER (WHERE t.state = 'DENEGADO')::bigint AS declined,
      sum(${CAPTURED}) FILTER (WHERE ${APPROVED})::bigint AS volume,
      sum(amount) FILTER (WHERE ${APPROVED} AND capture_status IN ('UNCAPTURED', 'CAPTURING'))::bigint AS uncaptured
    FROM transactions t
    JOIN (VALUES ('today', ${since.today}::timestamptz), ('7d', ${since.week}::timestamptz), ('30d', ${since.month}::timestamptz)) AS w(period, since)
      ON t.created_at >= w.since
    WHERE TRUE ${merchantFilter}
    GROUP BY w.period, t.currency`;

  const daily = await prisma.$queryRaw<
    { day: string; method: string; volume: bigint | null; decided: bigint; approved: bigint }[]
  >`
    SELECT to_char(created_at AT TIME ZONE ${zone}, 'YYYY-MM-DD') AS day, method,
      sum(${CAPTURED}) FILTER (WHERE ${APPROVED} AND currency = '604')::bigint AS volume,
      count(*) FILTER (WHERE state IN ('AUTORIZADO', 'LIQUIDADO', 'DENEGADO'))::bigint AS decided,
      count(*) FILTER (WHERE ${APPROVED})::bigint AS approved
    FROM transactions WHERE created_at >= ${since.month} ${merchantFilter}
    GROUP BY 1, 2 ORDER BY 1`;

  const [pending, refunds] = await Promise.all([
    prisma.transaction.count({
      where: { state: 'PENDIENTE', ...(scope.kind === 'one' ? { merchantId: scope.merchantId } : {}) },
    }),
    prisma.refund.groupBy({
      by: ['state', 'currency'],
      where: { createdAt: { gte: since.month }, ...(scope.kind === 'one' ? { merchantId: scope.merchantId } : {}) },
      _count: { _all: true },
      _sum: { refundAmount: true },
    }),
  ]);

  const days = Array.from({ length: 30 }, (_, index) => daysBefore(today, 29 - index));
  const methods = [...new Set(daily.map((row) => row.method))].sort();
  return {
    today,
    windows: ['today', '7d', '30d'].map((window) => {
      const rows = windows.filter((row) => row.period === window);
      const approved = rows.reduce((sum, row) => sum + Number(row.approved), 0);
      const declined = rows.reduce((sum, row) => sum + Number(row.declined), 0);
      return {
        window,
        count: rows.reduce((sum, row) => sum + Number(row.count), 0),
        // The volume is of these operations only: the page says so beside the count of all.
        approved,
        declined,
        approvalRate: approved + declined > 0 ? approved / (approved + declined) : null,
        volumes: rows
          .filter((row) => row.volume !== null)
          .map((row) => ({ currency: row.currency, cents: row.volume!.toString() })),
        // Approved and not captured yet: money that is not the merchant's until captured.
        uncaptured: rows
          .filter((row) => row.uncaptured !== null && row.uncaptured > 0n)
          .map((row) => ({ currency: row.currency, cents: row.uncaptured!.toString() })),
      };
    }),
    pending,
    refunds: {
      resolved: refundFigures(refunds, ['RESOLVED']),
      inProcess: refundFigures(refunds, ['REGISTERED', 'IN_PROCESS']),
    },
    methods,
    volumeByDay: days.map((day) => ({
      day,
      ...Object.fromEntries(
        methods.map((method) => [
          method,
          Number(daily.find((row) => row.day === day && row.method === method)?.volume ?? 0n) / 100,
        ]),
      ),
    })),
    approvalByDay: days.map((day) => {
      const rows = daily.filter((row) => row.day === day);
      const decided = rows.reduce((sum, row) => sum + Number(row.decided), 0);
      const approved = rows.reduce((sum, row) => sum + Number(row.approved), 0);
      return { day, rate: decided > 0 ? Math.round((approved / decided) * 1000) / 10 : null };
    }),
  };
}

type RefundGroup = { state: string; currency: string; _count: { _all: number }; _sum: { refundAmount: bigint | null } };

/** How many refunds in these states, and their money per currency. */
function refundFigures(groups: RefundGroup[], states: string[]) {
  const chosen = groups.filter((group) => states.includes(group.state));
  const currencies = [...new Set(chosen.map((group) => group.currency))].sort();
  return {
    count: chosen.reduce((sum, group) => sum + group._count._all, 0),
    amounts: currencies.map((currency) => ({
      currency,
      cents: chosen
        .filter((group) => group.currency === currency)
        .reduce((sum, group) => sum + (group._sum.refundAmount ?? 0n), 0n)
        .toString(),
    })),
  };
}
