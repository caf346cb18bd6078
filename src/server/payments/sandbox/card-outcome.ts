import { randomInt } from 'node:crypto';
import type { AuthorizeResult, CardFields, ResultMessage } from '../connector';
import { declineClassOf } from '@/server/core/domain/decline-class';
import { approval, decline } from '../outcomes';

/** `05`, do not honour (class `soft`): the sandbox's plain decline, and `declining` mode's answer. */
export const DO_NOT_HONOUR: ResultMessage = { code: '05', description: 'Denegada por el emisor' };

/** `length` random decimal digits (leading zeros allowed). */
export function randomDigits(length: number): string {
  return Array.from({ length }, () => String(randomInt(10))).join('');
}

/**
 * The result of a synchronous card-type authorization at a sandbox processor: approved with a
 * 6-digit `authorization_code` and a 15-digit `brand_transaction_id`, or declined with only the
 * `result_message` (whose description is also the state reason) and the class of its ISO code.
 */
export function cardOutcome(
  declined: ResultMessage | null,
  card: CardFields | null,
  methodDetails: Record<string, unknown>,
): AuthorizeResult {
  if (declined !== null) return decline(declined, declineClassOf(declined.code), { card, methodDetails });
  return approval({ authorizationCode: randomDigits(6), brandTransactionId: randomDigits(15) }, { card, methodDetails });
}
