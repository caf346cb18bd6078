import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DELIVERY_FAILURES } from '@/server/core/domain/delivery-failures';

// A callback host's addresses, found in bounded time. dns.lookup (what fetch and http use by
// default) runs getaddrinfo on libuv's four-thread pool: a few hosts whose name servers never
// answer hold every thread, and with them file reads and crypto for the whole process, for as
// long as the system resolver waits. c-ares (dns.Resolver) asks on the event loop, and the
// race below bounds it whatever its retries do.

export type ResolveHost = (hostname: string) => Promise<string[]>;

export class HostResolutionError extends Error {}

function withDeadline<T>(work: Promise<T>, ms: number, hostname: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostResolutionError(DELIVERY_FAILURES.resolveTimeout(hostname, ms))), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** A resolver whose answers take at most `timeoutMs`; `servers` replaces the system's name servers (tests). */
export function boundedResolver(timeoutMs: number, servers?: string[]): ResolveHost {
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(timeoutMs / 2)), tries: 2 });
  if (servers) resolver.setServers(servers);
  return async (hostname) => {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return [host];
    // RFC 6761 6.3: localhost names are the loopback, without asking anyone.
    if (host === 'localhost' || host.endsWith('.localhost')) return ['127.0.0.1', '::1'];
    const answers = await withDeadline(Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]), timeoutMs, host);
    const addresses = answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (addresses.length > 0) return addresses;
    const reason = answers.find((answer) => answer.status === 'rejected')?.reason as { code?: string } | undefined;
    throw new HostResolutionError(DELIVERY_FAILURES.unresolved(host, reason?.code ?? 'no address'));
  };
}
