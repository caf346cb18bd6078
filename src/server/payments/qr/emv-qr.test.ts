import { describe, expect, it } from 'vitest';
import { decodeEmvQr } from '@tests/support/emv-qr-decoder';
import { crc16, emvField, merchantPresentedPayload } from './emv-qr';

// The published example of the Pix manual (Banco Central do Brasil, "Manual de Padrões para
// Iniciação do Pix", static QR example): EMVCo merchant-presented mode, CRC 1D3D.
const PIX_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

describe('EMVCo merchant-presented QR', () => {
  it('computes the CRC-16/CCITT-FALSE of a published payload', () => {
    expect(crc16(PIX_EXAMPLE.slice(0, -4))).toBe('1D3D');
    expect(crc16('123456789')).toBe('29B1'); // the algorithm's check value
  });

  it('the test decoder reads the published payload and refuses it with one character changed', () => {
    const decoded = decodeEmvQr(PIX_EXAMPLE);
    expect(decoded.accounts.get('26')?.get('00')).toBe('br.gov.bcb.pix');
    expect(decoded.byId.get('59')).toBe('Fulano de Tal');
    expect(() => decodeEmvQr(PIX_EXAMPLE.replace('BRASILIA', 'BRASILIO'))).toThrow(/CRC/);
    expect(() => decodeEmvQr(PIX_EXAMPLE.replace('5913Fulano', '5914Fulano'))).toThrow();
  });

  it('builds a dynamic payload with the amount, the merchant, the reference and a valid CRC', () => {
    const payload = merchantPresentedPayload({
      accounts: [{ id: 26, identifier: 'pe.sandbox.qr', fields: [['01', 'SANDBOX-NOT-PAYABLE']] }],
      categoryCode: '5999',
      currency: '604',
      amount: 15_000n,
      merchantName: 'Bodega Peñaflor de Ñaña y Compañía S.A.C.',
      city: 'LIMA',
      reference: 'QR0123456789ABCDEF0123',
      billNumber: 'op-1',
    });
    const decoded = decodeEmvQr(payload);
    expect(decoded.fields.map((field) => field.id)).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
    expect(Object.fromEntries(decoded.byId)).toMatchObject({
      '00': '01',
      '01': '12',
      '52': '5999',
      '53': '604',
      '54': '150.00',
      '58': 'PE',
      '59': 'Bodega Penaflor de Nana y',
      '60': 'LIMA',
    });
    expect(Object.fromEntries(decoded.accounts.get('26')!)).toEqual({ '00': 'pe.sandbox.qr', '01': 'SANDBOX-NOT-PAYABLE' });
    expect(Object.fromEntries(decoded.additional)).toEqual({ '01': 'op-1', '05': 'QR0123456789ABCDEF0123' });
  });

  it('writes amounts in major units with two decimals', () => {
    const amountOf = (amount: bigint) =>
      decodeEmvQr(
        merchantPresentedPayload({
          accounts: [{ id: 26, identifier: 'pe.sandbox.qr' }],
          categoryCode: '5999',
          currency: '604',
          amount,
          merchantName: 'Shop',
          city: 'LIMA',
          reference: 'r',
        }),
      ).byId.get('54');
    expect([amountOf(1n), amountOf(99n), amountOf(100n), amountOf(123_456_78n)]).toEqual(['0.01', '0.99', '1.00', '123456.78']);
  });

  it('refuses a field it cannot write', () => {
    expect(() => emvField('5', 'x')).toThrow();
    expect(() => emvField('59', '')).toThrow();
    expect(() => emvField('59', 'x'.repeat(100))).toThrow();
    expect(() =>
      merchantPresentedPayload({
        accounts: [{ id: 52, identifier: 'x' }],
        categoryCode: '5999',
        currency: '604',
        amount: 1n,
        merchantName: 'Shop',
        city: 'LIMA',
        reference: 'r',
      }),
    ).toThrow(/26-51/);
  });
});
