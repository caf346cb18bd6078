// The payment method details a refund page shows: card fields as the API masks them, and a
// Yape phone with only its last three digits.
const CARD_FIELDS = ['brand', 'masked_pan', 'card_type', 'issuer', 'card_country'] as const;

import type { DetailField } from '../../../console-ui/states';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function maskedMethodDetails(details: Record<string, unknown> | undefined): [DetailField, string][] {
  const shown: [DetailField, string][] = CARD_FIELDS.filter((key) => text(details?.[key])).map((key) => [
    key,
    text(details?.[key]),
  ]);
  const phone = details?.phone as { country_code?: unknown; subscriber?: unknown } | undefined;
  const subscriber = text(phone?.subscriber);
  if (subscriber) {
    shown.push([
      'phone',
      `${text(phone?.country_code)} ${'•'.repeat(Math.max(subscriber.length - 3, 0))}${subscriber.slice(-3)}`,
    ]);
  }
  return shown;
}
