import { describe, expect, it } from 'vitest';
import { testContext } from '@tests/support/connector-context';
import type { PaymentInstrument } from '../connector';
import { bankTransferProcessor, cuotealoProcessor } from './redirect';

/** A request without the `redirect_url` validation requires: the connector still copies only what came. */
function withoutRedirectUrl(method: 'BANK_TRANSFER' | 'CUOTEALO', urls: { callbackUrl?: string } = {}) {
  return { method, ...urls } as PaymentInstrument;
}

const URLS = { redirect_url: 'https://shop.test/return', callback_url: 'https://shop.test/cb' };
const PAYER_PAGE = 'https://pay.example.test/pay/b3c1f2de-0000-4000-8000-000000000001';

describe('bankTransferProcessor', () => {
  it('is pending for 30 minutes with the payer page as continue URL', async () => {
    const result = await bankTransferProcessor.authorize(
      { method: 'BANK_TRANSFER', returnUrl: URLS.redirect_url, callbackUrl: URLS.callback_url },
      testContext(),
    );
    expect(bankTransferProcessor.methods).toEqual(['BANK_TRANSFER']);
    expect(result).toStrictEqual({
      outcome: 'pending',
      stateReason: 'Esperando que el pagador complete la transferencia',
      processorResponse: null,
      expiresAt: new Date('2026-11-21T15:34:05.123Z'),
      continueUrl: PAYER_PAGE,
      methodDetails: URLS,
    });
  });

  it('uses the merchant expiry override', async () => {
    const result = await bankTransferProcessor.authorize(
      withoutRedirectUrl('BANK_TRANSFER'),
      testContext({ expirySeconds: 120 }),
    );
    if (result.outcome !== 'pending') throw new Error('expected pending');
    expect(result.expiresAt.toISOString()).toBe('2026-11-21T15:06:05.123Z');
  });

  it('omits URLs the request did not carry', async () => {
    const result = await bankTransferProcessor.authorize(
      withoutRedirectUrl('BANK_TRANSFER', { callbackUrl: URLS.callback_url }),
      testContext(),
    );
    expect(result.methodDetails).toStrictEqual({ callback_url: 'https://shop.test/cb' });
    expect(Object.keys(result.methodDetails)).toEqual(['callback_url']);
  });

  it('refuses a CUOTEALO request', async () => {
    await expect(bankTransferProcessor.authorize(withoutRedirectUrl('CUOTEALO'), testContext())).rejects.toThrow(
      'The BANK_TRANSFER connector cannot authorize a CUOTEALO request',
    );
  });
});

describe('cuotealoProcessor', () => {
  it('is pending for 60 minutes with the payer page as continue URL', async () => {
    const result = await cuotealoProcessor.authorize(
      { method: 'CUOTEALO', returnUrl: URLS.redirect_url, callbackUrl: URLS.callback_url },
      testContext(),
    );
    expect(cuotealoProcessor.methods).toEqual(['CUOTEALO']);
    expect(result).toStrictEqual({
      outcome: 'pending',
      stateReason: 'Esperando que el pagador complete el pago en cuotas',
      processorResponse: null,
      expiresAt: new Date('2026-11-21T16:04:05.123Z'),
      continueUrl: PAYER_PAGE,
      methodDetails: URLS,
    });
  });

  it('uses the merchant expiry override and omits absent URLs', async () => {
    const result = await cuotealoProcessor.authorize(withoutRedirectUrl('CUOTEALO'), testContext({ expirySeconds: 7200 }));
    if (result.outcome !== 'pending') throw new Error('expected pending');
    expect(result.expiresAt.toISOString()).toBe('2026-11-21T17:04:05.123Z');
    expect(result.methodDetails).toStrictEqual({});
  });

  it('refuses a BANK_TRANSFER request', async () => {
    await expect(cuotealoProcessor.authorize(withoutRedirectUrl('BANK_TRANSFER'), testContext())).rejects.toThrow(
      'The CUOTEALO connector cannot authorize a BANK_TRANSFER request',
    );
  });
});
