import { describe, expect, it } from 'vitest';
import { instrumentFor, type PaymentInstrument } from './connector';

describe('instrumentFor', () => {
  it('returns the instrument when its method matches', () => {
    const instrument: PaymentInstrument = { method: 'QR', callbackUrl: 'https://shop.test/cb' };
    expect(instrumentFor(instrument, 'QR')).toBe(instrument);
  });

  it('accepts CUOTEALO, whose instrument is that of BANK_TRANSFER', () => {
    const instrument: PaymentInstrument = { method: 'CUOTEALO', returnUrl: 'https://shop.test/return' };
    expect(instrumentFor(instrument, 'CUOTEALO').method).toBe('CUOTEALO');
  });

  it('throws on an instrument of another method', () => {
    expect(() => instrumentFor({ method: 'QR' }, 'CARD')).toThrow('The CARD connector cannot authorize a QR request');
  });
});
