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
