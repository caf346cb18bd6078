import { randomInt } from 'node:crypto';
import type { AuthorizeResult, CardFields, ResultMessage } from '../connector';
import { declineClassOf } from '../decline-class';

export const APPROVED: ResultMessage = { code: '00', description: 'Aprobado' };
export const APPROVED_STATE_REASON = 'Transacción aprobada';

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
