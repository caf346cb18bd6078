import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { decideCancel, REFUNDABLE_METHODS, type PaymentMethod } from '@/server/core/domain/states';
import { stillRefundable } from '@/server/core/domain/money-movements';
import { toTransactionObject, transactionSelect } from '@/server/modules/charges/transaction-view';
import { refundSelect, toRefundObject } from '@/server/modules/refunds/refund-view';
import { eventsOf } from '@/server/modules/events/event-view';
import { deliveriesOf } from '@/server/modules/events/deliveries';
import { assertInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';
import { isUuid } from '@/server/core/domain/uuid';
import { claimAsTransaction } from '@/server/modules/charges/attempts/in-flight';

/** Everything the console shows about the operation of one transaction, and what may be done to it. */
export async function operationDetail(prisma: Db, scope: MerchantScope, transactionId: string) {
  const notFound = new AppError('NOT_FOUND', 'no such operation');
  if (!isUuid(transactionId)) throw notFound;
  const id = transactionId.toLowerCase();
  const select = { operationId: true, merchantId: true };
  const anchor =
    (await prisma.transaction.findUnique({ where: { id }, select })) ??
    (await prisma.chargeClaim.findUnique({ where: { transactionId: id }, select }));
  if (!anchor) throw notFound;
  assertInScope(scope, anchor.merchantId);
  const operation = await prisma.operation.findUniqueOrThrow({
    where: { id: anchor.operationId },
    select: {
      merchantOperationNumber: true,
      createdAt: true,
      merchant: { select: { code: true, name: true } },
      transactions: {
        orderBy: { attempt: 'asc' },
        select: {
          ...transactionSelect,
          payerEmail: true,
          payerName: true,
          attempt: true,
          connectorId: true,
          routing: true,
          declineClass: true,
          latencyMs: true,
          threeDs: true,
          refundedAmount: true,
        },
      },
      refunds: { orderBy: { createdAt: 'asc' }, select: refundSelect },
    },
  });
  // An attempt in flight is the latest, as the REGISTRADO transaction it stands for.
  const claim = await prisma.chargeClaim.findUnique({ where: { operationId: anchor.operationId } });
  if (claim) operation.transactions.push(claimAsTransaction(claim));
  const ids = [...operation.transactions.map((row) => row.id), ...operation.refunds.map((row) => row.id)];
  const [events, deliveries] = await Promise.all([eventsOf(prisma, ids), deliveriesOf(prisma, ids)]);
  const latest = operation.transactions.at(-1)!;
  const cancel = decideCancel(latest.state, latest.method);
  return {
    merchant: operation.merchant,
    merchantOperationNumber: operation.merchantOperationNumber,
    createdAt: operation.createdAt.toISOString(),
    state: latest.state,
    transactions: operation.transactions.map((row) => ({
      ...toTransactionObject(row, 'millis', { queryDetails: true }),
      payer_email: row.payerEmail,
      payer_name: row.payerName,
      // Which processor carried the attempt, why routing chose it and how it ended (docs/ORCHESTRATION.md 2-5).
      orchestration: {
        attempt: row.attempt,
        connector: row.connectorId,
        routing: row.routing as { rule_version: number | null; route: number | null; reason: string } | null,
        declineClass: row.declineClass,
        latencyMs: row.latencyMs,
        threeDs: row.threeDs as { version: string; status: string; eci: string; challenged: boolean } | null,
      },
      money: moneyOf(row),
      // A payment to capture later, not captured yet: the console's Capture action.
      capturable: row.state === 'AUTORIZADO' && row.captureStatus === 'UNCAPTURED',
      refundable: refundableNow(row) > 0n,
    })),
    refunds: operation.refunds.map(toRefundObject),
    events,
    // Every delivery of those events: to the operation's callback_url or to each webhook endpoint.
    deliveries,
    cancel:
      cancel.kind === 'move'
        ? { allowed: true as const, to: cancel.to }
        : // Why not, for the page to say in its language: the state, and whether the method takes refunds.
          {
            allowed: false as const,
            state: latest.state,
            refundableMethod: REFUNDABLE_METHODS.includes(latest.method),
          },
  };
}

type MoneyRow = {
  state: string;
  method: PaymentMethod;
  amount: bigint;
  captureStatus: string | null;
  capturedAmount: bigint | null;
  refundedAmount: bigint;
};

/** What a settled payment of a method with refunds may still give back. */
function refundableNow(row: MoneyRow): bigint {
  return row.state === 'LIQUIDADO' && REFUNDABLE_METHODS.includes(row.method) ? stillRefundable(row) : 0n;
}

/** The money of one transaction, as cents: authorized, captured (null: nothing yet), refunded, still refundable. */
function moneyOf(row: MoneyRow) {
  const moved = ['AUTORIZADO', 'LIQUIDADO'].includes(row.state);
  const captured = row.captureStatus === null ? (moved ? row.amount : null) : row.capturedAmount;
  return {
    authorized: row.amount.toString(),
    captured: captured?.toString() ?? null,
    refunded: row.refundedAmount.toString(),
    refundable: refundableNow(row).toString(),
  };
}
