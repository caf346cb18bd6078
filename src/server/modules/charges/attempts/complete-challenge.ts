import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { describeCard, detectBrand } from '@/server/core/domain/card';
import { AppError } from '@/server/core/domain/errors';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import { takeVaultedCard } from '@/server/modules/charges/card-vault';
import type { ThreeDsResult } from '@/server/core/three-ds/directory';
import { actingMerchantById } from '@/server/modules/access/merchant-scope';
import { transactionSelect } from '@/server/modules/charges/transaction-view';
import { additionalFieldsOf, type Attempt, type ChargeBase, type RoutingChoice } from './attempt-rows';
import { planCharge, type ChargePlan } from './plan-charge';
import { storedCredentialOfRow } from './stored-credential';
import { refuseUnauthenticated, runAttempts } from './run-attempts';

// After the payer's 3-D Secure challenge (docs/ORCHESTRATION.md 5): the card leaves the vault
// (it is used once), and the waiting attempt is authorized with the result through routing, its
// processor first, failing over with the same authentication; a failed authentication declines
// it without a processor. The payment's stored answer becomes the outcome, so a replay of the
// original request tells it too.
export async function completeChallenge(
  db: Db,
  transactionId: string,
  result: ThreeDsResult,
): Promise<{ state: string; redirectUrl: string | null }> {
  const row = await db.transaction.findUnique({
    where: { id: transactionId },
    select: {
      ...transactionSelect,
      attempt: true,
      merchantId: true,
      connectorId: true,
      routing: true,
      requestHash: true,
      payerToken: true,
      payerEmail: true,
      payerName: true,
      operation: { select: { merchantOperationNumber: true } },
    },
  });
  if (!row || row.method !== 'CARD' || row.state !== 'PENDIENTE' || !row.connectorId) {
    throw new AppError('STATE_CONFLICT', 'no 3-D Secure challenge is waiting for this payment');
  }
  const merchant = await actingMerchantById(db, row.merchantId);
  const card = await takeVaultedCard(db, transactionId);
  const details = row.methodDetails as { installments?: { plan?: string; installment_number?: string } };
  const customer = { email: row.payerEmail ?? undefined, first_name: row.payerName ?? undefined };
  const body = {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: merchant.code,
    merchant_operation_number: row.operation.merchantOperationNumber,
    payment_method: {
      method_name: 'CARD',
      method_details: {
        pan: card?.pan ?? '',
        expiry_date: card?.expiryDate ?? '',
        ...(details.installments
          ? { installments: { plan: details.installments.plan, number: details.installments.installment_number } }
          : {}),
        ...(row.redirectUrl ? { redirect_url: row.redirectUrl } : {}),
        ...(row.callbackUrl ? { callback_url: row.callbackUrl } : {}),
      },
    },
    payment_details: {
      amount: row.amount.toString(),
      currency: row.currency,
      billing: customer,
      shipping: customer,
      customer,
      product_details: [],
    },
  } as ChargeRequest;
  const base: ChargeBase = {
    merchant,
    body,
    requestHash: row.requestHash,
    card: card && detectBrand(card.pan) ? describeCard(card.pan) : null,
    methodDetails: row.methodDetails as Prisma.JsonObject,
    authentication: null,
    captureMode: row.captureStatus === null ? 'AUTOMATIC' : 'MANUAL',
    cardSaveId: row.cardSaveId,
    storedCredential: await storedCredentialOfRow(db, row, false),
    heldCard: card?.held ?? null,
  };
  const attempt: Attempt = {
    row,
    number: row.attempt,
    connectorId: row.connectorId,
    routing: row.routing as RoutingChoice,
    written: 'row',
    payerToken: row.payerToken ?? '',
  };
  const passed = card !== null && (result.status === 'Y' || result.status === 'A');
  const plan = passed ? await authorizingPlan(db, { ...base, authentication: result }, attempt) : null;
  // Without its card (expired from the vault), or a processor that can authorize it without its
  // security code, the payment cannot be authorized: as unauthenticated.
  const settled = plan
    ? await runAttempts(db, { ...base, authentication: result }, plan, withAuthentication(base, attempt, result))
    : await refuseUnauthenticated(db, base, attempt, card && !passed ? result : { ...result, status: 'U' });
  return { state: settled.transaction.state, redirectUrl: row.redirectUrl };
}

function withAuthentication(base: ChargeBase, waiting: Attempt, result: ThreeDsResult): Attempt {
  const authenticated = { ...base, authentication: result };
  return {
    ...waiting,
    row: { ...waiting.row, additionalFields: additionalFieldsOf(authenticated, waiting.connectorId, waiting.number) },
  };
}

/**
 * Routing's candidates for the authorization after the challenge: the processor the payment waited
 * for first, routing's others after it for failover. The card has no security code now (none is
 * kept): a card the payer typed goes only where it needs none, a saved card where its routing
 * without the code sends it (stored-credential.ts), and either where its processor held it before
 * the challenge (`heldCard`). Null when the processor it waited for cannot take it.
 */
async function authorizingPlan(db: Db, base: ChargeBase, waiting: Attempt): Promise<ChargePlan | null> {
  const plan = await planCharge(db, base);
  const own = plan.candidates.find((candidate) => candidate.connector === waiting.connectorId) ?? {
    connector: waiting.connectorId,
    route: waiting.routing.route,
    reason: waiting.routing.reason,
  };
  const ordered = [own, ...plan.candidates.filter((candidate) => candidate.connector !== waiting.connectorId)];
  const typed = base.storedCredential?.usage !== 'SUBSEQUENT';
  const routed = new Set(plan.candidates.map((candidate) => candidate.connector));
  const candidates = ordered.filter(
    ({ connector }) =>
      base.heldCard?.connectorId === connector || (typed ? plan.cardWithoutCode.has(connector) : routed.has(connector)),
  );
  return candidates[0]?.connector === waiting.connectorId ? { ...plan, candidates } : null;
}
