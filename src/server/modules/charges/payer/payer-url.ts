import { env } from '@/env';

/**
 * The absolute address of a payment's payer page, on the configured public
 * origin (PUBLIC_ORIGIN): never the address the request reached, which behind server.js or a proxy
 * is the service's own (`localhost`), not the one the payer's browser knows.
 */
export function payerPageUrl(token: string, query: Record<string, string> = {}): string {
  const url = new URL(`/pay/${encodeURIComponent(token)}`, env().origin);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}
