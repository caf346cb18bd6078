import type { Tx } from '@/server/platform/db/client';
import { canCaptureTransition, type CaptureStatus } from '@/server/core/domain/money-movements';
import { toTransactionObject } from '@/server/modules/charges/transaction-view';
import { fanOutEvents } from '@/server/modules/events/callbacks/endpoint-fan-out';
import { eventOf } from '@/server/modules/events/event-of';
import { movedTransactionSelect } from './record-transaction-moves';

/** A capture move and what it sets: the claim's amount and when its answer is asked about if lost. */
export type CaptureMove = { to: 'CAPTURING'; amount: bigint; checkAt: Date } | { to: 'CAPTURED' } | { to: 'UNCAPTURED' };

/**
 * One capture move of one payment (core/domain/money-movements.ts, CAPTURE_MOVES), as a
 * transaction move is made: checked against the table, applied only if the row is still where the
 * move starts from (so two racing captures or a capture and its sync cannot both apply), a claim
 * only of an AUTORIZADO payment no cancellation holds, and a capture's event (`transaction.captured`)
 * in the caller's database transaction. The transaction's state does not move, so there is no
 * lifecycle entry. Written raw, so that updated_at (the settlement cut-off's clock) stays the
 * authorization's. Returns whether it moved.
 */
export async function moveCapture(tx: Tx, transactionId: string, from: CaptureStatus, move: CaptureMove): Promise<boolean> {
  if (!canCaptureTransition(from, move.to)) throw new Error(`capture move ${from} -> ${move.to} is not allowed`);
  let moved: number;
  switch (move.to) {
    case 'CAPTURING':
      moved = await tx.$executeRaw`
        UPDATE transactions SET capture_status = 'CAPTURING', capture_requested = ${move.amount}, capture_check_at = ${move.checkAt}
        WHERE id = ${transactionId}::uuid AND capture_status = ${from} AND state = 'AUTORIZADO'
          AND (undo_until IS NULL OR undo_until < now())`;
      break;
    case 'CAPTURED':
      moved = await tx.$executeRaw`
        UPDATE transactions SET capture_status = 'CAPTURED', captured_amount = capture_requested,
          capture_requested = NULL, capture_check_at = NULL
        WHERE id = ${transactionId}::uuid AND capture_status = ${from}`;
      break;
    case 'UNCAPTURED':
      moved = await tx.$executeRaw`
        UPDATE transactions SET capture_status = 'UNCAPTURED', capture_requested = NULL, capture_check_at = NULL
        WHERE id = ${transactionId}::uuid AND capture_status = ${from}`;
      break;
  }
  if (moved === 1 && move.to === 'CAPTURED') await recordCaptured(tx, transactionId);
  return moved === 1;
}

/** The event of a capture, in the caller's database transaction. */
async function recordCaptured(tx: Tx, id: string): Promise<void> {
  const row = await tx.transaction.findUniqueOrThrow({ where: { id }, select: movedTransactionSelect });
  const event = eventOf({
    to: 'CAPTURED',
    merchantId: row.merchantId,
    merchantCode: row.operation.merchant.code,
    merchantOperationNumber: row.operation.merchantOperationNumber,
    callbackUrl: row.callbackUrl,
    transaction: toTransactionObject(row, 'millis', { queryDetails: true }),
  });
  await tx.outboxEvent.createMany({ data: [event] });
  await fanOutEvents(tx, [event]);
}
