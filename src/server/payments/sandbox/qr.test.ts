import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import type { AuthorizeResult } from '../connector';
import { testContext } from '@tests/support/connector-context';
import { generateQrId, qrProcessor } from './qr';
import { decodeEmvQr } from '@tests/support/emv-qr-decoder';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const DATA_URI_PREFIX = 'data:image/png;base64,';

function pendingWithResponse(result: AuthorizeResult) {
  if (result.outcome !== 'pending' || result.processorResponse === null) throw new Error('expected a QR');
  return { ...result, processorResponse: result.processorResponse };
}

function stringMember(value: unknown): string {
  if (typeof value !== 'string') throw new Error('expected a string member');
  return value;
}

describe('generateQrId', () => {
  it('is QR and 20 upper-case hex characters, unique', () => {
    const first = generateQrId();
    expect(first).toMatch(/^QR[0-9A-F]{20}$/);
    expect(generateQrId()).not.toBe(first);
  });
});

describe('qrProcessor', () => {
  it('is pending for 15 minutes with a QR image, id, date and code 0', async () => {
    const result = pendingWithResponse(
      await qrProcessor.authorize({ method: 'QR', callbackUrl: 'https://shop.test/cb' }, testContext()),
    );
    expect(qrProcessor.methods).toEqual(['QR']);
    expect(result.stateReason).toBe('QR generado, esperando el pago');
    expect(Object.keys(result.processorResponse)).toEqual(['qr_image', 'qr_id', 'date', 'qr_payload', 'result_message']);
    expect(result.processorResponse.qr_id).toMatch(/^QR[0-9A-F]{20}$/);
    expect(result.processorResponse.date).toBe('2026-11-21T15:04:05.123Z');
    expect(result.processorResponse.result_message).toStrictEqual({ code: '0', description: 'QR generado' });
    expect(result.expiresAt).toStrictEqual(new Date('2026-11-21T15:19:05.123Z'));
    expect(result.continueUrl).toBeNull();
    expect(result.methodDetails).toStrictEqual({ callback_url: 'https://shop.test/cb' });
    expect(result.simulatedPaymentUrl).toBe('https://pay.example.test/pay/b3c1f2de-0000-4000-8000-000000000001');
  });

  it('gives an EMVCo payload no app can pay: a sandbox template, the amount, the merchant and the QR id', async () => {
    const result = pendingWithResponse(await qrProcessor.authorize({ method: 'QR' }, testContext()));
    const decoded = decodeEmvQr(stringMember(result.processorResponse.qr_payload));
    expect(Object.fromEntries(decoded.byId)).toMatchObject({
      '01': '12',
      '53': '604',
      '54': '150.00',
      '58': 'PE',
      '59': 'Shop TEST',
      '60': 'LIMA',
    });
    expect([...decoded.accounts.keys()]).toEqual(['26']);
    expect(decoded.accounts.get('26')!.get('00')).toContain('sandbox');
    expect(Object.fromEntries(decoded.additional)).toEqual({ '01': 'op-0001', '05': result.processorResponse.qr_id });
  });

  it('draws a real 256x256 PNG of the payload', async () => {
    const context = testContext();
    const result = pendingWithResponse(await qrProcessor.authorize({ method: 'QR' }, context));
    const image = stringMember(result.processorResponse.qr_image);
    expect(image.startsWith(DATA_URI_PREFIX)).toBe(true);
    const png = Buffer.from(image.slice(DATA_URI_PREFIX.length), 'base64');
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(256);
    expect(png.readUInt32BE(20)).toBe(256);
    const expected = await QRCode.toDataURL(stringMember(result.processorResponse.qr_payload), {
      errorCorrectionLevel: 'M',
      margin: 1,
      width: 256,
    });
    expect(image).toBe(expected);
  });

  it('draws a different code for every payment', async () => {
    const first = pendingWithResponse(await qrProcessor.authorize({ method: 'QR' }, testContext()));
    const other = pendingWithResponse(await qrProcessor.authorize({ method: 'QR' }, testContext()));
    expect(other.processorResponse.qr_image).not.toBe(first.processorResponse.qr_image);
    expect(other.processorResponse.qr_id).not.toBe(first.processorResponse.qr_id);
  });

  it('uses the merchant expiry override and omits an absent callback URL', async () => {
    const result = pendingWithResponse(await qrProcessor.authorize({ method: 'QR' }, testContext({ expirySeconds: 60 })));
    expect(result.expiresAt.toISOString()).toBe('2026-11-21T15:05:05.123Z');
    expect(result.methodDetails).toStrictEqual({});
  });

  it('throws on a request of another method', async () => {
    await expect(
      qrProcessor.authorize({ method: 'CUOTEALO', returnUrl: 'https://shop.test/return' }, testContext()),
    ).rejects.toThrow('The QR connector cannot authorize a CUOTEALO request');
  });
});
