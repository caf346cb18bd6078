import { BlockList, isIP } from 'node:net';
import { DELIVERY_FAILURES } from '@/server/core/domain/delivery-failures';

// No SSRF (docs/DESIGN.md 9): unless CALLBACKS_ALLOW_PRIVATE_NETWORKS is on, a callback's host
// must resolve only to public addresses, and the delivery connects to the very addresses
// checked (no second lookup to rebind). "Public" follows IANA's special-purpose address
// registries (iana.org/assignments/iana-ipv4-special-registry, .../iana-ipv6-special-registry):
// every range not globally reachable is refused, and so is every range no merchant's server
// lives in (multicast, IETF protocol assignments, documentation). An IPv6 address that carries
// an IPv4 one (mapped, translated, NAT64, 6to4) is judged by the IPv4 address it carries.

/** [network, prefix, what it is]: the IPv4 ranges a callback may not reach. */
export const REFUSED_IPV4: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, '"this network" (RFC 791)'],
  ['10.0.0.0', 8, 'private use (RFC 1918)'],
  ['100.64.0.0', 10, 'shared address space (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback (RFC 1122)'],
  ['169.254.0.0', 16, 'link local (RFC 3927)'],
  ['172.16.0.0', 12, 'private use (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments (RFC 6890)'],
  ['192.0.2.0', 24, 'documentation TEST-NET-1 (RFC 5737)'],
  ['192.88.99.0', 24, '6to4 relay anycast, deprecated (RFC 7526)'],
  ['192.168.0.0', 16, 'private use (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking (RFC 2544)'],
  ['198.51.100.0', 24, 'documentation TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0', 24, 'documentation TEST-NET-3 (RFC 5737)'],
  ['224.0.0.0', 4, 'multicast (RFC 5771)'],
  ['240.0.0.0', 4, 'reserved, and limited broadcast 255.255.255.255 (RFC 1112, RFC 919)'],
];

/** The IPv6 ranges a callback may not reach (the IPv4-carrying ones are judged by what they carry). */
export const REFUSED_IPV6: readonly (readonly [string, number, string])[] = [
  ['::', 96, 'unspecified, loopback and IPv4-compatible, deprecated (RFC 4291)'],
  ['64:ff9b:1::', 48, 'local-use IPv4/IPv6 translation (RFC 8215)'],
  ['100::', 64, 'discard-only (RFC 6666)'],
  ['2001::', 23, 'IETF protocol assignments, Teredo among them (RFC 2928, RFC 4380)'],
  ['2001:db8::', 32, 'documentation (RFC 3849)'],
  ['3fff::', 20, 'documentation (RFC 9637)'],
  ['5f00::', 16, 'segment routing SIDs (RFC 9602)'],
  ['fc00::', 7, 'unique local (RFC 4193)'],
  ['fe80::', 10, 'link-local unicast (RFC 4291)'],
  ['fec0::', 10, 'site-local, deprecated (RFC 3879)'],
  ['ff00::', 8, 'multicast (RFC 4291)'],
];

const refused = new BlockList();
for (const [network, prefix] of REFUSED_IPV4) refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of REFUSED_IPV6) refused.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (with `::` and a trailing dotted IPv4 part), or null. */
function groupsOf(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const bytes = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const [head, tail, ...more] = text.split('::');
  if (more.length > 0) return null;
  const part = (side: string | undefined) => (side ? side.split(':').map((group) => parseInt(group, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  return [...left, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 one carries: IPv4-mapped and -translated, NAT64 well-known prefix, 6to4. */
function carriedIpv4(groups: number[]): string | null {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d (RFC 4291) and ::ffff:0:a.b.c.d (RFC 2765)
  if (zeros(0, 5) && groups[5] === 0xffff) return ipv4Of(groups[6]!, groups[7]!);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return ipv4Of(groups[6]!, groups[7]!);
  // 64:ff9b::a.b.c.d (RFC 6052)
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return ipv4Of(groups[6]!, groups[7]!);
  // 2002:aabb:ccdd::/48 (RFC 3056)
  if (groups[0] === 0x2002) return ipv4Of(groups[1]!, groups[2]!);
  return null;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !refused.check(address, 'ipv4');
  if (family !== 6) return false;
  const groups = groupsOf(address.replace(/%.*$/, ''));
  if (groups === null) return false;
  const carried = carriedIpv4(groups);
  if (carried !== null) return isPublicAddress(carried);
  return !refused.check(address.replace(/%.*$/, ''), 'ipv6');
}

/** Null when every address may be called, else why not. */
export function refusedAddress(addresses: string[]): string | null {
  const first = addresses.find((address) => !isPublicAddress(address));
  return first ? DELIVERY_FAILURES.nonPublic(first) : null;
}

/**
 * Names that are never a public host (RFC 6761 special-use names, mDNS, the private-use TLD,
 * the home network, onion and alternative namespaces): a callback to one can only reach the
 * service's own network.
 */
const LOCAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'home.arpa',
  'lan',
  'intranet',
  'invalid',
  'test',
  'example',
  'onion',
  'alt',
];

/**
 * Why a callback URL's host can never be a public destination, without resolving it: a literal
 * address that is not public, or a name that cannot be public. Null when it may be (a name still
 * has its addresses checked at delivery).
 */
export function refusedHost(url: string): string | null {
  let hostname: string;
  try {
    // The URL parser writes 2130706433, 0x7f000001, 0177.0.0.1 and 127.1 as 127.0.0.1.
    hostname = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return 'is not a URL';
  }
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isIP(literal) !== 0) return isPublicAddress(literal) ? null : `names a non-public address (${literal})`;
  if (!hostname.includes('.')) return `names a host that is not a public name (${hostname})`;
  const suffix = LOCAL_SUFFIXES.find((each) => hostname === each || hostname.endsWith(`.${each}`));
  return suffix ? `names a host that is not a public name (${hostname})` : null;
}
