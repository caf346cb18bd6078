import type { Prisma } from '@/generated/prisma/client';
import { authenticateFirst, type ThreeDsSetting } from '@/server/core/three-ds/decision';
import { authenticate, publicThreeDs, type Authentication, type ThreeDsResult } from '@/server/core/three-ds/directory';
import type { ThreeDsAuthentication } from '@/server/payments';
import type { ChargeBase } from './attempt-rows';
import { cardNumberOf } from './stored-credential';

// The charge path's 3-D Secure (docs/ORCHESTRATION.md 5), in one place: before any processor
// where the merchant's setting asks for it, or as a step-up when a processor declines asking for
// authentication; what the processor is told of the result, and what the row keeps of it.

/**
 * The card authenticated: null for a payment that is not a card, and for a merchant-initiated
 * charge, which has no customer to authenticate (../shared CARD-ON-FILE.md 1).
 */
function authenticateCard(base: ChargeBase): Authentication | null {
  if (base.body.payment_method.method_name !== 'CARD' || base.storedCredential?.initiator === 'MERCHANT') return null;
  return authenticate({
    pan: cardNumberOf(base.body).pan,
    amount: BigInt(base.body.payment_details.amount),
    currency: base.body.payment_details.currency,
  });
}

/**
 * Authentication before routing's first processor, where the merchant's setting asks for it or
 * the charge saves its card (null otherwise).
 */
export function authenticationFirst(setting: ThreeDsSetting, base: ChargeBase): Authentication | null {
  const savesCard = base.storedCredential?.usage === 'FIRST';
  if (!authenticateFirst(setting, BigInt(base.body.payment_details.amount), { savesCard })) return null;
  return authenticateCard(base);
}

/** Authentication after a processor asked for it; null for a payment that is not a card or an MIT. */
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
