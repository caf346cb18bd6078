import type { RefundResult, ReverseResult, StatusResult } from '../connector';

// What every sandbox processor answers outside authorization (docs/DESIGN.md 8).

/** The sandbox answers within this, always: it runs in the service's own process. */
export const SANDBOX_TIMEOUT_MS = 5_000;

/** Reversing an authorization always succeeds. */
export async function reverseAuthorization(): Promise<ReverseResult> {
  return { outcome: 'reversed', code: '00' };
}

/** A refund is resolved when asked for its outcome. */
export async function resolveRefund(): Promise<RefundResult> {
  return { outcome: 'resolved' };
}

/** The sandbox keeps no record of its payments: it decides at once, so an answer is never ambiguous and an inquiry finds nothing it could tell. */
export async function unknownStatus(): Promise<StatusResult> {
  return { outcome: 'unknown' };
}
