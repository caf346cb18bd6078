import type { Db } from '@/server/platform/db/client';
import { batchedReads } from '@/server/platform/db/batched-reads';
import { AppError } from '@/server/core/domain/errors';
import { isUuid } from '@/server/core/domain/uuid';
import {
  mitRefusal,
  type MitReason,
  type MitRefusal,
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
 * The cards the charges ask for, each with its vault record and its customer's processor tokens,
 * in one statement: a saved card's charge reads its card with the concurrent charges' reads
 * (batched-reads.ts). Each card is found by its key, one lateral lookup per id (the LIMIT keeps
 * the planner from merging them into one join), and so is each of its customer's cards' tokens
 * (the OFFSET), whatever the planner knows of the tables: the embedded database keeps no
 * statistics, and given `id = ANY(…)` or the join it read every saved card. The ids come as a
 * JSON list, whose length the planner does not look into: given an array it sized each plan to
 * the array, always cheaper than the generic plan, and so planned the statement on every run
 * (0.4 ms on the embedded database, more than running it). A charge gets its
 * card only if the card is ACTIVE and its merchant's (ids compared in lower case, as the
 * database writes them).
 */
const readCards = batchedReads(async (db, keys: readonly { merchantId: string; cardId: string }[]) => {
  const ids = [...new Set(keys.map((key) => key.cardId))];
  const rows = await db.$queryRaw<CardRow[]>`
    SELECT card.* FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS wanted(id) CROSS JOIN LATERAL (
      SELECT c.id, c.merchant_id::text AS merchant_id, c.status::text AS status, c.reason, c.currency, c.expiry_date,
             c.consent_accepted_at, c.consent_terms_version, c.consent_max_amount, c.consent_installments,
             c.initial_nti, v.id AS vault_id, v.kek_id, v.key_iv, v.wrapped_key, v.key_tag, v.iv, v.ciphertext, v.tag,
             (SELECT coalesce(json_agg(json_build_object(
                       'cardId', t.card_id, 'connectorId', t.connector_id, 'token', t.token,
                       'processorCustomerId', t.processor_customer_id, 'createdAt', t.created_at)), '[]'::json)
                FROM saved_cards o CROSS JOIN LATERAL (
                       SELECT * FROM processor_card_tokens t WHERE t.card_id = o.id OFFSET 0) t
               WHERE o.customer_id = c.customer_id) AS tokens
        FROM saved_cards c JOIN vault_records v ON v.id = c.vault_id
       WHERE c.id = wanted.id::uuid LIMIT 1) card`;
  return keys.map(({ merchantId, cardId }) =>
    rows.find((row) => row.id === cardId && row.merchant_id === merchantId && row.status === 'ACTIVE'),
  );
});

type CardRow = {
  id: string;
  merchant_id: string;
  status: string;
  reason: StoredCredentialReason;
  currency: string;
  expiry_date: string;
  consent_accepted_at: Date;
  consent_terms_version: string;
  consent_max_amount: bigint | null;
  consent_installments: number | null;
  initial_nti: string | null;
  vault_id: string;
  tokens: { cardId: string; connectorId: string; token: string; processorCustomerId: string | null; createdAt: string }[];
} & VaultRecordColumns;

/** 409 `41`: the card's consent does not cover the MIT, saying why in `message_ilgn`. */
export function consentRefusal(refusal: MitRefusal): AppError {
  return new AppError('STATE_CONFLICT', refusal.en, {
    errors: [{ field: 'payment_method.method_details.card_id', code: `consent_${refusal.kind}`, message: refusal.en }],
    ilgn: { es: refusal.es, en: refusal.en },
  });
}

export type ChargeOfCard =
  { initiator: 'CUSTOMER' } | { initiator: 'MERCHANT'; reason: MitReason; amount: bigint; currency: string };

/**
 * The card `cardId` of the merchant, to charge: 404 `30` for a card another merchant's, removed or
 * unknown; 409 `41` for an MIT its consent does not cover (the reason, currency, amount or the
 * card's expiry), saying which in `message_ilgn`. An INSTALLMENT MIT's count is the claim's to
 * decide (claim-charge.ts): it counts the card's MITs in flight too.
 */
export async function cardToCharge(
  db: Db,
  merchantId: string,
  cardId: string,
  charge: ChargeOfCard,
  now: Date,
): Promise<CardToCharge> {
  if (!isUuid(cardId)) throw cardNotFound();
  const card = await readCards(db, { merchantId, cardId: cardId.toLowerCase() });
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
    };
    const refusal = mitRefusal(facts, charge, now);
    if (refusal) throw consentRefusal(refusal);
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
