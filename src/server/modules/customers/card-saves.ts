import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '@/server/platform/db/client';
import { describeCard } from '@/server/core/domain/card';
import { consentOf } from '@/server/core/interface/customer';
import type { StoredCredentialReason } from '@/server/core/domain/stored-credentials';
import { vaultKeys } from '@/server/platform/security/vault-keys';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { customerOf } from './customers';
import { saveSealedCard } from './save-card';
import { fingerprintOf, sealCard } from './vault';
import type { SavedCardRow } from './card-view';

// A CARD charge's save_card (docs/DECISIONS.md "Card on file"). Before the charge's claim its PAN
// is sealed into the vault and the save is written (card_saves), and the claimed attempt names it
// (transactions.card_save_id): whichever path then records the approval (the request itself,
// the payer's 3-D Secure challenge, the status sync after a crash, a notification) saves the card
// in the approval's transaction, with no PAN in memory. Nothing else saves it: a declined,
// expired, cancelled or abandoned charge leaves the save to the worker's sweep, which deletes it
// with its vault record once no payment in progress names it.

export type SaveCardRequest = {
  customer_id: string;
  reason: StoredCredentialReason;
  consent: { accepted_at: string; terms_version: string; max_amount?: string; installments?: string };
};

/**
 * The save of a charge about to be claimed: 404 `30` for a customer that is not the merchant's,
 * before any processor is asked. Returns its id, which the charge's attempts carry.
 */
export async function prepareCardSave(
  db: Db,
  merchant: ActingMerchant,
  card: { pan: string; expiryDate: string; currency: string },
  request: SaveCardRequest,
): Promise<string> {
  const customer = await customerOf(db, merchant.id, request.customer_id);
  const keys = vaultKeys();
  const record = sealCard({ pan: card.pan, expiryDate: card.expiryDate }, keys);
  const described = describeCard(card.pan);
  const consent = consentOf(request.reason, request.consent);
  const id = randomUUID();
  await db.$transaction([
    db.vaultRecord.create({ data: record }),
    db.cardSave.create({
      data: {
        id,
        merchantId: merchant.id,
        customerId: customer.id,
        reason: request.reason,
        currency: card.currency,
        consentAcceptedAt: consent.acceptedAt,
        consentTermsVersion: consent.termsVersion,
        consentMaxAmount: consent.maxAmount,
        consentInstallments: consent.installments,
        brand: described.brand,
        bin: described.bin,
        last4: described.last_pan,
        expiryDate: card.expiryDate,
        fingerprint: fingerprintOf(card.pan, keys),
        vaultId: record.id,
      },
    }),
  ]);
  return id;
}

/** A save whose charge was never claimed (a replay, a conflict): gone with its vault record. */
export async function dropCardSave(db: Db, id: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const [save] = await tx.$queryRaw<{ vault_id: string }[]>`DELETE FROM card_saves WHERE id = ${id}::uuid RETURNING vault_id`;
    if (save) await tx.vaultRecord.delete({ where: { id: save.vault_id } });
  });
}

/**
 * The card of an approved charge saved, in the approval's transaction `tx`; null when its save is
 * gone (swept after the charge stood too long: the charge stands, its card is not saved).
 */
export async function completeCardSave(
  tx: Tx,
  merchant: { id: string; code: string },
  saveId: string,
  approval: { transactionId: string; nti: string | null },
): Promise<SavedCardRow | null> {
  const [save] = await tx.$queryRaw<
    {
      customer_id: string;
      reason: StoredCredentialReason;
      currency: string;
      consent_accepted_at: Date;
      consent_terms_version: string;
      consent_max_amount: bigint | null;
      consent_installments: number | null;
      brand: string;
      bin: string;
      last4: string;
      expiry_date: string;
      fingerprint: Uint8Array<ArrayBuffer>;
      vault_id: string;
    }[]
  >`DELETE FROM card_saves WHERE id = ${saveId}::uuid AND merchant_id = ${merchant.id}::uuid RETURNING *`;
  if (!save) return null;
  const { row } = await saveSealedCard(tx, {
    merchant,
    customerId: save.customer_id,
    currency: save.currency,
    reason: save.reason,
    consent: {
      acceptedAt: save.consent_accepted_at,
      termsVersion: save.consent_terms_version,
      maxAmount: save.consent_max_amount,
      installments: save.consent_installments,
    },
    savedByTransactionId: approval.transactionId,
    nti: approval.nti,
    card: {
      brand: save.brand,
      bin: save.bin,
      last4: save.last4,
      expiryDate: save.expiry_date,
      fingerprint: new Uint8Array(save.fingerprint),
      vaultId: save.vault_id,
    },
  });
  return row;
}

/** How long a save waits for its charge's claim before the sweep may take it: the claim follows at once. */
const CLAIM_GRACE_MINUTES = 15;

/**
 * Deletes, with their vault records, the saves no payment in progress names (nor a claim, an
 * attempt in flight): their charges ended without an approval, or were never claimed. Returns
 * how many. A claim holds its attempt's row as JSON, so it is read there: claims are few (the
 * attempts in flight) and short-lived.
 */
export async function sweepCardSaves(db: Db): Promise<number> {
  return db.$transaction(async (tx) => {
    const swept = await tx.$queryRaw<{ vault_id: string }[]>`
      DELETE FROM card_saves s
      WHERE s.created_at < now() - make_interval(mins => ${CLAIM_GRACE_MINUTES})
        AND NOT EXISTS (SELECT 1 FROM transactions t
                        WHERE t.card_save_id = s.id AND t.state IN ('REGISTRADO', 'PENDIENTE'))
        AND NOT EXISTS (SELECT 1 FROM charge_claims c WHERE c.attempt_row->>'card_save_id' = s.id::text)
      RETURNING s.vault_id`;
    if (swept.length > 0) await tx.vaultRecord.deleteMany({ where: { id: { in: swept.map((each) => each.vault_id) } } });
    return swept.length;
  });
}
