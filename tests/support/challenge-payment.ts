import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { describeCard } from '@/server/core/domain/card';
import type { TransactionState } from '@/server/core/domain/states';
import { sealForChallenge, type HeldCard } from '@/server/modules/charges/card-vault';
import { CHALLENGE_EXPIRY_SECONDS, pendingChallenge } from '@/server/core/three-ds/challenge-state';

// A CARD payment waiting for its 3-D Secure challenge, as the orchestration loop leaves it
// (docs/ORCHESTRATION.md 5): PENDIENTE with a payer token, `three_ds` status C and the card in
// the vault. Shared by the vault, challenge and secret-scan tests.

/** The card the payer typed: its security code is never vaulted. */
export type TypedCard = { pan: string; expiryDate: string; securityCode: string };

export type ChallengePayment = { transactionId: string; token: string; card: TypedCard; operationNumber: string };

/** Vaults a challenge's card as the charge's statement does: its vault record, and the row naming it. */
export async function vaultChallengeCard(
  prisma: Db,
  transactionId: string,
  card: { pan: string; expiryDate: string },
  expiresAt: Date,
  held: HeldCard | null = null,
): Promise<string> {
  const { record } = sealForChallenge(card, held, expiresAt);
  await prisma.vaultRecord.create({ data: record });
  await prisma.cardVaultEntry.create({
    data: {
      transactionId,
      vaultId: record.id,
      expiresAt,
      heldConnector: held?.connectorId ?? null,
      heldToken: held?.token ?? null,
    },
  });
  return record.id;
}

export async function challengePayment(
  prisma: Db,
  merchantId: string,
  options: {
    pan?: string;
    redirectUrl?: string | null;
    expiresAt?: Date;
    tries?: number;
    state?: TransactionState;
    vault?: boolean;
    held?: HeldCard;
  } = {},
): Promise<ChallengePayment> {
  const card = { pan: options.pan ?? '4000000000003220', expiryDate: '1230', securityCode: '737' };
  const described = describeCard(card.pan);
  const expiresAt = options.expiresAt ?? new Date(Date.now() + CHALLENGE_EXPIRY_SECONDS * 1000);
  const operationNumber = `3ds-${randomBytes(6).toString('hex')}`;
  const operation = await prisma.operation.create({ data: { merchantId, merchantOperationNumber: operationNumber } });
  const transactionId = randomUUID();
  const token = randomBytes(18).toString('base64url');
  const created = new Date();
  await prisma.transaction.create({
    data: {
      id: transactionId,
      operationId: operation.id,
      attempt: 1,
      merchantId,
      method: 'CARD',
      amount: 15_000n,
      currency: '604',
      state: options.state ?? 'PENDIENTE',
      expiresAt,
      payerToken: token,
      cardBin: described.bin,
      cardLast4: described.last_pan,
      maskedPan: described.masked_pan,
      cardBrand: described.brand,
      cardType: described.card_type,
      cardCountry: described.card_country,
      cardIssuer: described.issuer,
      redirectUrl: options.redirectUrl === undefined ? 'https://shop.example.pe/return?order=7' : options.redirectUrl,
      methodDetails: described,
      requestHash: randomBytes(16).toString('hex'),
      authorizationReply: {},
      threeDs: pendingChallenge(options.tries ?? 0),
      lifecycle: {
        create: [
          { state: 'REGISTRADO', at: created },
          { state: 'PENDIENTE', at: created },
        ],
      },
    },
  });
  if (options.vault ?? true) await vaultChallengeCard(prisma, transactionId, card, expiresAt, options.held ?? null);
  return { transactionId, token, card, operationNumber };
}
