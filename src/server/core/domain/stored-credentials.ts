import { isExpiryInPast } from './card';

// The card networks' rules for a saved card (../shared CARD-ON-FILE.md 1 and 4, docs/DECISIONS.md
// "Card on file"): who starts a charge, what the customer's consent covers, and what an MIT must
// be refused for before any processor is asked. Pure: the charge path and the tests read it.

export const STORED_CREDENTIAL_REASONS = ['ONE_CLICK', 'RECURRING', 'INSTALLMENT', 'UNSCHEDULED'] as const;
export type StoredCredentialReason = (typeof STORED_CREDENTIAL_REASONS)[number];

/** What a merchant-initiated charge may be: a one-click consent covers none. */
export const MIT_REASONS = ['RECURRING', 'INSTALLMENT', 'UNSCHEDULED'] as const;
export type MitReason = (typeof MIT_REASONS)[number];

export const INITIATORS = ['CUSTOMER', 'MERCHANT'] as const;
export type Initiator = (typeof INITIATORS)[number];

export type Consent = {
  acceptedAt: Date;
  termsVersion: string;
  /** Cents each MIT may charge at most; null: no cap. */
  maxAmount: bigint | null;
  /** MITs an INSTALLMENT consent covers; null for the other reasons. */
  installments: number | null;
};

export type SavedCardFacts = {
  reason: StoredCredentialReason;
  consent: Consent;
  currency: string;
  expiryDate: string;
};

export type MitRequest = { reason: MitReason; amount: bigint; currency: string };

/** Why a consent does not cover an MIT, in both languages (409 `41`, message_ilgn). */
export type MitRefusal = { kind: MitRefusalKind; es: string; en: string };
export type MitRefusalKind = 'reason' | 'max_amount' | 'currency' | 'installments' | 'expired';

/**
 * Null when the card's consent covers the MIT, else why not. Checked in this order, so the answer
 * names the first thing a merchant must change: the kind of charge, the currency, the amount, then
 * the card itself. An INSTALLMENT MIT's count is checked after these, where the charge is claimed
 * (it counts the MITs in flight, which only the database sees): `instalmentsTaken`.
 */
export function mitRefusal(card: SavedCardFacts, mit: MitRequest, now: Date): MitRefusal | null {
  if (card.reason !== mit.reason) {
    return {
      kind: 'reason',
      es: `el consentimiento de la tarjeta es ${card.reason} y no cubre un cobro ${mit.reason}`,
      en: `the card's consent is ${card.reason} and does not cover a ${mit.reason} charge`,
    };
  }
  if (mit.currency !== card.currency) {
    return {
      kind: 'currency',
      es: `la tarjeta se guardó en la moneda ${card.currency}, no en ${mit.currency}`,
      en: `the card was saved for currency ${card.currency}, not ${mit.currency}`,
    };
  }
  if (card.consent.maxAmount !== null && mit.amount > card.consent.maxAmount) {
    return {
      kind: 'max_amount',
      es: `el monto supera el máximo del consentimiento (${card.consent.maxAmount} céntimos)`,
      en: `the amount is over the consent's maximum (${card.consent.maxAmount} cents)`,
    };
  }
  if (isExpiryInPast(card.expiryDate, now)) {
    return { kind: 'expired', es: 'la tarjeta guardada está vencida', en: 'the saved card has expired' };
  }
  return null;
}

/** An INSTALLMENT MIT past the `covered` instalments of its consent, each approved or being charged. */
export function instalmentsTaken(covered: number): MitRefusal {
  return {
    kind: 'installments',
    es: `el consentimiento cubre ${covered} cuotas y todas se cobraron o se están cobrando`,
    en: `the consent covers ${covered} instalments and all were charged or are being charged`,
  };
}

/** The charge that saves a card is its first; every later one is subsequent (the server decides, never the client). */
export type CredentialUsage = 'FIRST' | 'SUBSEQUENT';
