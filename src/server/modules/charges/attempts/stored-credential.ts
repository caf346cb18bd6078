import type { Db } from '@/server/platform/db/client';
import { detectBrand, isValidSecurityCode } from '@/server/core/domain/card';
import { AppError } from '@/server/core/domain/errors';
import type { StoredCredentialReason } from '@/server/core/domain/stored-credentials';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { SavedCardRouting } from '@/server/core/orchestration';
import type { StoredCredential } from '@/server/payments';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { cardToCharge } from '@/server/modules/customers/charge-card';
import { customerOf } from '@/server/modules/customers/customers';
import { customerTokens, NO_TOKENS, type CustomerTokens } from '@/server/modules/customers/card-tokens';
import { fingerprintOf } from '@/server/modules/customers/vault';

// A charge's use of a stored credential (docs/DECISIONS.md "Card on file", after ../shared
// CARD-ON-FILE.md 1 and 4): the charge that saves a card (FIRST) or one of a saved card
// (SUBSEQUENT, one-click or merchant-initiated). The saved card's number comes out of the vault
// into the request the attempts carry, in memory only; the request hash is of what was sent.

/** How the charge uses a stored credential, with what routing and the answer need of it. */
export type StoredCredentialUse = StoredCredential & {
  /** The saved card charged; null for the charge that saves one (its card exists on approval). */
  cardId: string | null;
  /** The card's consent for FIRST; ONE_CLICK or the MIT's reason for SUBSEQUENT. */
  answerReason: StoredCredentialReason;
  /** The charge came with a security code. */
  securityCode: boolean;
  /** The processors' tokens for the card, and the customer's ids at processors. */
  tokens: CustomerTokens;
};

/** The use of the charge that saves a card: the customer present, its consent's reason. */
export function firstUse(reason: StoredCredentialReason, securityCode: boolean, tokens: CustomerTokens): StoredCredentialUse {
  return {
    initiator: 'CUSTOMER',
    usage: 'FIRST',
    reason: reason === 'ONE_CLICK' ? null : reason,
    initialNti: null,
    cardId: null,
    answerReason: reason,
    securityCode,
    tokens,
  };
}

/**
 * The request as its attempts carry it (a saved card's number in it) and its stored-credential
 * use; 404 `30` or 409 `41` for a saved card that cannot be charged so, before any processor.
 */
export async function withStoredCredential(
  db: Db,
  merchant: ActingMerchant,
  body: ChargeRequest,
): Promise<{ body: ChargeRequest; storedCredential: StoredCredentialUse | null }> {
  const method = body.payment_method;
  if (method.method_name !== 'CARD') return { body, storedCredential: null };
  const details = method.method_details;
  if (details.save_card) {
    const { reason, customer_id } = details.save_card;
    // 404 `30` for a customer not the merchant's, before anything is registered.
    const customer = await customerOf(db, merchant.id, customer_id);
    const known = details.pan && details.expiry_date ? await sameCard(db, customer.id, details.pan, details.expiry_date) : null;
    return { body, storedCredential: firstUse(reason, true, await customerTokens(db, customer.id, known)) };
  }
  if (details.card_id === undefined) return { body, storedCredential: null };
  const merchantInitiated = details.initiator === 'MERCHANT';
  const amount = BigInt(body.payment_details.amount);
  const card = await cardToCharge(
    db,
    merchant.id,
    details.card_id,
    merchantInitiated
      ? { initiator: 'MERCHANT', reason: details.reason!, amount, currency: body.payment_details.currency }
      : { initiator: 'CUSTOMER' },
    new Date(),
  );
  const brand = detectBrand(card.pan);
  if (details.security_code !== undefined && brand && !isValidSecurityCode(details.security_code, brand)) {
    throw new AppError('VALIDATION', 'security_code must be 3 digits (4 for Amex)', {
      errors: [
        { field: 'payment_method.method_details.security_code', code: 'invalid', message: 'must be 3 digits (4 for Amex)' },
      ],
    });
  }
  const reason = merchantInitiated ? details.reason! : null;
  return {
    body: { ...body, payment_method: { ...method, method_details: { ...details, pan: card.pan, expiry_date: card.expiryDate } } },
    storedCredential: {
      initiator: merchantInitiated ? 'MERCHANT' : 'CUSTOMER',
      usage: 'SUBSEQUENT',
      reason,
      initialNti: card.initialNti,
      cardId: card.id,
      answerReason: reason ?? 'ONE_CLICK',
      securityCode: details.security_code !== undefined,
      tokens: card.tokens,
    },
  };
}

