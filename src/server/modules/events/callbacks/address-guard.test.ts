import { describe, expect, it } from 'vitest';
import { isPublicAddress, refusedAddress, refusedHost, REFUSED_IPV4, REFUSED_IPV6 } from './address-guard';
import { boundedResolver } from './resolve-host';

/** The first and last address of an IPv4 range. */
function ipv4Ends(network: string, prefix: number): [string, string] {
  const start = network.split('.').reduce((sum, byte) => sum * 256 + Number(byte), 0);
  const end = start + 2 ** (32 - prefix) - 1;
  const text = (value: number) => [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
  return [text(start), text(end)];
}

/** The first and last address of an IPv6 range, fully written out. */
function ipv6Ends(network: string, prefix: number): [string, string] {
  const [head = '', tail = ''] = network.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((group) =>
    parseInt(group, 16),
  );
  let bits = groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
  const hostBits = BigInt(128 - prefix);
  bits = (bits >> hostBits) << hostBits;
  const text = (value: bigint) =>
    Array.from({ length: 8 }, (_, index) => ((value >> BigInt(16 * (7 - index))) & 0xffffn).toString(16)).join(':');
  return [text(bits), text(bits | ((1n << hostBits) - 1n))];
}

describe('callback address guard: IANA special-purpose ranges', () => {
  it.each(REFUSED_IPV4.map(([network, prefix, name]) => [`${network}/${prefix}`, name, network, prefix] as const))(
    'refuses IPv4 %s (%s) from its first address to its last',
    (_range, _name, network, prefix) => {
      const [first, last] = ipv4Ends(network, prefix);
      expect(isPublicAddress(first), first).toBe(false);
      expect(isPublicAddress(last), last).toBe(false);
    },
  );

  it.each(REFUSED_IPV6.map(([network, prefix, name]) => [`${network}/${prefix}`, name, network, prefix] as const))(
    'refuses IPv6 %s (%s) from its first address to its last',
    (_range, _name, network, prefix) => {
      const [first, last] = ipv6Ends(network, prefix);
      // An IPv4-carrying form in the range (::ffff: is not in ::/96) is judged by the IPv4 it carries.
      expect(isPublicAddress(first), first).toBe(false);
      expect(isPublicAddress(last), last).toBe(false);
    },
  );

  it('allows the public neighbours of the refused ranges', () => {
    const neighbours = ['9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0'];
    neighbours.push('169.253.255.255', '172.15.255.255', '172.32.0.0', '192.0.1.0', '192.167.255.255', '198.17.255.255');
    neighbours.push('198.20.0.0', '203.0.112.255', '223.255.255.255', '8.8.8.8', '190.12.34.56');
    for (const address of neighbours) expect(isPublicAddress(address), address).toBe(true);
    for (const address of ['2001:4860:4860::8888', '2800:3f0:4005::200e', '2001:200::1', '2002:0808:0808::1']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('judges an IPv6 address that carries an IPv4 one by the IPv4 address', () => {
    const carried = {
      '::ffff:127.0.0.1': false,
      '::ffff:7f00:1': false,
      '::ffff:0:10.0.0.1': false,
      '64:ff9b::127.0.0.1': false,
      '64:ff9b::a9fe:a9fe': false,
      '2002:7f00:1::': false,
      '2002:c0a8:101::1': false,
      '::127.0.0.1': false,
      '::ffff:8.8.8.8': true,
      '64:ff9b::808:808': true,
      '2002:808:808::1': true,
    };
    for (const [address, isPublic] of Object.entries(carried)) expect(isPublicAddress(address), address).toBe(isPublic);
  });

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '::g', '1.2.3.4.5']) expect(isPublicAddress(text), text).toBe(false);
  });
});

describe('callback hosts refused when given', () => {
  it.each([
    'http://127.0.0.1:3300/x',
    'http://localhost/x',
    'http://[::1]/x',
    'http://2130706433/x',
    'http://0x7f000001/x',
    'http://0177.0.0.1/x',
    'http://127.1/x',
    'http://api.localhost/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://0.0.0.0/x',
    'http://[::127.0.0.1]/x',
    'http://[64:ff9b::7f00:1]/x',
    'http://[2002:7f00:1::1]/x',
    'http://[fec0::1]/x',
    'http://169.254.169.254/latest/meta-data',
    'http://intranet/x',
    'http://printer.local/x',
    'http://db.internal/x',
    'http://router.home.arpa/x',
    'https://shop.test/callback',
    'http://localhost./x',
  ])('%s', (url) => {
    expect(refusedHost(url)).toMatch(/non-public address|not a public name/);
  });

  it('lets a public name or address through (its addresses are checked again at delivery)', () => {
    for (const url of ['https://shop.example.pe/callbacks', 'https://8.8.8.8/x', 'https://[2001:4860:4860::8888]/x']) {
      expect(refusedHost(url), url).toBeNull();
    }
  });

  it("checks the addresses a URL's host resolves to", async () => {
    const resolve = boundedResolver(1_000);
    const refused = async (url: string) => refusedAddress(await resolve(new URL(url).hostname));
    expect(await refused('http://127.0.0.1:8080/hook')).toMatch(/non-public address \(127\.0\.0\.1\)/);
    expect(await refused('http://[::1]/hook')).toMatch(/non-public/);
    expect(await refused('http://localhost/hook')).toMatch(/non-public/);
    expect(await refused('https://8.8.8.8/hook')).toBeNull();
  });
});
