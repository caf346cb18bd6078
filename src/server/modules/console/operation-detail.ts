import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { decideCancel, REFUNDABLE_METHODS, type TransactionState } from '@/server/core/domain/states';
import { moneyView, resolvedSum } from './money-view';
import { CAPTURE_EVENT_TYPE } from '@/server/core/domain/event-types';
import type { RefundLifecycle, RefundRow } from '@/server/modules/refunds/refund-view';
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
  const capturedAt = new Map(
    events.filter((event) => event.type === CAPTURE_EVENT_TYPE).map((event) => [event.aggregateId, event.createdAt]),
  );
  const moneyOf = (row: (typeof operation.transactions)[number]) =>
    moneyView({
      ...row,
      resolvedRefunds: resolvedSum(operation.refunds.filter((refund) => refund.transactionId === row.id)),
    });
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
      history: historyOf(
        row,
        capturedAt.get(row.id) ?? null,
        operation.refunds.filter((refund) => refund.transactionId === row.id),
      ),
      // A payment to capture later, not captured yet: the console's Capture action.
      capturable: row.state === 'AUTORIZADO' && row.captureStatus === 'UNCAPTURED',
      refundable: moneyOf(row).refundable !== '0',
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

/** A money movement or a step of one transaction, as the operation's history shows it. */
export type HistoryEntry = {
  at: string;
  /** A state the transaction took, its capture, or a refund's state (REFUND_ and the refund's state). */
  kind: TransactionState | 'CAPTURED' | `REFUND_${RefundLifecycle[number]['state']}`;
  /** The money it moved, in cents: null for a step that moves none. */
  amount: string | null;
  refundId: string | null;
};

type HistoryRow = {
  lifecycle: { state: TransactionState; at: Date }[];
  amount: bigint;
  capturedAmount: bigint | null;
};

/**
 * One transaction's history, oldest first: its lifecycle with the money each step moved (what was
 * authorized, settled, voided), its capture (the time of its transaction.captured event), and each
 * of its refunds' registration, processing and resolution or rejection.
 */
function historyOf(row: HistoryRow, capturedAt: string | null, refunds: RefundRow[]): HistoryEntry[] {
  // What a void gives back or a settlement pays: what was captured, or the authorization held.
  const settled = row.capturedAmount ?? row.amount;
  const moved: Partial<Record<TransactionState, bigint>> = { AUTORIZADO: row.amount, LIQUIDADO: settled, EXTORNADO: settled };
  const entries: HistoryEntry[] = row.lifecycle.map((entry) => ({
    at: entry.at.toISOString(),
    kind: entry.state,
    amount: moved[entry.state]?.toString() ?? null,
    refundId: null,
  }));
  if (capturedAt !== null && row.capturedAmount !== null)
    entries.push({ at: capturedAt, kind: 'CAPTURED', amount: row.capturedAmount.toString(), refundId: null });
  for (const refund of refunds)
    for (const step of refund.lifecycle as RefundLifecycle)
      entries.push({ at: step.at, kind: `REFUND_${step.state}`, amount: refund.refundAmount.toString(), refundId: refund.id });
  // Stable: steps of the same instant keep the order they were written in.
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
