export const TRANSACTION_STATES = [
  'REGISTRADO',
  'PENDIENTE',
  'AUTORIZADO',
  'DENEGADO',
  'CANCELADO',
  'EXTORNADO',
  'EXPIRADO',
  'LIQUIDADO',
] as const;
export type TransactionState = (typeof TRANSACTION_STATES)[number];

export const PAYMENT_METHODS = ['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const REFUND_STATES = ['REGISTERED', 'IN_PROCESS', 'RESOLVED', 'REJECTED'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

export const REFUNDABLE_METHODS: readonly PaymentMethod[] = ['CARD', 'YAPE', 'CUOTEALO'];

const REVERSIBLE_METHODS: readonly PaymentMethod[] = ['CARD', 'YAPE'];

const TRANSACTION_MOVES: Readonly<Record<TransactionState | 'NONE', readonly TransactionState[]>> = {
  NONE: ['REGISTRADO'],
  REGISTRADO: ['PENDIENTE', 'CANCELADO'],
  PENDIENTE: ['AUTORIZADO', 'DENEGADO', 'CANCELADO', 'EXPIRADO'],
  AUTORIZADO: ['EXTORNADO', 'LIQUIDADO'],
  DENEGADO: [],
  CANCELADO: [],
  EXTORNADO: [],
  EXPIRADO: [],
  LIQUIDADO: [],
};

const REFUND_MOVES: Readonly<Record<RefundState | 'NONE', readonly RefundState[]>> = {
  NONE: ['REGISTERED'],
  REGISTERED: ['IN_PROCESS'],
  IN_PROCESS: ['RESOLVED', 'REJECTED'],
  RESOLVED: [],
  REJECTED: [],
};

export function canTransition(from: TransactionState | null, to: TransactionState): boolean {
  return TRANSACTION_MOVES[from ?? 'NONE'].includes(to);
}

/** The states a transaction may move to `to` from: what a batch move selects on (never a list of its own). */
export function statesMovingTo(to: TransactionState): TransactionState[] {
  return TRANSACTION_STATES.filter((from) => canTransition(from, to));
}

export function canRefundTransition(from: RefundState | null, to: RefundState): boolean {
  return REFUND_MOVES[from ?? 'NONE'].includes(to);
}

/** A new `POST /charges` on an existing operation appends a transaction only after these. */
export const RETRYABLE_CHARGE_STATES: readonly TransactionState[] = ['DENEGADO', 'EXPIRADO'];

export type CancelDecision =
  | { kind: 'move'; to: 'CANCELADO' | 'EXTORNADO' }
  | { kind: 'already'; state: 'CANCELADO' | 'EXTORNADO' }
  | { kind: 'refused'; reason: 'state' | 'method'; message: string };

function settledMessage(method: PaymentMethod): string {
  return REFUNDABLE_METHODS.includes(method)
    ? 'The operation is already settled (LIQUIDADO) and cannot be cancelled; request a refund instead.'
    : `The operation is already settled (LIQUIDADO) and cannot be cancelled; ${method} payments cannot be refunded.`;
}

function authorizedMessage(method: PaymentMethod): string {
  const after = REFUNDABLE_METHODS.includes(method)
    ? 'request a refund once it is settled.'
    : `${method} payments cannot be refunded.`;
  return `An authorized ${method} payment cannot be cancelled or reversed because the payer's money has moved; ${after}`;
}

/** What `DELETE` of an operation does, from the state and method of its latest transaction. */
export function decideCancel(state: TransactionState, method: PaymentMethod): CancelDecision {
  switch (state) {
    case 'REGISTRADO':
    case 'PENDIENTE':
      return { kind: 'move', to: 'CANCELADO' };
    case 'AUTORIZADO':
      return REVERSIBLE_METHODS.includes(method)
        ? { kind: 'move', to: 'EXTORNADO' }
        : { kind: 'refused', reason: 'method', message: authorizedMessage(method) };
    case 'CANCELADO':
    case 'EXTORNADO':
      return { kind: 'already', state };
    case 'DENEGADO':
      return {
        kind: 'refused',
        reason: 'state',
        message: 'The operation was declined (DENEGADO); there is nothing to cancel.',
      };
    case 'EXPIRADO':
      return {
        kind: 'refused',
        reason: 'state',
        message: 'The operation expired (EXPIRADO); there is nothing to cancel.',
      };
    case 'LIQUIDADO':
      return { kind: 'refused', reason: 'state', message: settledMessage(method) };
  }
}
