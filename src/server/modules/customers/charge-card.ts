import { cardConsentSelect } from './card-view';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';
import {
  mitRefusal,
  type MitReason,
  type SavedCardFacts,
  type StoredCredentialReason,
} from '@/server/core/domain/stored-credentials';
import { cardNotFound } from './customers';
import { openCard } from './vault';
import { tokenSelect, tokensOf, type CustomerTokens } from './card-tokens';

// A saved card charged (docs/DECISIONS.md "Card on file", after ../shared CARD-ON-FILE.md 4): the
// card of the merchant's, ACTIVE, with its number out of the vault for this one authorization,
// and an MIT refused before any processor when the card's consent does not cover it.

export type CardToCharge = {
  id: string;
  pan: string;
  expiryDate: string;
  reason: StoredCredentialReason;
  /** The network transaction id of the card's first CIT, which every MIT sends. */
  initialNti: string | null;
  /** The processors' tokens for the card, and the customer's ids at processors. */
  tokens: CustomerTokens;
};

export type ChargeOfCard =
  { initiator: 'CUSTOMER' } | { initiator: 'MERCHANT'; reason: MitReason; amount: bigint; currency: string };

/**
 * The card `cardId` of the merchant, to charge: 404 `30` for a card another merchant's, removed or
 * unknown; 409 `41` for an MIT its consent does not cover (the reason, currency, amount, count
 * or the card's expiry), saying which in `message_ilgn`.
 */
export async function cardToCharge(
  db: Db,
  merchantId: string,
  cardId: string,
  charge: ChargeOfCard,
  now: Date,
): Promise<CardToCharge> {
  if (!isUuid(cardId)) throw cardNotFound();
  const card = await db.savedCard.findFirst({
    where: { id: cardId, merchantId, status: 'ACTIVE' },
    select: {
      ...cardConsentSelect,
      id: true,
      mitCount: true,
      initialNti: true,
      // One query (relation joins): the card, its vault record, and its customer's tokens.
      vault: true,
      customer: { select: { cards: { select: { tokens: { select: tokenSelect } } } } },
    },
  });
  if (!card?.vault) throw cardNotFound();
  if (charge.initiator === 'MERCHANT') {
    const facts: SavedCardFacts = {
      reason: card.reason,
      consent: {
        acceptedAt: card.consentAcceptedAt,
        termsVersion: card.consentTermsVersion,
        maxAmount: card.consentMaxAmount,
        installments: card.consentInstallments,
      },
      currency: card.currency,
      expiryDate: card.expiryDate,
      mitCount: card.mitCount,
    };
    const refusal = mitRefusal(facts, charge, now);
    if (refusal) {
      throw new AppError('STATE_CONFLICT', refusal.en, {
        errors: [{ field: 'payment_method.method_details.card_id', code: `consent_${refusal.kind}`, message: refusal.en }],
        ilgn: { es: refusal.es, en: refusal.en },
      });
    }
  }
  const vaulted = openCard(card.vault);
  return {
    id: card.id,
    pan: vaulted.pan,
    expiryDate: vaulted.expiryDate,
    reason: card.reason,
    initialNti: card.initialNti,
    tokens: tokensOf(
      card.customer.cards.flatMap((each) => each.tokens),
      card.id,
    ),
  };
}
