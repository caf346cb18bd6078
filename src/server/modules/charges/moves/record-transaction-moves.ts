import { fanOutEvents } from '@/server/modules/events/callbacks/endpoint-fan-out';
import type { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/platform/db/client';
import type { TransactionState } from '@/server/core/domain/states';
import { toTransactionObject, transactionSelect } from '@/server/modules/charges/transaction-view';
import { eventOf } from '@/server/modules/events/event-of';

// What a move of stored transactions writes besides the row: its lifecycle entry and its event.
export const movedTransactionSelect = {
  ...transactionSelect,
  merchantId: true,
  operation: { select: { merchantOperationNumber: true, merchant: { select: { code: true } } } },
} satisfies Prisma.TransactionSelect;

export type MovedTransaction = Prisma.TransactionGetPayload<{ select: typeof movedTransactionSelect }>;

/** Writes the lifecycle entries of transactions that just moved to `to`, then reads them back and writes their events. */
export async function recordTransactionMoves(tx: Tx, ids: string[], to: TransactionState, at: Date): Promise<MovedTransaction[]> {
  await tx.lifecycleEntry.createMany({ data: ids.map((transactionId) => ({ transactionId, state: to, at })) });
  const rows = await tx.transaction.findMany({ where: { id: { in: ids } }, select: movedTransactionSelect });
  const events = rows.map((row) =>
    eventOf({
      to,
      merchantId: row.merchantId,
      merchantCode: row.operation.merchant.code,
      merchantOperationNumber: row.operation.merchantOperationNumber,
      callbackUrl: row.callbackUrl,
      transaction: toTransactionObject(row, 'millis', { queryDetails: true }),
    }),
  );
  await tx.outboxEvent.createMany({ data: events });
  await fanOutEvents(tx, events);
  return rows;
}
