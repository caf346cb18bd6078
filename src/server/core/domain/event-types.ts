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

export const EVENT_TYPES = [
  ...Object.values(TRANSACTION_EVENT_TYPES),
  CAPTURE_EVENT_TYPE,
  ...Object.values(REFUND_EVENT_TYPES),
] as [string, ...string[]];
