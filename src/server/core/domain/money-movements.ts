import { REFUNDABLE_METHODS, type PaymentMethod, type TransactionState } from './states';

// Moving money after an authorization (docs/DECISIONS.md "Capture later, refunds in parts"):
// what may be captured, what may still be refunded, and why not. Pure rules; the charges and
// refunds modules apply them under the transaction's row lock.

export const CAPTURE_MODES = ['AUTOMATIC', 'MANUAL'] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];

/** A merchant's capture per method; a method not named is captured with its authorization. */
export type CaptureModes = Partial<Record<PaymentMethod, CaptureMode>>;

/** Only cards may be captured later: Yape and the payment orders move money when the payer pays. */
export const CAPTURABLE_METHODS: readonly PaymentMethod[] = ['CARD'];

export const CAPTURE_STATUSES = ['UNCAPTURED', 'CAPTURING', 'CAPTURED'] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

/**
 * A capture's moves, as data beside the transactions' and refunds' (states.ts): a payment to
 * capture later is UNCAPTURED from its first attempt, CAPTURING while its processor is asked (and
 * while the answer is in doubt), then CAPTURED, or UNCAPTURED again when the processor refused.
 */
const CAPTURE_MOVES: Readonly<Record<CaptureStatus | 'NONE', readonly CaptureStatus[]>> = {
  NONE: ['UNCAPTURED'],
  UNCAPTURED: ['CAPTURING'],
  CAPTURING: ['CAPTURED', 'UNCAPTURED'],
  CAPTURED: [],
};

export function canCaptureTransition(from: CaptureStatus | null, to: CaptureStatus): boolean {
  return CAPTURE_MOVES[from ?? 'NONE'].includes(to);
}

/** An uncaptured authorization is voided after this many days of 24 h: the merchant's, 1 to 29. */
export const CAPTURE_WINDOW_DAYS = { min: 1, max: 29, default: 7 } as const;

/** The capture a payment gets: the request's choice, else the merchant's for its method. */
export function captureModeOf(
  method: PaymentMethod,
  requested: 'automatic' | 'manual' | undefined,
  merchantModes: CaptureModes,
): CaptureMode {
  if (!CAPTURABLE_METHODS.includes(method)) return 'AUTOMATIC';
  if (requested) return requested === 'manual' ? 'MANUAL' : 'AUTOMATIC';
  return merchantModes[method] ?? 'AUTOMATIC';
}

/** The last instant an authorization made at `authorizedAt` may be captured, `windowMs` after it. */
export function captureBefore(authorizedAt: Date, windowMs: number): Date {
  return new Date(authorizedAt.getTime() + windowMs);
}

export type CaptureFacts = {
  state: TransactionState;
  amount: bigint;
  captureStatus: string | null;
};

export type CaptureDecision =
  { kind: 'capture'; amount: bigint } | { kind: 'refused'; error: 'STATE_CONFLICT' | 'VALIDATION'; message: string };

/** Whether a capture of `requested` (null: all of it) may go to the processor now. */
export function decideCapture(payment: CaptureFacts, requested: bigint | null): CaptureDecision {
  if (payment.captureStatus === null) {
    return { kind: 'refused', error: 'STATE_CONFLICT', message: 'the payment was captured with its authorization' };
  }
  if (payment.captureStatus === 'CAPTURED') {
    return { kind: 'refused', error: 'STATE_CONFLICT', message: 'the payment is captured already' };
  }
  if (payment.captureStatus === 'CAPTURING') {
    return { kind: 'refused', error: 'STATE_CONFLICT', message: 'a capture of this payment is under way' };
  }
  if (payment.state !== 'AUTORIZADO') {
    return {
      kind: 'refused',
      error: 'STATE_CONFLICT',
      message: `only AUTORIZADO payments can be captured (state is ${payment.state})`,
    };
  }
  const amount = requested ?? payment.amount;
  if (amount > payment.amount) {
    return {
      kind: 'refused',
      error: 'VALIDATION',
      message: `must be at most the authorized amount ${payment.amount.toString()}`,
    };
  }
  return { kind: 'capture', amount };
}

