import { describe, expect, it } from 'vitest';
import { requestFor, type AuthorizeRequest } from './connector';

describe('requestFor', () => {
  it('returns the request when its method matches', () => {
    const request: AuthorizeRequest = { method: 'QR', callback_url: 'https://shop.test/cb' };
    expect(requestFor(request, 'QR')).toBe(request);
  });

  it('accepts either method of the shared redirect variant', () => {
    const request: AuthorizeRequest = { method: 'CUOTEALO' };
    expect(requestFor(request, 'CUOTEALO').method).toBe('CUOTEALO');
  });

  it('throws on a request of another method', () => {
    expect(() => requestFor({ method: 'QR' }, 'CARD')).toThrow('The CARD connector cannot authorize a QR request');
  });
});
