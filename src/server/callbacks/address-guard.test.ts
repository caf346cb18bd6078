import { describe, expect, it } from 'vitest';
import { isPublicAddress, refusedCallbackAddress } from './address-guard';

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

  it('checks what a URL names', async () => {
    expect(await refusedCallbackAddress('http://127.0.0.1:8080/hook')).toMatch(/non-public address \(127\.0\.0\.1\)/);
    expect(await refusedCallbackAddress('http://[::1]/hook')).toMatch(/non-public/);
    expect(await refusedCallbackAddress('http://localhost/hook')).toMatch(/non-public/);
    expect(await refusedCallbackAddress('https://8.8.8.8/hook')).toBeNull();
  });
});
