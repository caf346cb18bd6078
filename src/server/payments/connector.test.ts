import { describe, expect, it } from 'vitest';
import { requestFor, type AuthorizeRequest } from './connector';

describe('requestFor', () => {
  it('returns the request when its method matches', () => {
    const request: AuthorizeRequest = { method_name: 'QR', method_details: { callback_url: 'https://shop.test/cb' } };
    expect(requestFor(request, 'QR')).toBe(request);
  });

  it('accepts CUOTEALO, whose details are those of BANK_TRANSFER', () => {
    const request: AuthorizeRequest = { method_name: 'CUOTEALO', method_details: { redirect_url: 'https://shop.test/return' } };
    expect(requestFor(request, 'CUOTEALO').method_name).toBe('CUOTEALO');
  });

  it('throws on a request of another method', () => {
    expect(() => requestFor({ method_name: 'QR', method_details: {} }, 'CARD')).toThrow(
      'The CARD connector cannot authorize a QR request',
    );
  });
});
