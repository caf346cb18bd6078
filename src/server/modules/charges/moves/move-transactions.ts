import { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import { statesMovingTo, type TransactionState } from '@/server/core/domain/states';
import { recordTransactionMoves } from './record-transaction-moves';

/** Which rows a batch takes: a condition on `t` (transactions), their order and how many. */
export type BatchSelection = { where: Prisma.Sql; orderBy: Prisma.Sql; limit: number };

/**
 * Whether a batch move to `to` would find a row, asked in one statement outside any transaction.
 * A job with nothing to move then opens none: on the embedded database an open transaction holds
 * the only connection across the event loop's turns between its statements, and every request's
 * statement waits behind it (docs/DECISIONS.md, "The API off Next's request path").
 */
export async function anyTransactionDue(db: Db, to: TransactionState, where: Prisma.Sql): Promise<boolean> {
  const from = statesMovingTo(to);
  if (from.length === 0) return false;
  const [row] = await db.$queryRaw<{ due: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM transactions t WHERE t.state IN (${Prisma.join(from)}) AND ${where}) AS due`;
  return row?.due === true;
}

/**
 * A batch move (settlement, expiry) in set-based SQL: the rows the selection names that are in a
 * state the table of docs/DESIGN.md 6 moves to `to` from and that no cancellation holds, claimed
 * with SKIP LOCKED (so concurrent workers never move one twice), each with its lifecycle entry and event in the caller's database
 * transaction. Returns how many moved.
 */
export async function moveTransactions(
  tx: Tx,
  to: TransactionState,
  selection: BatchSelection,
  data: { stateReason: string },
  at = new Date(),
): Promise<number> {
  const from = statesMovingTo(to);
  if (from.length === 0) return 0;
  const claimed = await tx.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM transactions t
    WHERE t.state IN (${Prisma.join(from)}) AND (t.undo_until IS NULL OR t.undo_until < now()) AND ${selection.where}
    ORDER BY ${selection.orderBy} LIMIT ${selection.limit} FOR UPDATE SKIP LOCKED`;
  if (claimed.length === 0) return 0;
  const ids = claimed.map((row) => row.id);
  await tx.transaction.updateMany({ where: { id: { in: ids }, state: { in: from } }, data: { ...data, state: to } });
  await recordTransactionMoves(tx, ids, to, at);
  return ids.length;
}
