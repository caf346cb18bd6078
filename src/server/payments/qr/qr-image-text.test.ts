import { describe, expect, it } from 'vitest';
import { merchantPresentedPayload, qrImageOf } from './emv-qr';
import { payloadOfImage } from './qr-image-text';

describe('payloadOfImage', () => {
  it('reads back the payload an image was drawn from', async () => {
    const payload = merchantPresentedPayload({
      accounts: [{ id: 26, identifier: 'pe.sandbox.qr', fields: [['01', 'SANDBOX-NOT-PAYABLE']] }],
      categoryCode: '5999',
      currency: '604',
      amount: 15000n,
      merchantName: 'TIENDA PRUEBA',
      city: 'LIMA',
      reference: 'abc123',
    });
    expect(payloadOfImage(await qrImageOf(payload))).toBe(payload);
  });

  it('answers null for what is not a PNG holding a code', () => {
    expect(payloadOfImage('data:image/png;base64,AAAA')).toBeNull();
    expect(payloadOfImage('https://example.test/qr.png')).toBeNull();
  });
});
