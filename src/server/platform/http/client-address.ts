import { BlockList, isIP } from 'node:net';

// Which address a request comes from. X-Forwarded-For is anyone's to write: it is believed only
// as far as it was written by proxies the operator trusts (TRUSTED_PROXIES), the way Express's
// `trust proxy` and its proxy-addr read it: from the connection's peer back through the header,
// the first address not a trusted proxy is the client's.

/** Express's names for address ranges, usable in TRUSTED_PROXIES beside addresses and CIDRs. */
const NAMED: Record<string, readonly (readonly [string, number])[]> = {
  loopback: [
    ['127.0.0.0', 8],
    ['::1', 128],
  ],
  linklocal: [
    ['169.254.0.0', 16],
    ['fe80::', 10],
  ],
  uniquelocal: [
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['fc00::', 7],
  ],
};

/** `::ffff:a.b.c.d` as `a.b.c.d`: Node reports an IPv4 peer of a dual-stack socket so. */
function plain(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

/**
 * The trusted proxies of a TRUSTED_PROXIES value: comma-separated addresses, CIDRs and the names
 * loopback, linklocal and uniquelocal; empty trusts none. Throws on anything else.
 */
export function trustedProxies(value: string): BlockList {
  const list = new BlockList();
  for (const entry of value
    .split(',')
    .map((each) => each.trim())
    .filter(Boolean)) {
    const named = NAMED[entry];
    if (named) {
      for (const [network, prefix] of named) list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
      continue;
    }
    const [network = '', prefix] = entry.split('/');
    const family = isIP(network);
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (family === 0 || !Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128) || !/^\d*$/.test(prefix ?? '')) {
      throw new Error(`${entry} is not an address, a CIDR or one of ${Object.keys(NAMED).join(', ')}`);
    }
    list.addSubnet(network, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The client's address: the peer, or the first untrusted address X-Forwarded-For gives behind trusted proxies. */
export function clientAddressOf(peer: string | undefined, forwardedFor: string | undefined, trusted: BlockList): string {
  let client = plain(peer ?? '');
  if (!client) return 'unknown';
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((each) => plain(each.trim()))
    .reverse();
  for (const hop of hops) {
    if (!isTrusted(client, trusted) || isIP(hop) === 0) break;
    client = hop;
  }
  return client;
}
