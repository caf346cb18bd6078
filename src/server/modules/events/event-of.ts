import { randomUUID } from 'node:crypto';
import type { Prisma } from '@/generated/prisma/client';
import { destinationOf } from '@/server/modules/events/callbacks/destination';
import { successMeta } from '@/server/core/domain/envelope';
import {
  CAPTURE_EVENT_TYPE,
  REFUND_EVENT_TYPES,
  TRANSACTION_EVENT_TYPES,
  type CardEventType,
} from '@/server/core/domain/event-types';
import type { SavedCardObject } from '@/server/core/interface/customer';
import type { RefundState, TransactionState } from '@/server/core/domain/states';
import type { RefundObject } from '@/server/core/interface/refund';
import type { TransactionObject } from '@/server/core/interface/transaction';

// Every transaction or refund move, and every change of a saved card, is announced by one outbox
// event, written in the same database transaction as the change (docs/DESIGN.md 9); this is the
// only place that makes one.

/** Who hears of a move: the merchant, its operation and the callback URL the payment named. */
type Audience = { merchantId: string; merchantCode: string; merchantOperationNumber: string; callbackUrl: string | null };

/** A move as its event tells it: the state reached (or the capture) and the object as the query endpoints return it. */
export type Move =
  | (Audience & { to: TransactionState | 'CAPTURED'; transaction: TransactionObject })
  | (Audience & { to: RefundState; refund: RefundObject });

/** A saved card's change: no operation, no callback URL; the events API and webhook endpoints hear of it. */
export type CardChange = { merchantId: string; merchantCode: string; type: CardEventType; card: SavedCardObject };

export type OutboxEventRow = ReturnType<typeof eventOf>;

/** The stored event of a saved card's change, carrying the card as GET /customers shows it. */
export function cardEventOf(change: CardChange) {
  const id = randomUUID();
  return {
    id,
    merchantId: change.merchantId,
    type: change.type,
    aggregateId: change.card.card_id,
    callbackUrl: null,
    destination: null,
    status: 'SKIPPED' as const,
    payload: {
      success: 'true',
      action: 'notify',
      merchant_code: change.merchantCode,
      event_id: id,
      event_type: change.type,
      card: change.card,
      meta: successMeta(),
    } as Prisma.InputJsonObject,
  };
}

/** The stored event of a move: the payload is the callback body the worker will sign and send. */
export function eventOf(move: Move) {
  const id = randomUUID();
  const { type, aggregateId, body } =
    'transaction' in move
      ? {
          type: move.to === 'CAPTURED' ? CAPTURE_EVENT_TYPE : TRANSACTION_EVENT_TYPES[move.to],
          aggregateId: move.transaction.transaction_id,
          body: { transaction: move.transaction },
        }
      : { type: REFUND_EVENT_TYPES[move.to], aggregateId: move.refund.refund_id, body: { refund: move.refund } };
  return {
    id,
    merchantId: move.merchantId,
    type,
    aggregateId,
    callbackUrl: move.callbackUrl,
    destination: destinationOf(move.callbackUrl),
    status: move.callbackUrl ? ('PENDING' as const) : ('SKIPPED' as const),
    payload: {
      success: 'true',
      action: 'notify',
      merchant_code: move.merchantCode,
      merchant_operation_number: move.merchantOperationNumber,
      event_id: id,
      event_type: type,
      ...body,
      meta: successMeta(),
    } as Prisma.InputJsonObject,
  };
}