/**
 * The customer's active card with this PAN and expiry, saved before: saving it again charges it
 * with the tokens its processors hold for it, so none registers it a second time (a second token
 * would stay at the processor, charged by nothing and never deleted). A card with a new expiry is
 * registered anew: a processor's token keeps the expiry it was made with.
 */
async function sameCard(db: Db, customerId: string, pan: string, expiryDate: string): Promise<string | null> {
  const card = await db.savedCard.findFirst({
    where: { customerId, fingerprint: fingerprintOf(pan), status: 'ACTIVE', expiryDate },
    select: { id: true },
  });
  return card?.id ?? null;
}

/**
 * The stored-credential use of a payment that waited for its payer's 3-D Secure challenge (a
 * customer-initiated one), read back from its row: its card save, or its saved card.
 */
export async function storedCredentialOfRow(
  db: Db,
  row: { cardSaveId: string | null; savedCardId: string | null },
  securityCode: boolean,
): Promise<StoredCredentialUse | null> {
  if (row.cardSaveId) {
    const save = await db.cardSave.findUnique({ where: { id: row.cardSaveId }, select: { reason: true, customerId: true } });
    if (!save) return firstUse('ONE_CLICK', securityCode, NO_TOKENS);
    return firstUse(save.reason, securityCode, await customerTokens(db, save.customerId, null));
  }
  const cardId = row.savedCardId;
  if (!cardId) return null;
  const card = await db.savedCard.findUnique({
    where: { id: cardId },
    select: { initialNti: true, customerId: true },
  });
  return {
    initiator: 'CUSTOMER',
    usage: 'SUBSEQUENT',
    reason: null,
    initialNti: card?.initialNti ?? null,
    cardId,
    answerReason: 'ONE_CLICK',
    securityCode,
    tokens: card ? await customerTokens(db, card.customerId, cardId) : NO_TOKENS,
  };
}

/** What routing knows of a saved card's charge; undefined for any other. */
export function savedCardRouting(use: StoredCredentialUse | null): SavedCardRouting | undefined {
  if (!use || use.usage !== 'SUBSEQUENT') return undefined;
  return { initiator: use.initiator, securityCode: use.securityCode, tokenAt: use.tokens.card.map((held) => held.connectorId) };
}

/**
 * `additional_fields.stored_credential` of a saved card's charge (that of the charge saving one
 * is written with the card, on approval). An MIT sends the card's initial NTI wherever it has one.
 */
export function storedCredentialFields(use: StoredCredentialUse | null) {
  if (!use || use.usage !== 'SUBSEQUENT') return {};
  return {
    stored_credential: {
      card_id: use.cardId,
      initiator: use.initiator,
      usage: use.usage,
      reason: use.answerReason,
      nti_sent: use.initiator === 'MERCHANT' && use.initialNti !== null,
    },
  };
}

/** The card a CARD request carries once resolved: a saved card's number is in it by then. */
export function cardNumberOf(body: ChargeRequest): { pan: string; expiryDate: string; securityCode?: string } {
  const method = body.payment_method;
  if (method.method_name !== 'CARD') throw new Error('only a CARD request carries a card');
  const { pan, expiry_date, security_code } = method.method_details;
  if (pan === undefined || expiry_date === undefined) throw new Error('a saved card is read from the vault before its charge');
  return { pan, expiryDate: expiry_date, ...(security_code !== undefined ? { securityCode: security_code } : {}) };
}
