import type { Prisma } from '@/generated/prisma/client';
import { toTimeObject } from '@/server/core/domain/time';
import type { SavedCardObject } from '@/server/core/interface/customer';

// A saved card as the API, its events and the console show it: never more of the number than
// the BIN and the last 4, never the network transaction id or a processor's token.

/** What the customer agreed to: the reason, the currency, the card's expiry and the consent's limits. */
export const cardConsentSelect = {
  reason: true,
  currency: true,
  expiryDate: true,
  consentAcceptedAt: true,
  consentTermsVersion: true,
  consentMaxAmount: true,
  consentInstallments: true,
} satisfies Prisma.SavedCardSelect;

export const savedCardSelect = {
  ...cardConsentSelect,
  id: true,
  customerId: true,
  brand: true,
  bin: true,
  last4: true,
  status: true,
  createdAt: true,
  removedAt: true,
} satisfies Prisma.SavedCardSelect;

export type SavedCardRow = Prisma.SavedCardGetPayload<{ select: typeof savedCardSelect }>;

export function toSavedCardObject(row: SavedCardRow): SavedCardObject {
  return {
    card_id: row.id,
    customer_id: row.customerId,
    brand: row.brand,
    bin: row.bin,
    last4: row.last4,
    expiry_date: row.expiryDate,
    status: row.status,
    reason: row.reason,
    consent: {
      accepted_at: toTimeObject(row.consentAcceptedAt, 'millis'),
      terms_version: row.consentTermsVersion,
      max_amount: row.consentMaxAmount === null ? null : row.consentMaxAmount.toString(),
      installments: row.consentInstallments === null ? null : String(row.consentInstallments),
    },
    currency: row.currency,
    created_at: toTimeObject(row.createdAt, 'millis'),
    removed_at: row.removedAt ? toTimeObject(row.removedAt, 'millis') : null,
  };
}

/** What a charge's answer says of the card it saved (`additional_fields.saved_card`). */
export function savedCardSummary(row: SavedCardRow) {
  return {
    card_id: row.id,
    brand: row.brand,
    bin: row.bin,
    last4: row.last4,
    expiry_date: row.expiryDate,
    status: row.status,
    reason: row.reason,
  };
}
