import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/generated/prisma/client';
import type { RefundState } from '@/server/core/domain/states';
import { listRefunds } from '@/server/modules/refunds/list-refunds';
import { moveRefund, registerRefunds } from '@/server/modules/refunds/refund-moves';
import { env } from '@/env';
import { endOfDayExclusive, startOfDay } from '@/server/core/domain/business-day';

// operations_count read from refund_day_counts (kept by triggers on refunds) must stay the exact
// number of matching refunds while refunds are registered and moved at once, some of those
// transactions rolling back. Run on PostgreSQL (moves on several connections at once, contending
// for the same counters) and on the embedded database (one connection: the moves interleave by
// transaction).

const DAY_MS = 86_400_000;
/** The business day `days` ago, as GET /refund's filters read days. */
const businessDay = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: env().BUSINESS_TIME_ZONE }).format(new Date(Date.now() - days * DAY_MS));

/** Where the counters differ from a count of the refunds themselves (none: []). */
export async function counterProblems(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ key: string; counted: bigint; kept: bigint }[]>`
    SELECT concat_ws(' ', coalesce(a.merchant_id, k.merchant_id), coalesce(a.state, k.state), coalesce(a.day, k.day)) AS key,
           coalesce(a.n, 0) AS counted, coalesce(k.count, 0) AS kept
    FROM (SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM refunds GROUP BY 1, 2, 3) a
    FULL JOIN refund_day_counts k ON (k.merchant_id, k.state, k.day) = (a.merchant_id, a.state, a.day)
    WHERE coalesce(a.n, 0) <> coalesce(k.count, 0)`;
  return rows.map((row) => `${row.key}: ${row.counted} refunds, counter ${row.kept}`);
}

/** Every search GET /refund counts from the counters, against a count of the refunds: where they differ. */
export async function countMismatches(prisma: PrismaClient, merchantIds: string[]): Promise<string[]> {
  const zone = env().BUSINESS_TIME_ZONE;
  const ranges: { start_date?: string; end_date?: string }[] = [
    {},
    { start_date: businessDay(0) },
    { start_date: businessDay(2) },
    { end_date: businessDay(1) },
    { start_date: businessDay(3), end_date: businessDay(1) },
    { start_date: businessDay(1), end_date: businessDay(1) },
    { start_date: businessDay(40), end_date: businessDay(20) },
  ];
  const states: (RefundState | undefined)[] = [undefined, 'REGISTERED', 'IN_PROCESS', 'RESOLVED', 'REJECTED'];
  const problems: string[] = [];
  for (const merchantIds_ of [...merchantIds.map((id) => [id]), 'all' as const]) {
    for (const range of ranges) {
      for (const state of states) {
        const filters = { ...range, ...(state ? { state } : {}), limit: '1' };
        const page = await listRefunds(prisma, { merchantIds: merchantIds_, merchantCode: '' }, filters);
        const expected = await prisma.refund.count({
          where: {
            ...(merchantIds_ === 'all' ? {} : { merchantId: { in: merchantIds_ } }),
            ...(state ? { state } : {}),
            createdAt: {
              ...(range.start_date ? { gte: startOfDay(range.start_date, zone) } : {}),
              ...(range.end_date ? { lt: endOfDayExclusive(range.end_date, zone) } : {}),
            },
          },
        });
        if (page.operations_count !== String(expected)) {
          problems.push(`${JSON.stringify([merchantIds_, filters])}: ${page.operations_count}, refunds ${expected}`);
        }
      }
    }
  }
  return problems;
}

class RolledBack extends Error {}

/** Runs `work` in a transaction; when `rollBack`, throws at its end so that nothing of it stays. */
async function inTransaction(prisma: PrismaClient, rollBack: boolean, work: (tx: never) => Promise<unknown>): Promise<void> {
  try {
    await prisma.$transaction(
      async (tx) => {
        await work(tx as never);
        if (rollBack) throw new RolledBack();
      },
      { timeout: 60_000, maxWait: 60_000 },
    );
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
}

/**
 * Registers refunds of `count` settled payments of the merchants at once (on today, yesterday and
 * the day before, so that several share each counter), then moves them at once REGISTERED ->
 * IN_PROCESS -> RESOLVED or REJECTED; every third transaction of each round rolls back. Answers
 * the problems found after each round (none: []).
 */
export async function raceRefundMoves(prisma: PrismaClient, merchantIds: string[], count: number): Promise<string[]> {
  const payments = await prisma.transaction.findMany({
    where: { merchantId: { in: merchantIds }, state: 'LIQUIDADO', method: { in: ['CARD', 'YAPE'] }, refundedAmount: 0 },
    orderBy: { id: 'asc' },
    take: count,
    select: { id: true, merchantId: true, amount: true },
  });
  if (payments.length < count) throw new Error(`only ${payments.length} refundable payments`);
  const problems: string[] = [];
  const check = async (round: string) => {
    for (const problem of [...(await counterProblems(prisma)), ...(await countMismatches(prisma, merchantIds))]) {
      problems.push(`${round}: ${problem}`);
    }
  };
  const registered = payments.map((payment, index) => ({
    id: randomUUID(),
    payment,
    at: new Date(Date.now() - (index % 3) * DAY_MS - (index % 7) * 3_600_000),
    rollBack: index % 3 === 2,
  }));
  await Promise.all(
    registered.map(({ id, payment, at, rollBack }) =>
      inTransaction(prisma, rollBack, (tx) =>
        registerRefunds(
          tx,
          [
            {
              id,
              merchantId: payment.merchantId,
              transactionId: payment.id,
              type: 'TOTAL',
              refundAmount: payment.amount,
              transactionAmount: payment.amount,
              currency: '604',
              additionalFields: { reason: 'race' },
            },
          ],
          at,
        ),
      ),
    ),
  );
  await check('registered');
  const kept = registered.filter((refund) => !refund.rollBack);
  await Promise.all(
    kept.map(({ id }, index) => inTransaction(prisma, index % 3 === 1, (tx) => moveRefund(tx, id, 'REGISTERED', 'IN_PROCESS'))),
  );
  await check('in process');
  const inProcess = await prisma.refund.findMany({
    where: { id: { in: kept.map((refund) => refund.id) }, state: 'IN_PROCESS' },
    select: { id: true },
  });
  await Promise.all(
    inProcess.map(({ id }, index) =>
      inTransaction(prisma, index % 3 === 0, (tx) => moveRefund(tx, id, 'IN_PROCESS', index % 2 ? 'RESOLVED' : 'REJECTED')),
    ),
  );
  await check('decided');
  return problems;
}
