import { describe, expect, it } from 'vitest';
import { isPublicAddress, refusedAddress } from './address-guard';
import { boundedResolver } from './resolve-host';

describe('callback address guard', () => {
  it('refuses loopback, private, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['8.8.8.8', '190.12.34.56', '2001:4860:4860::8888'])
      expect(isPublicAddress(address), address).toBe(true);
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
