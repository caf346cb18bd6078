import type { Prisma } from '@/generated/prisma/client';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import { authenticateFirst, type ThreeDsSetting } from '@/server/core/three-ds/decision';
import { authenticate, publicThreeDs, type Authentication, type ThreeDsResult } from '@/server/core/three-ds/directory';
import type { ThreeDsAuthentication } from '@/server/payments';

// The charge path's 3-D Secure (docs/ORCHESTRATION.md 5), in one place: before any processor
// where the merchant's setting asks for it, or as a step-up when a processor declines asking for
// authentication; what the processor is told of the result, and what the row keeps of it.

/** The card authenticated: null for a payment that is not a card. */
function authenticateCard(body: ChargeRequest): Authentication | null {
  const method = body.payment_method;
  if (method.method_name !== 'CARD') return null;
  return authenticate({
    pan: method.method_details.pan,
    amount: BigInt(body.payment_details.amount),
    currency: body.payment_details.currency,
  });
}

/** Authentication before routing's first processor, where the merchant's setting asks for it (null otherwise). */
export function authenticationFirst(setting: ThreeDsSetting, body: ChargeRequest): Authentication | null {
  const method = body.payment_method;
  if (method.method_name !== 'CARD') return null;
  const savesCard = method.method_details.save_card !== undefined;
  if (!authenticateFirst(setting, BigInt(body.payment_details.amount), { savesCard })) return null;
  return authenticateCard(body);
}

/** Authentication after a processor asked for it; null for a payment that is not a card. */
export const stepUpAuthentication = authenticateCard;

/** What the processor receives of an authentication (never stored). */
export function forProcessor(result: ThreeDsResult): ThreeDsAuthentication {
  return {
    version: result.version,
    status: result.status as 'Y' | 'A',
    eci: result.eci,
    authenticationValue: result.authenticationValue ?? '',
  };
}

/** What the row and the answer keep of a payment's authentication (no authentication value). */
export function publicAuthentication(result: ThreeDsResult | null): Prisma.JsonObject | null {
  return result ? publicThreeDs(result) : null;
}
