import { Prisma } from '@/generated/prisma/client';
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
import { openCardColumns, type VaultRecordColumns } from './vault';
import { tokensOf, type CustomerTokens } from './card-tokens';

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

/**
 * The card, its vault record and its customer's processor tokens, in one statement: every saved
 * card's charge reads it, and this costs the request thread about a third less CPU than the same
 * read through the client's relation joins (measured on PostgreSQL, docs/BENCHMARKS.md).
 */
const CARD_TO_CHARGE = Prisma.sql`
  SELECT c.id, c.reason, c.currency, c.expiry_date, c.consent_accepted_at, c.consent_terms_version,
         c.consent_max_amount, c.consent_installments, c.mit_count, c.initial_nti,
         v.id AS vault_id, v.kek_id, v.key_iv, v.wrapped_key, v.key_tag, v.iv, v.ciphertext, v.tag,
         (SELECT coalesce(json_agg(json_build_object(
                   'cardId', t.card_id, 'connectorId', t.connector_id, 'token', t.token,
                   'processorCustomerId', t.processor_customer_id, 'createdAt', t.created_at)), '[]'::json)
            FROM processor_card_tokens t JOIN saved_cards o ON o.id = t.card_id
           WHERE o.customer_id = c.customer_id) AS tokens
    FROM saved_cards c JOIN vault_records v ON v.id = c.vault_id`;

type CardRow = {
  id: string;
  reason: StoredCredentialReason;
  currency: string;
  expiry_date: string;
  consent_accepted_at: Date;
  consent_terms_version: string;
  consent_max_amount: bigint | null;
  consent_installments: number | null;
  mit_count: number;
  initial_nti: string | null;
  vault_id: string;
  tokens: { cardId: string; connectorId: string; token: string; processorCustomerId: string | null; createdAt: string }[];
} & VaultRecordColumns;

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
  const [card] = await db.$queryRaw<CardRow[]>`${CARD_TO_CHARGE}
    WHERE c.id = ${cardId}::uuid AND c.merchant_id = ${merchantId}::uuid AND c.status = 'ACTIVE'`;
  if (!card) throw cardNotFound();
  if (charge.initiator === 'MERCHANT') {
    const facts: SavedCardFacts = {
      reason: card.reason,
      consent: {
        acceptedAt: card.consent_accepted_at,
        termsVersion: card.consent_terms_version,
        maxAmount: card.consent_max_amount,
        installments: card.consent_installments,
      },
      currency: card.currency,
      expiryDate: card.expiry_date,
      mitCount: card.mit_count,
    };
    const refusal = mitRefusal(facts, charge, now);
    if (refusal) {
      throw new AppError('STATE_CONFLICT', refusal.en, {
        errors: [{ field: 'payment_method.method_details.card_id', code: `consent_${refusal.kind}`, message: refusal.en }],
        ilgn: { es: refusal.es, en: refusal.en },
      });
    }
  }
  const vaulted = openCardColumns(card.vault_id, card);
  return {
    id: card.id,
    pan: vaulted.pan,
    expiryDate: vaulted.expiryDate,
    reason: card.reason,
    initialNti: card.initial_nti,
    tokens: tokensOf(
      card.tokens.map((token) => ({ ...token, createdAt: new Date(token.createdAt) })),
      card.id,
    ),
  };
}
