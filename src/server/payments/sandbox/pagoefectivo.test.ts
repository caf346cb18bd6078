import type * as Crypto from 'node:crypto';
import { randomInt } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { testContext } from '@tests/support/connector-context';
import { generateCip, pagoEfectivoProcessor } from './pagoefectivo';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return { ...actual, randomInt: vi.fn(actual.randomInt) };
});

const PAYER_PAGE = 'https://pay.example.test/pay/b3c1f2de-0000-4000-8000-000000000001';

describe('generateCip', () => {
  it('draws from 100000000 to 999999999 (nine digits, never a leading zero)', () => {
    vi.mocked(randomInt).mockClear();
    const cip = generateCip();
    expect(randomInt).toHaveBeenCalledExactlyOnceWith(100_000_000, 1_000_000_000);
    expect(cip).toMatch(/^[1-9]\d{8}$/);
  });
});

describe('pagoEfectivoProcessor', () => {
  it('is pending for 24 hours with a CIP and its page', async () => {
    const result = await pagoEfectivoProcessor.authorize(
      { method: 'PAGOEFECTIVO', returnUrl: 'https://shop.test/return', callbackUrl: 'https://shop.test/cb' },
      testContext(),
    );
    if (result.outcome !== 'pending' || result.processorResponse === null) throw new Error('expected a CIP');
    expect(pagoEfectivoProcessor.methods).toEqual(['PAGOEFECTIVO']);
    expect(result.stateReason).toBe('CIP generado, esperando el pago en efectivo');
    expect(Object.keys(result.processorResponse)).toEqual(['cip', 'cip_url', 'result_message']);
    expect(result.processorResponse.cip).toMatch(/^[1-9]\d{8}$/);
    expect(result.processorResponse.cip_url).toBe(PAYER_PAGE);
    expect(result.processorResponse.result_message).toStrictEqual({
      code: '100',
      description: 'CIP generado',
    });
    expect(result.expiresAt).toStrictEqual(new Date('2026-11-22T15:04:05.123Z'));
    expect(result.continueUrl).toBeNull();
    expect(result.methodDetails).toStrictEqual({ callback_url: 'https://shop.test/cb' });
  });

  it('uses the merchant expiry override and omits an absent callback URL', async () => {
    const result = await pagoEfectivoProcessor.authorize({ method: 'PAGOEFECTIVO' }, testContext({ expirySeconds: 3600 }));
    if (result.outcome !== 'pending') throw new Error('expected pending');
    expect(result.expiresAt.toISOString()).toBe('2026-11-21T16:04:05.123Z');
    expect(result.methodDetails).toStrictEqual({});
  });

  it('throws on a request of another method', async () => {
    await expect(pagoEfectivoProcessor.authorize({ method: 'QR' }, testContext())).rejects.toThrow(
      'The PAGOEFECTIVO connector cannot authorize a QR request',
    );
  });
});
