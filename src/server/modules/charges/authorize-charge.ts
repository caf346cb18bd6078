import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { requestHashKey } from '@/server/platform/security/service-keys';
import { AppError } from '@/server/core/domain/errors';
import { assertCallbackDestination } from '@/server/modules/events/callbacks/destination';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import { additionalFieldsOf, attemptRows, newAttempt, type Attempt, type ChargeBase } from './attempts/attempt-rows';
import { claimCharge, type ClaimOutcome } from './attempts/claim-charge';
import { requestCard, requestMethodDetails } from './attempts/request-card';
import { attemptRoute, planCharge, type ChargePlan } from './attempts/plan-charge';
import { awaitChallenge, refuseUnauthenticated, runAttempts, statusCheckAfter } from './attempts/run-attempts';
import { awaitAnswer, storedReply } from './attempts/stored-answer';
import { authenticationFirst } from './attempts/three-ds';
import { cardNumberOf, withStoredCredential } from './attempts/stored-credential';
import { requestHash } from './request-hash';
import { captureModeOf } from '@/server/core/domain/money-movements';
import { dropCardSave, prepareCardSave } from '@/server/modules/customers/card-saves';
import { consentRefusal } from '@/server/modules/customers/charge-card';
import { instalmentsTaken } from '@/server/core/domain/stored-credentials';

// POST /charges (docs/interface.md 4.2, docs/DESIGN.md 6, docs/ORCHESTRATION.md 2-3), top to
// bottom: the plan (routing's candidates and the policy), the claim of the first attempt (one
// statement: a replay answers what was stored, an identical request still being carried waits
// for its answer, another request on a busy or finished operation is a conflict), 3-D Secure
// where the merchant asks for it before any processor, then the attempts and their outcome
// (attempts/run-attempts.ts).
export async function authorizeCharge(prisma: Db, merchant: ActingMerchant, body: ChargeRequest): Promise<ChargeResponse> {
  const method = body.payment_method.method_name;
  assertCallbackDestination(body.payment_method.method_details.callback_url, 'payment_method.method_details.callback_url');
  if (!merchant.enabledMethods.includes(method)) {
    throw new AppError('METHOD_RULE', `${method} is not enabled for this merchant`);
  }
  let request: ChargeBase;
  try {
    request = await chargeBase(prisma, merchant, body);
  } catch (error) {
    // A request answered before, asked again once its saved card is removed or expired: the
    // answer it had, as any replay (a refusal made before the claim stores nothing to find).
    const stored = error instanceof AppError ? await storedReply(prisma, merchant, body) : null;
    if (stored) return stored;
    throw error;
  }

  // 1. The plan, and the card to save if the charge is approved, sealed in the vault.
  const plan = await planCharge(prisma, request);
  const saving = { ...request, cardSaveId: await cardSaveOf(prisma, merchant, request.body) };

  // 2. The claim: nothing reaches a processor before the first attempt is stored.
  const first = newAttempt(saving, attemptRoute(plan, plan.candidates[0]!), 0, new Date());
  const claim = await claimCharge(
    prisma,
    { merchantId: merchant.id, merchantOperationNumber: body.merchant_operation_number, requestHash: request.requestHash },
    attemptRows(saving, first, statusCheckAfter(plan.firstConnector)),
  );
  if (claim.kind !== 'created') {
    if (saving.cardSaveId) await dropCardSave(prisma, saving.cardSaveId);
    return answerOfClaim(prisma, saving, plan, claim);
  }

  // 3. 3-D Secure before any processor, where the merchant asks for it or the charge saves its
  //    card (docs/ORCHESTRATION.md 5).
  const authentication = authenticationFirst(plan.threeDs, saving);
  const base: ChargeBase =
    authentication?.kind === 'frictionless' ? { ...saving, authentication: authentication.result } : saving;
  const claimed: Attempt = {
    ...first,
    number: claim.attempt,
    written: 'claim',
    row: { ...first.row, additionalFields: additionalFieldsOf(base, first.connectorId, claim.attempt) },
  };
  if (authentication?.kind === 'challenge') return awaitChallenge(prisma, base, claimed);
  if (authentication?.kind === 'failed') return refuseUnauthenticated(prisma, base, claimed, authentication.result);

  // 4. The attempts, and the answer of the one that ends the charge.
  return runAttempts(prisma, base, plan, claimed);
}

/**
 * What every attempt of the request shares: its merchant, body (a saved card's number in it),
 * keyed hash (of the body as sent) and card.
 */
async function chargeBase(prisma: Db, merchant: ActingMerchant, sent: ChargeRequest): Promise<ChargeBase> {
  const { body, storedCredential } = await withStoredCredential(prisma, merchant, sent);
  const card = requestCard(body);
  return {
    merchant,
    body,
    requestHash: requestHash(await requestHashKey(prisma), sent),
    card,
    methodDetails: requestMethodDetails(body, card),
    authentication: null,
    captureMode: captureModeOf(
      body.payment_method.method_name,
      body.payment_method.method_name === 'CARD' ? body.payment_method.method_details.capture : undefined,
      merchant.captureModes,
    ),
    cardSaveId: null,
    storedCredential,
  };
}

/** The save a CARD charge's `save_card` asks for, written before its claim (404 `30` for another's customer). */
async function cardSaveOf(prisma: Db, merchant: ActingMerchant, body: ChargeRequest): Promise<string | null> {
  const method = body.payment_method;
  if (method.method_name !== 'CARD' || !method.method_details.save_card) return null;
  const { pan, expiryDate } = cardNumberOf(body);
  return prepareCardSave(
    prisma,
    merchant,
    { pan, expiryDate, currency: body.payment_details.currency },
    method.method_details.save_card,
  );
}

/** The answer of a claim that made no attempt: the stored answer, the one being carried, a conflict, or the consent used up. */
async function answerOfClaim(
  prisma: Db,
  base: ChargeBase,
  plan: ChargePlan,
  claim: Exclude<ClaimOutcome, { kind: 'created' }>,
): Promise<ChargeResponse> {
  switch (claim.kind) {
    case 'replay':
      return claim.reply as ChargeResponse;
    case 'in_flight':
      return awaitAnswer(prisma, base.merchant, base.body, plan.policy.budgetMs + plan.firstConnector.timeoutMs * 2);
    case 'conflict':
      throw new AppError('CONFLICT', 'merchant_operation_number already used by another request', {
        errors: [{ field: 'merchant_operation_number', code: 'already_used', message: 'already used by another request' }],
      });
    case 'instalments_taken':
      throw consentRefusal(instalmentsTaken(claim.covered));
  }
}
