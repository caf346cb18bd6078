import { randomInt } from 'node:crypto';
import type { AuthorizeResult, CardFields, ResultMessage } from '../connector';
import { declineClassOf } from '../decline-class';

export const APPROVED: ResultMessage = { code: '00', description: 'Aprobado' };
export const APPROVED_STATE_REASON = 'Transacción aprobada';

/** `05`, do not honour (class `soft`): the sandbox's plain decline, and `declining` mode's answer. */
export const DO_NOT_HONOUR: ResultMessage = { code: '05', description: 'Denegada por el emisor' };

/** `96`, system malfunction: the processor failed before deciding (class `technical`). */
export const PROCESSOR_ERROR: ResultMessage = { code: '96', description: 'Error del procesador' };

type FailureReason = Extract<AuthorizeResult, { outcome: 'technical_failure' }>['reason'];

const FAILURE_STATE_REASONS: Readonly<Record<FailureReason, string>> = {
  timeout: 'El procesador no respondió a tiempo',
  connection_refused: 'El procesador no está disponible',
  processor_error: PROCESSOR_ERROR.description,
};

/**
 * An answer without a decision (docs/ORCHESTRATION.md 1, class `technical`): a processor error
 * carries the processor's `96`; a timeout or a refused connection carries no processor answer.
 */
export function technicalFailure(
  reason: FailureReason,
  card: CardFields | null,
  methodDetails: Record<string, unknown>,
): AuthorizeResult {
  return {
    outcome: 'technical_failure',
    reason,
    stateReason: FAILURE_STATE_REASONS[reason],
    processorResponse: reason === 'processor_error' ? { result_message: PROCESSOR_ERROR } : null,
    card,
    methodDetails,
  };
}

/** `length` random decimal digits (leading zeros allowed). */
export function randomDigits(length: number): string {
  return Array.from({ length }, () => String(randomInt(10))).join('');
}

/**
 * The result of a synchronous card-type authorization: approved with a 6-digit
 * `authorization_code` and a 15-digit `brand_transaction_id`, or declined with only the
 * `result_message` (whose description is also the state reason) and the class of its code.
 */
export function cardOutcome(
  decline: ResultMessage | null,
  card: CardFields | null,
  methodDetails: Record<string, unknown>,
): AuthorizeResult {
  if (decline !== null) {
    return {
      outcome: 'declined',
      stateReason: decline.description,
      processorResponse: { result_message: decline },
      declineClass: declineClassOf(decline.code),
      card,
      methodDetails,
    };
  }
  return {
    outcome: 'approved',
    stateReason: APPROVED_STATE_REASON,
    processorResponse: {
      authorization_code: randomDigits(6),
      brand_transaction_id: randomDigits(15),
      result_message: APPROVED,
    },
    card,
    methodDetails,
  };
}
