import type { Db } from '@/server/platform/db/client';
import {
  canRefundTransition,
  canTransition,
  REFUNDABLE_METHODS,
  type RefundState,
  type TransactionState,
} from '@/server/core/domain/states';
import type { RefundLifecycle } from '@/server/modules/refunds/refund-view';

// What seeded rows must be (seedOperations): rows the service itself could have written. Each
// check answers the problems it found (none: []), so a test shows them all at once. Used by the
// seeding test on the embedded database and by the PostgreSQL scale test.

const MAX_PROBLEMS = 20;

/** Every transaction: a lifecycle of allowed moves, in time order, ending in its state; card fields only for cards. */
export async function lifecycleProblems(prisma: Db, merchantIds: string[]): Promise<string[]> {
  const rows = await prisma.transaction.findMany({
    where: { merchantId: { in: merchantIds } },
    select: {
      id: true,
      state: true,
      method: true,
      maskedPan: true,
      lifecycle: { orderBy: { id: 'asc' }, select: { state: true, at: true } },
    },
  });
  const problems: string[] = [];
  for (const row of rows) {
    let from: TransactionState | null = null;
    for (const entry of row.lifecycle) {
      if (!canTransition(from, entry.state)) problems.push(`${row.id}: ${from} -> ${entry.state}`);
      from = entry.state;
    }
    if (from !== row.state) problems.push(`${row.id}: lifecycle ends in ${from}, state is ${row.state}`);
    const times = row.lifecycle.map((entry) => entry.at.getTime());
    if (times.some((time, index) => index > 0 && time < times[index - 1]!))
      problems.push(`${row.id}: lifecycle out of time order`);
    if ((row.maskedPan === null) !== (row.method !== 'CARD')) problems.push(`${row.id}: masked PAN on ${row.method}`);
    if (row.maskedPan && !/^411111\*{6}\d{4}$/.test(row.maskedPan)) problems.push(`${row.id}: masked PAN ${row.maskedPan}`);
    if (problems.length >= MAX_PROBLEMS) break;
  }
  return problems;
}

/**
 * Every refund: of a settled payment of a refundable method, allowed moves, showing its
 * transaction's method, brand and masked PAN and its operation's number; each transaction's live
 * refunds add up to its refunded_amount, within what was captured.
 */
export async function refundProblems(prisma: Db, merchantIds: string[]): Promise<string[]> {
  const refunds = await prisma.refund.findMany({
    where: { merchantId: { in: merchantIds } },
    select: {
      id: true,
      merchantId: true,
      state: true,
      transactionId: true,
      refundAmount: true,
      merchantOperationNumber: true,
      method: true,
      cardBrand: true,
      maskedPan: true,
      operation: { select: { merchantOperationNumber: true } },
      transaction: {
        select: {
          state: true,
          method: true,
          cardBrand: true,
          maskedPan: true,
          amount: true,
          capturedAmount: true,
          refundedAmount: true,
          merchantId: true,
        },
      },
      lifecycle: true,
    },
  });
  const problems: string[] = [];
  const live = new Map<string, { sum: bigint; transaction: (typeof refunds)[number]['transaction'] }>();
  for (const refund of refunds) {
    const { transaction } = refund;
    const sum = live.get(refund.transactionId) ?? { sum: 0n, transaction };
    if (refund.state !== 'REJECTED') sum.sum += refund.refundAmount;
    live.set(refund.transactionId, sum);
    if (transaction.state !== 'LIQUIDADO') problems.push(`${refund.id}: refund of a ${transaction.state} transaction`);
    if (!REFUNDABLE_METHODS.includes(transaction.method)) problems.push(`${refund.id}: refund of ${transaction.method}`);
    if (refund.refundAmount < 1n) problems.push(`${refund.id}: amount ${refund.refundAmount}`);
    if (refund.merchantId !== transaction.merchantId) problems.push(`${refund.id}: another merchant's transaction`);
    const shown = [refund.merchantOperationNumber, refund.method, refund.cardBrand, refund.maskedPan];
    const stored = [refund.operation.merchantOperationNumber, transaction.method, transaction.cardBrand, transaction.maskedPan];
    if (shown.join() !== stored.join()) problems.push(`${refund.id}: shows ${shown.join()}, its payment is ${stored.join()}`);
    let from: RefundState | null = null;
    for (const entry of refund.lifecycle as RefundLifecycle) {
      if (!canRefundTransition(from, entry.state)) problems.push(`${refund.id}: ${from} -> ${entry.state}`);
      from = entry.state;
    }
    if (from !== refund.state) problems.push(`${refund.id}: lifecycle ends in ${from}, state is ${refund.state}`);
    if (problems.length >= MAX_PROBLEMS) break;
  }
  for (const [id, { sum, transaction }] of live) {
    if (sum !== transaction.refundedAmount)
      problems.push(`${id}: refunds add up to ${sum}, refunded_amount ${transaction.refundedAmount}`);
    if (sum > (transaction.capturedAmount ?? transaction.amount))
      problems.push(`${id}: refunded ${sum} of ${transaction.amount}`);
  }
  return problems;
}
