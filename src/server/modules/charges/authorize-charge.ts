import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { requestHashKey } from '@/server/platform/security/service-keys';
import { AppError } from '@/server/core/domain/errors';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import { authenticateFirst } from '@/server/core/three-ds/decision';
import { authenticate } from '@/server/core/three-ds/directory';
import { additionalFieldsOf, attemptRows, newAttempt, type ChargeBase } from './attempts/attempt-rows';
import { claimCharge } from './attempts/claim-charge';
import { requestCard, requestMethodDetails } from './attempts/request-card';
import { planCharge } from './attempts/plan-charge';
import { awaitChallenge, refuseUnauthenticated, routingChoice, runAttempts, statusCheckAfter } from './attempts/run-attempts';
import { awaitAnswer } from './attempts/stored-answer';
import { requestHash } from './request-hash';

// POST /charges (docs/interface.md 4.2, docs/DESIGN.md 6, docs/ORCHESTRATION.md 2-3): routing
// picks the candidates, the first attempt is claimed in one statement (a replay answers what was
// stored, an identical request still being carried waits for its answer, another request on a
// busy or finished operation is a conflict), then the attempts run (charges/run-attempts.ts).
export async function authorizeCharge(prisma: Db, merchant: ActingMerchant, body: ChargeRequest): Promise<ChargeResponse> {
  const method = body.payment_method.method_name;
  if (!merchant.enabledMethods.includes(method)) {
    throw new AppError('METHOD_RULE', `${method} is not enabled for this merchant`);
  }
  const card = requestCard(body);
  const base: ChargeBase = {
    merchant,
    body,
    requestHash: requestHash(await requestHashKey(prisma), body),
    card,
    methodDetails: requestMethodDetails(body, card),
    authentication: null,
  };
  const plan = await planCharge(prisma, base);
  const first = newAttempt(base, plan.candidates[0]!.connector, routingChoice(plan, plan.candidates[0]!), 0, new Date());
  const claim = await claimCharge(
    prisma,
    { merchantId: merchant.id, merchantOperationNumber: body.merchant_operation_number, requestHash: base.requestHash },
    attemptRows(base, first, statusCheckAfter(plan.firstConnector)),
  );
  switch (claim.kind) {
    case 'replay':
      return claim.reply as ChargeResponse;
    case 'in_flight':
      return awaitAnswer(prisma, merchant, body, plan.policy.budgetMs + plan.firstConnector.timeoutMs * 2);
    case 'conflict':
      throw new AppError('CONFLICT', 'merchant_operation_number already used by another request', {
        errors: [{ field: 'merchant_operation_number', code: 'already_used', message: 'already used by another request' }],
      });
    case 'created': {
      first.number = claim.attempt;
      first.stored = 1;
      // 3-D Secure before any processor, where the merchant asks for it (docs/ORCHESTRATION.md 5).
      const authentication =
        body.payment_method.method_name === 'CARD' && authenticateFirst(plan.threeDs, BigInt(body.payment_details.amount))
          ? authenticate({
              pan: body.payment_method.method_details.pan,
              amount: BigInt(body.payment_details.amount),
              currency: body.payment_details.currency,
            })
          : null;
      if (authentication?.kind === 'frictionless') base.authentication = authentication.result;
      first.row.additionalFields = additionalFieldsOf(base, first.connectorId, claim.attempt);
      if (authentication?.kind === 'challenge') return awaitChallenge(prisma, base, first);
      if (authentication?.kind === 'failed') return refuseUnauthenticated(prisma, base, first, authentication.result);
      return runAttempts(prisma, base, plan, first);
    }
  }
}
