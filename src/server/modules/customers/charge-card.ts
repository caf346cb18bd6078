import type { Db, Tx } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';
import {
  mitRefusal,
  type MitReason,
  type SavedCardFacts,
  type StoredCredentialReason,
} from '@/server/core/domain/stored-credentials';
import { cardNotFound } from './customers';
import { cardInVault } from './vault';
import { customerTokens, type CustomerTokens } from './card-tokens';

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
      id: true,
      vaultId: true,
      reason: true,
      currency: true,
      expiryDate: true,
      consentAcceptedAt: true,
      consentTermsVersion: true,
      consentMaxAmount: true,
      consentInstallments: true,
      mitCount: true,
      initialNti: true,
      customerId: true,
    },
  });
  if (!card?.vaultId) throw cardNotFound();
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
  const vaulted = await cardInVault(db, card.vaultId);
  if (!vaulted) throw cardNotFound();
  return {
    id: card.id,
    pan: vaulted.pan,
    expiryDate: vaulted.expiryDate,
    reason: card.reason,
    initialNti: card.initialNti,
    tokens: await customerTokens(db, card.customerId, card.id),
  };
}

/**
 * What an approved charge of a saved card leaves on it, in the approval's transaction: an MIT
 * counts against its consent, and the approval's network transaction id is the latest seen.
 */
export async function noteCardCharged(tx: Tx, cardId: string, approval: { merchantInitiated: boolean; nti: string | null }) {
  await tx.savedCard.updateMany({
    where: { id: cardId },
    data: {
      ...(approval.merchantInitiated ? { mitCount: { increment: 1 } } : {}),
      ...(approval.nti ? { latestNti: approval.nti } : {}),
    },
  });
}
