import type { AuthorizeResult, CardFields, ResultMessage } from './connector';
import type { DeclineClass } from '@/server/core/domain/decline-class';
import { APPROVED_MESSAGE, STATE_REASONS } from '@/server/core/domain/state-reasons';

// The answers every connector builds the same way (docs/ORCHESTRATION.md 1): an approval, a
// decline with its class, a failure without a decision. Each processor's module decides which,
// from its own codes; the words the transaction shows are these.

/** `96`, system malfunction: the processor failed before deciding (class `technical`). */
export const PROCESSOR_ERROR: ResultMessage = { code: '96', description: STATE_REASONS.processorError };

type FailureReason = Extract<AuthorizeResult, { outcome: 'technical_failure' }>['reason'];

const FAILURE_STATE_REASONS: Readonly<Record<FailureReason, string>> = {
  timeout: STATE_REASONS.timeout,
  connection_refused: STATE_REASONS.unavailable,
  processor_error: STATE_REASONS.processorError,
};

type Described = { card: CardFields | null; methodDetails: Record<string, unknown>; processorReference?: string };

/**
 * An answer without a decision (class `technical`): a processor error carries the processor's
 * message (`96` when it gave none); a timeout or a refused connection carries no processor answer.
 */
export function technicalFailure(
  reason: FailureReason,
  card: CardFields | null,
  methodDetails: Record<string, unknown>,
  message: ResultMessage = PROCESSOR_ERROR,
): AuthorizeResult {
  return {
    outcome: 'technical_failure',
    reason,
    stateReason: reason === 'processor_error' ? message.description : FAILURE_STATE_REASONS[reason],
    processorResponse: reason === 'processor_error' ? { result_message: message } : null,
    card,
    methodDetails,
  };
}

/** An approval: the processor's authorization code and its id of the payment, under the standard approval message. */
export function approval(
  codes: { authorizationCode: string; brandTransactionId: string },
  described: Described,
): AuthorizeResult {
  return {
    outcome: 'approved',
    stateReason: STATE_REASONS.approved,
    processorResponse: {
      authorization_code: codes.authorizationCode,
      brand_transaction_id: codes.brandTransactionId,
      result_message: APPROVED_MESSAGE,
    },
    ...described,
  };
}

/** A decline: the processor's code and words (also the state reason) and the class the processor's table gives the code. */
export function decline(message: ResultMessage, declineClass: DeclineClass, described: Described): AuthorizeResult {
  return {
    outcome: 'declined',
    stateReason: message.description,
    processorResponse: { result_message: message },
    declineClass,
    ...described,
  };
}
