import type { RefundState, TransactionState } from './states';

// The type of the event each move announces (its callback's `event_type`).
export const TRANSACTION_EVENT_TYPES = {
  REGISTRADO: 'transaction.registered',
  PENDIENTE: 'transaction.pending',
  AUTORIZADO: 'transaction.authorized',
  DENEGADO: 'transaction.declined',
  CANCELADO: 'transaction.cancelled',
  EXTORNADO: 'transaction.reversed',
  EXPIRADO: 'transaction.expired',
  LIQUIDADO: 'transaction.settled',
} as const satisfies Record<TransactionState, string>;

/** A capture later (docs/DECISIONS.md "Capture later"): not a state of the interface, but an event. */
export const CAPTURE_EVENT_TYPE = 'transaction.captured';

export const REFUND_EVENT_TYPES = {
  REGISTERED: 'refund.registered',
  IN_PROCESS: 'refund.in_process',
  RESOLVED: 'refund.resolved',
  REJECTED: 'refund.rejected',
} as const satisfies Record<RefundState, string>;

/** A saved card's changes (docs/DECISIONS.md "Card on file"): to the events API and webhook endpoints, never to a payment's callback. */
export const CARD_EVENT_TYPES = ['card.saved', 'card.updated', 'card.removed'] as const;
export type CardEventType = (typeof CARD_EVENT_TYPES)[number];

export const EVENT_TYPES: [string, ...string[]] = [
  TRANSACTION_EVENT_TYPES.REGISTRADO,
  ...Object.values(TRANSACTION_EVENT_TYPES).slice(1),
  CAPTURE_EVENT_TYPE,
  ...Object.values(REFUND_EVENT_TYPES),
  ...CARD_EVENT_TYPES,
];
