import { describe, expect, it } from 'vitest';
import { clientAddressOf, trustedProxies } from './client-address';

describe('the client address', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.5', '1.2.3.4', trustedProxies(''))).toBe('203.0.113.5');
    expect(clientAddressOf('127.0.0.1', '1.2.3.4', trustedProxies(''))).toBe('127.0.0.1');
    expect(clientAddressOf('::ffff:203.0.113.5', undefined, trustedProxies(''))).toBe('203.0.113.5');
  });

  it('is what a trusted proxy forwarded, walking back past every trusted hop', () => {
    const trusted = trustedProxies('loopback, 10.0.0.0/8');
    expect(clientAddressOf('127.0.0.1', '198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(clientAddressOf('127.0.0.1', '198.51.100.7, 10.1.2.3', trusted)).toBe('198.51.100.7');
    // The client wrote a first entry itself: the first untrusted hop from the peer is the client.
    expect(clientAddressOf('127.0.0.1', '1.2.3.4, 198.51.100.7', trusted)).toBe('198.51.100.7');
    expect(clientAddressOf('127.0.0.1', 'not-an-address', trusted)).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddressOf('203.0.113.5', '198.51.100.7', trustedProxies('loopback'))).toBe('203.0.113.5');
  });

  it('reads the names, addresses and CIDRs of TRUSTED_PROXIES, and refuses anything else', () => {
    const trusted = trustedProxies('uniquelocal,linklocal,203.0.113.9,2001:db8::/32');
    for (const proxy of ['10.9.9.9', '172.20.0.1', '192.168.1.1', 'fd00::1', '169.254.1.1', '203.0.113.9', '2001:db8::5']) {
      expect(clientAddressOf(proxy, '198.51.100.7', trusted), proxy).toBe('198.51.100.7');
    }
    expect(clientAddressOf('203.0.113.10', '198.51.100.7', trusted)).toBe('203.0.113.10');
    for (const bad of ['everyone', '10.0.0.0/33', '10.0.0.0/x', 'example.com']) expect(() => trustedProxies(bad), bad).toThrow();
  });
});