export type RefundFacts = {
  amount: bigint;
  /** Null for a payment captured with its authorization: its amount is what was captured. */
  capturedAmount: bigint | null;
  /** What its refunds that are not REJECTED add up to (with those earlier in the same request). */
  refundedAmount: bigint;
};

/** What a settled payment's refunds may add up to: what was captured. */
export const refundableTotal = (payment: RefundFacts): bigint => payment.capturedAmount ?? payment.amount;

/** What may still be refunded. */
export const stillRefundable = (payment: RefundFacts): bigint => refundableTotal(payment) - payment.refundedAmount;

export type RefundAmountDecision =
  | { kind: 'refund'; amount: bigint }
  | { kind: 'refused'; reason: 'amount_mismatch' | 'already_refunded' | 'exceeds_refundable'; message: string };

/**
 * A refund of `type` for `requested` cents (null: all of it, as the console files a TOTAL one).
 * TOTAL is all of what was captured, once, with no other refund alive; PARTIAL any part of what
 * is still refundable.
 */
export function decideRefundAmount(
  type: 'TOTAL' | 'PARTIAL',
  requested: bigint | null,
  payment: RefundFacts,
): RefundAmountDecision {
  const total = refundableTotal(payment);
  const left = stillRefundable(payment);
  if (type === 'TOTAL') {
    if (requested !== null && requested !== total) {
      return {
        kind: 'refused',
        reason: 'amount_mismatch',
        message: `must equal the refundable amount ${total.toString()} for a TOTAL refund`,
      };
    }
    if (payment.refundedAmount > 0n) {
      return { kind: 'refused', reason: 'already_refunded', message: 'the transaction already has a refund' };
    }
    return { kind: 'refund', amount: total };
  }
  const amount = requested ?? left;
  if (amount < 1n) return { kind: 'refused', reason: 'amount_mismatch', message: 'must be at least 1' };
  if (left <= 0n) return { kind: 'refused', reason: 'already_refunded', message: 'the transaction is refunded in full' };
  if (amount > left) {
    return {
      kind: 'refused',
      reason: 'exceeds_refundable',
      message: `must be at most what is still refundable, ${left.toString()}`,
    };
  }
  return { kind: 'refund', amount };
}

/** What a payment's money is, as a merchant reconciles it against their bank. */
export type MoneyStory = {
  authorized: bigint;
  /** Null while nothing is captured (a payment to capture later, one not approved). */
  captured: bigint | null;
  /** What RESOLVED refunds gave back. */
  refunded: bigint;
  /** What refunds REGISTERED or IN_PROCESS are giving back: not refunded yet, no longer refundable. */
  refundInProcess: bigint;
  /** What a new refund may still take (0 unless LIQUIDADO with a method that takes refunds). */
  refundable: bigint;
};

export type MoneyFacts = RefundFacts & {
  state: TransactionState;
  method: PaymentMethod;
  captureStatus: string | null;
  /** What its RESOLVED refunds add up to (refundedAmount counts those in process too). */
  resolvedRefunds: bigint;
};

/**
 * Every figure the console shows of one payment's money, decided once: the operation page, the
 * operations list and its export read it from here.
 */
export function moneyStory(payment: MoneyFacts): MoneyStory {
  const approved = payment.state === 'AUTORIZADO' || payment.state === 'LIQUIDADO';
  const captured =
    payment.captureStatus === null
      ? approved
        ? payment.amount
        : null
      : payment.captureStatus === 'CAPTURED'
        ? payment.capturedAmount
        : null;
  const refundable = payment.state === 'LIQUIDADO' && REFUNDABLE_METHODS.includes(payment.method) ? stillRefundable(payment) : 0n;
  return {
    authorized: payment.amount,
    captured,
    refunded: payment.resolvedRefunds,
    refundInProcess: payment.refundedAmount - payment.resolvedRefunds,
    refundable: refundable > 0n ? refundable : 0n,
  };
}
