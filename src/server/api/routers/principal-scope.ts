import type { Principal } from '@/server/modules/access/principal';

/** The namespace of a principal's Idempotency-Keys for one endpoint. */
export function principalScope(principal: Principal, endpoint: string): string {
  const owner =
    principal.merchantCode !== null ? `merchant:${principal.merchantCode}` : `facilitator:${principal.facilitatorCode}`;
  return `${owner}:${endpoint}`;
}
