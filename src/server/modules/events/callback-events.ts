import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { resendEvent } from '@/server/modules/events/resend-event';
import { DELIVERY_STATUSES, listDeliveries, type DeliveryStatus } from '@/server/modules/events/deliveries';
import { assertInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';

// The console's delivery log: every delivery of the merchant's events, to an operation's own
// callback_url and to each webhook endpoint (deliveries.ts), newest first, with every attempt and
// why a pending one waits; and the manual resend of a callback.
export const CALLBACK_STATUSES = DELIVERY_STATUSES;
export type CallbackStatus = DeliveryStatus;

export type CallbackEventFilters = { merchantCode?: string; status?: CallbackStatus; cursor?: string; limit?: number };

/** The merchant a code names within the scope: undefined for no code, null for one the user may not see or that does not exist. */
async function merchantNamed(prisma: Db, scope: MerchantScope, merchantCode: string | undefined) {
  if (!merchantCode) return undefined;
  const named = await prisma.merchant.findUnique({ where: { code: merchantCode }, select: { id: true } });
  // Another merchant's code, or an unknown one, finds nothing (existence does not leak).
  if (!named || (scope.kind === 'one' && named.id !== scope.merchantId)) return null;
  return named.id;
}

/** Where each event's operation is: its number and the transaction the console page opens with. */
async function operationsOf(prisma: Db, aggregateIds: string[]) {
  const [transactions, inFlight, refunds] = await Promise.all([
    prisma.transaction.findMany({
      where: { id: { in: aggregateIds } },
      select: { id: true, operation: { select: { merchantOperationNumber: true } } },
    }),
    // An attempt in flight (charge_claims) has its REGISTRADO event before its transaction is written.
    prisma.$queryRaw<{ id: string; number: string }[]>`
      SELECT c.transaction_id::text AS id, o.merchant_operation_number AS number
      FROM charge_claims c JOIN operations o ON o.id = c.operation_id
      WHERE c.transaction_id = ANY(${aggregateIds}::uuid[])`,
    prisma.refund.findMany({
      where: { id: { in: aggregateIds } },
      select: { id: true, transactionId: true, operation: { select: { merchantOperationNumber: true } } },
    }),
  ]);
  return new Map([
    ...inFlight.map((row) => [row.id, { transactionId: row.id, number: row.number }] as const),
    ...transactions.map((row) => [row.id, { transactionId: row.id, number: row.operation.merchantOperationNumber }] as const),
    ...refunds.map(
      (row) => [row.id, { transactionId: row.transactionId, number: row.operation.merchantOperationNumber }] as const,
    ),
  ]);
}

export async function listCallbackEvents(prisma: Db, scope: MerchantScope, filters: CallbackEventFilters) {
  const listed = await listDeliveries(prisma, scope, {
    merchantId: await merchantNamed(prisma, scope, filters.merchantCode),
    status: filters.status,
    cursor: filters.cursor,
    limit: filters.limit,
  });
  const [operations, merchants] = await Promise.all([
    operationsOf(
      prisma,
      listed.rows.map((row) => row.aggregateId),
    ),
    prisma.merchant.findMany({
      where: { id: { in: [...new Set(listed.rows.map((row) => row.merchantId))] } },
      select: { id: true, code: true },
    }),
  ]);
  const codes = new Map(merchants.map((merchant) => [merchant.id, merchant.code]));
  return {
    nextCursor: listed.nextCursor,
    rows: listed.rows.map((row) => ({
      ...row,
      merchantCode: codes.get(row.merchantId) ?? '',
      operationNumber: operations.get(row.aggregateId)?.number ?? null,
      transactionId: operations.get(row.aggregateId)?.transactionId ?? null,
    })),
  };
}

/** A manual resend from the console: only of an event of a merchant the user may see. */
export async function resendFromConsole(prisma: Db, scope: MerchantScope, eventId: string) {
  const event = await prisma.outboxEvent.findUnique({ where: { id: eventId }, select: { merchantId: true } });
  if (!event) throw new AppError('NOT_FOUND', 'no such event');
  assertInScope(scope, event.merchantId);
  const sent = await resendEvent(prisma, eventId);
  return { eventId: sent.id, status: sent.status, attempts: sent.attempts, attempt: sent.deliveries[0]! };
}
