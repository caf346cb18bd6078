import type { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/platform/db/client';
import { canTransition, type TransactionState } from '@/server/core/domain/states';
import { recordTransactionMoves, type MovedTransaction } from './record-transaction-moves';

export type MoveData = Omit<Prisma.TransactionUpdateManyMutationInput, 'state'> & { stateReason: string };

/**
 * One state move of one transaction (docs/DESIGN.md 6): the row changes only if it is still in
 * `from` (so two racing moves cannot both apply) and no cancellation holds it while its
 * processor is asked (`undoUntil`; only the cancellation's own move passes `overHold`), with its
 * lifecycle entry and outbox event in the caller's database transaction. Returns null when the
 * row had already moved on or is held.
 */
export async function moveTransaction(
  tx: Tx,
  transactionId: string,
  from: TransactionState,
  to: TransactionState,
  data: MoveData,
  at = new Date(),
  { overHold = false } = {},
): Promise<MovedTransaction | null> {
  if (!canTransition(from, to)) throw new Error(`transaction move ${from} -> ${to} is not allowed`);
  const notHeld = overHold ? {} : { OR: [{ undoUntil: null }, { undoUntil: { lt: new Date() } }] };
  const moved = await tx.transaction.updateMany({
    where: { id: transactionId, state: from, ...notHeld },
    data: { ...data, state: to },
  });
  if (moved.count === 0) return null;
  const [row] = await recordTransactionMoves(tx, [transactionId], to, at);
  return row!;
}
