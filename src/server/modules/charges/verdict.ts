import type { Prisma } from '@/generated/prisma/client';
import type { DeclineClass } from '@/server/core/domain/decline-class';
import type { TransactionState } from '@/server/core/domain/states';
import { PENDING_METHODS } from '@/server/core/domain/expiry';
import { APPROVED_MESSAGE, declinedByProcessor, STATE_REASONS } from '@/server/core/domain/state-reasons';
import type { AuthorizeResult, PaymentChange, StatusResult } from '@/server/payments';
import { paidResponse } from './payer/payer-actions';
import type { TransactionRow } from './transaction-view';

// What a processor's word about a payment does to it: the one place an answer becomes a state
// move and its reason (docs/ORCHESTRATION.md 3). The charge path asks it for an authorization's
// answer and after an ambiguous one, the worker's status sync for attempts in doubt, and a
// processor's notification for whatever the processor says the payment is now. An
// authorization's reason is the connector's (payments/outcomes.ts words it from the processor's
// codes); every other reason comes from core/domain/state-reasons.ts.

/** A move of a PENDIENTE payment (a REGISTRADO one passes PENDIENTE first) and the columns it sets. */
export type Verdict = {
  to: Extract<TransactionState, 'AUTORIZADO' | 'DENEGADO' | 'EXPIRADO' | 'CANCELADO'>;
  stateReason: string;
  processorResponse?: Prisma.InputJsonValue | null;
  declineClass?: DeclineClass | null;
  /** The processor's id of an approval it found, which later reversals and refunds name. */
  processorReference?: string;
  expiresAt?: null;
};

const approved = (found: { authorizationCode: string; brandTransactionId: string; processorReference?: string }): Verdict => ({
  to: 'AUTORIZADO',
  stateReason: STATE_REASONS.approved,
  processorResponse: {
    authorization_code: found.authorizationCode,
    brand_transaction_id: found.brandTransactionId,
    result_message: APPROVED_MESSAGE,
  },
  declineClass: null,
  ...(found.processorReference ? { processorReference: found.processorReference } : {}),
});

const declined = (code: string, declineClass: DeclineClass): Verdict => {
  const description = declinedByProcessor(code);
  return { to: 'DENEGADO', stateReason: description, processorResponse: { result_message: { code, description } }, declineClass };
};

/**
 * An authorization's answer as a verdict: approved or declined as the processor said, a technical
 * failure declined; null leaves the attempt PENDIENTE (a payment order waiting for its payer, a
 * challenge, or an answer still being verified).
 */
export function authorizationVerdict(
  result: Exclude<AuthorizeResult, { outcome: 'challenge' }> | { outcome: 'verifying' },
): Verdict | null {
  switch (result.outcome) {
    case 'approved':
      return {
        to: 'AUTORIZADO',
        stateReason: result.stateReason,
        processorResponse: result.processorResponse,
        declineClass: null,
        ...(result.processorReference ? { processorReference: result.processorReference } : {}),
      };
    case 'declined':
    case 'technical_failure':
      return {
        to: 'DENEGADO',
        stateReason: result.stateReason,
        processorResponse: result.processorResponse,
        declineClass: result.outcome === 'declined' ? result.declineClass : 'technical',
        ...(result.processorReference ? { processorReference: result.processorReference } : {}),
      };
    default:
      return null;
  }
}

/**
 * A status inquiry's answer about an attempt in doubt: approved or declined as the processor
 * says; never received, a technical decline; anything else decides nothing (null), unless the
 * status sync has given up (`gaveUp`: it reversed the payment at the processor first).
 */
export function inquiryVerdict(status: StatusResult, gaveUp = false): Verdict | null {
  switch (status.outcome) {
    case 'approved':
      return approved(status);
    case 'declined':
      return declined(status.code, status.declineClass);
    case 'not_found':
      return { to: 'DENEGADO', stateReason: STATE_REASONS.notReceived, declineClass: 'technical' };
    default:
      return gaveUp ? { to: 'DENEGADO', stateReason: STATE_REASONS.unconfirmedVoided, declineClass: 'technical' } : null;
  }
}

/** Whether an inquiry's answer decides the attempt. */
export const decides = (status: StatusResult) => inquiryVerdict(status) !== null;

/** Methods whose payer pays later (a payment order): the processor says when it is paid or ends. */
const PAID_LATER: ReadonlySet<string> = new Set(PENDING_METHODS);

/** The states a payment the processor says was approved or paid should not be in: it ended here first. */
const ENDED: ReadonlySet<string> = new Set(['DENEGADO', 'EXPIRADO', 'CANCELADO']);

export type NotifiedPayment = {
  method: string;
  state: string;
  /** Set while the worker's status sync is to ask about it (an answer lost). */
  statusCheckAt: Date | null;
  processorResponse: Prisma.JsonObject | null;
};

/**
 * What a processor's notification does to a payment: a verdict; `late_approval` for money the
 * processor took for a payment already ended here (no move may undo that end: an operator
 * settles it); null when nothing changes.
 */
export function notificationVerdict(payment: NotifiedPayment, change: PaymentChange): Verdict | 'late_approval' | null {
  if ((change.kind === 'paid' || change.kind === 'approved') && ENDED.has(payment.state)) return 'late_approval';
  const pending = payment.state === 'PENDIENTE';
  const paysLater = pending && PAID_LATER.has(payment.method);
  // A card or Yape attempt still being verified after a lost answer: the processor's word settles it.
  const verifying = pending && payment.statusCheckAt !== null && !PAID_LATER.has(payment.method);
  switch (change.kind) {
    case 'paid':
      if (!paysLater) return null;
      return {
        to: 'AUTORIZADO',
        stateReason: STATE_REASONS.paidAtProcessor,
        processorResponse: paidResponse(payment.method, payment.processorResponse, change.paidAt, null, change.operationId),
      };
    case 'expired':
      return paysLater ? { to: 'EXPIRADO', stateReason: STATE_REASONS.expired, expiresAt: null } : null;
    case 'voided':
      if (verifying) return { to: 'DENEGADO', stateReason: STATE_REASONS.voidedByProcessor };
      return paysLater ? { to: 'CANCELADO', stateReason: STATE_REASONS.orderVoided, expiresAt: null } : null;
    case 'approved':
      return verifying ? approved(change) : null;
    case 'declined':
      return verifying ? declined(change.code, change.declineClass) : null;
    // A refund's resolution moves the refund, not the payment (notifications/receive-notification.ts).
    case 'refunded':
    case 'none':
      return null;
  }
}

/**
 * The payment as a verdict leaves it: its state and reason, what the processor said, its
 * reference; an attempt still REGISTRADO (a claim) passes PENDIENTE first, as a written attempt
 * being verified did. Its lifecycle lists every move; the moves module checks them against the
 * table.
 */
export function verdictRow(row: TransactionRow, verdict: Verdict, at: Date): TransactionRow {
  const through = row.state === 'REGISTRADO' ? [{ state: 'PENDIENTE' as const, at }] : [];
  return {
    ...row,
    state: verdict.to,
    stateReason: verdict.stateReason,
    expiresAt: 'expiresAt' in verdict ? null : row.expiresAt,
    processorResponse:
      verdict.processorResponse === undefined ? row.processorResponse : (verdict.processorResponse as Prisma.JsonValue),
    processorReference: verdict.processorReference ?? row.processorReference,
    lifecycle: [...row.lifecycle, ...through, { state: verdict.to, at }],
  };
}
