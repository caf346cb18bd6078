import { env } from '@/env';
import { AppError } from '@/server/core/domain/errors';
import { refusedHost } from './address-guard';

/**
 * Refuses, when private networks are not allowed, a callback URL or webhook endpoint whose host
 * can never be public (address-guard.ts `refusedHost`): 400 `10` on `field`, before anything is
 * stored. A name that may be public still has its addresses checked at each delivery.
 */
export function assertCallbackDestination(url: string | undefined, field: string): void {
  if (url === undefined || env().CALLBACKS_ALLOW_PRIVATE_NETWORKS) return;
  const refused = refusedHost(url);
  if (refused === null) return;
  const message = `${refused}: callbacks go to public hosts only`;
  throw new AppError('VALIDATION', message, { errors: [{ field, code: 'non_public_destination', message }] });
}

/**
 * Where a callback goes, as the worker bounds and shares its deliveries: the URL's origin
 * (scheme, host and port). Two paths on one host are one destination: when the host hangs,
 * both do.
 */
export function destinationOf(callbackUrl: string | null): string | null {
  if (!callbackUrl) return null;
  try {
    return new URL(callbackUrl).origin;
  } catch {
    return null;
  }
}
