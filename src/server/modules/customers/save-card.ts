import { randomUUID } from 'node:crypto';
import type { Tx } from '@/server/platform/db/client';
import { describeCard } from '@/server/core/domain/card';
import type { Consent, StoredCredentialReason } from '@/server/core/domain/stored-credentials';
import { vaultKeys, type VaultKeys } from '@/server/platform/security/vault-keys';
import { fingerprintOf, sealCard } from './vault';
import { savedCardSelect, toSavedCardObject, type SavedCardRow } from './card-view';
import { announceCard } from './customers';

// Saving a card (docs/DECISIONS.md "Card on file"): by an approved charge, in the transaction
// that records its approval, or by a zero-amount verification. One ACTIVE card per customer and
// PAN: the keyed fingerprint finds a card saved before, which takes the new expiry and consent
// (card.updated); otherwise a new card with a vault record of its own (card.saved).

type SaveTerms = {
  merchant: { id: string; code: string };
  customerId: string;
  currency: string;
  reason: StoredCredentialReason;
  consent: Consent;
  /** The approved charge that saves it; null for a zero-amount verification. */
  savedByTransactionId: string | null;
  /** The network transaction id of the approval, if the processor returned one. */
  nti: string | null;
};

export type CardToSave = SaveTerms & { pan: string; expiryDate: string };

/** A card whose PAN is in the vault already (`vaultId`): what a saving charge wrote before its claim. */
export type SealedCardToSave = SaveTerms & {
  card: { brand: string; bin: string; last4: string; expiryDate: string; fingerprint: Uint8Array<ArrayBuffer>; vaultId: string };
};

export type SavedCardResult = { row: SavedCardRow; created: boolean };

/** Seals the PAN into a new vault record and saves the card in `tx`. */
export async function saveCard(tx: Tx, card: CardToSave, keys: VaultKeys = vaultKeys()): Promise<SavedCardResult> {
  const record = sealCard({ pan: card.pan, expiryDate: card.expiryDate }, keys);
  await tx.vaultRecord.create({ data: record });
  const described = describeCard(card.pan);
  return saveSealedCard(tx, {
    ...card,
    card: {
      brand: described.brand,
      bin: described.bin,
      last4: described.last_pan,
      expiryDate: card.expiryDate,
      fingerprint: fingerprintOf(card.pan, keys),
      vaultId: record.id,
    },
  });
}

/**
 * Saves the card in `tx` and announces it; its vault record becomes the card's. Two saves of one
 * PAN at once: the partial unique index lets one insert; the other, refused there, finds the
 * first's card under its lock and updates it.
 */
export async function saveSealedCard(tx: Tx, save: SealedCardToSave): Promise<SavedCardResult> {
  const { card } = save;
  const consent = {
    reason: save.reason,
    consentAcceptedAt: save.consent.acceptedAt,
    consentTermsVersion: save.consent.termsVersion,
    consentMaxAmount: save.consent.maxAmount,
    consentInstallments: save.consent.installments,
  };
  const id = randomUUID();
  // ON CONFLICT names the partial index's columns and predicate: the ACTIVE card of this PAN.
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO saved_cards (id, merchant_id, customer_id, status, reason, brand, bin, last4, expiry_date, currency,
      consent_accepted_at, consent_terms_version, consent_max_amount, consent_installments,
      initial_nti, latest_nti, saved_by_transaction_id, fingerprint, vault_id, updated_at)
    VALUES (${id}::uuid, ${save.merchant.id}::uuid, ${save.customerId}::uuid, 'ACTIVE', ${save.reason}::"StoredCredentialReason",
      ${card.brand}, ${card.bin}, ${card.last4}, ${card.expiryDate}, ${save.currency},
      ${consent.consentAcceptedAt}, ${consent.consentTermsVersion}, ${consent.consentMaxAmount}, ${consent.consentInstallments},
      ${save.nti}, ${save.nti}, ${save.savedByTransactionId}::uuid, ${card.fingerprint}, ${card.vaultId}::uuid, now())
    ON CONFLICT (customer_id, fingerprint) WHERE status = 'ACTIVE' DO NOTHING
    RETURNING id`;
  if (inserted.length > 0) {
    return announced(tx, save, await tx.savedCard.findUniqueOrThrow({ where: { id }, select: savedCardSelect }), true);
  }
  const [existing] = await tx.$queryRaw<{ id: string; vault_id: string | null; initial_nti: string | null }[]>`
    SELECT id, vault_id, initial_nti FROM saved_cards
    WHERE customer_id = ${save.customerId}::uuid AND fingerprint = ${card.fingerprint} AND status = 'ACTIVE'
    FOR UPDATE`;
  if (!existing) throw new Error('a saved card conflicted on its fingerprint and then was not found');
  // The new expiry is in the new record; the old record (and its data key) is destroyed.
  const row = await tx.savedCard.update({
    where: { id: existing.id },
    data: {
      ...consent,
      expiryDate: card.expiryDate,
      vaultId: card.vaultId,
      // A card that had no NTI takes this approval's; one it had stays its initial one.
      ...(existing.initial_nti === null && save.nti ? { initialNti: save.nti } : {}),
      ...(save.nti ? { latestNti: save.nti } : {}),
    },
    select: savedCardSelect,
  });
  if (existing.vault_id) await tx.vaultRecord.delete({ where: { id: existing.vault_id } });
  return announced(tx, save, row, false);
}

/** card.saved for a new card, card.updated for one saved again, in the saving transaction. */
async function announced(tx: Tx, save: SaveTerms, row: SavedCardRow, created: boolean): Promise<SavedCardResult> {
  const type = created ? 'card.saved' : 'card.updated';
  await announceCard(tx, { merchantId: save.merchant.id, merchantCode: save.merchant.code, type, card: toSavedCardObject(row) });
  return { row, created };
}
