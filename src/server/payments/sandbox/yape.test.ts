import { NO_SAVED_CARDS } from '@/server/core/domain/capabilities';
import { describe, expect, it } from 'vitest';
import { isValidPan } from '@/server/core/domain/card';
import type { PaymentInstrument, YapePhone } from '../connector';
import { testContext } from '@tests/support/connector-context';
import { yapeCardPan } from '../yape-wallet';
import { yapeRailA, yapeRailB, YAPE_MAX_PEN_CENTS } from './yape';

const PHONE: YapePhone = { countryCode: '+51', subscriber: '987654321' };

function yapeRequest(otp: string, phone: YapePhone = PHONE): PaymentInstrument {
  return { method: 'YAPE', phone, otp, callbackUrl: 'https://shop.test/cb' };
}

const WALLET_CARD = {
  bin: '421355',
  last_pan: '5228',
  masked_pan: '421355******5228',
  brand: 'VISA',
  card_type: 'DEBIT',
  card_country: 'PE',
  issuer: 'YAPE',
};

const WALLET_DETAILS = {
  phone: { country_code: '+51', subscriber: '987654321' },
  masked_pan: '421355******5228',
  brand: 'VISA',
  bin: '421355',
  last_pan: '5228',
  card_type: 'DEBIT',
  card_country: 'PE',
  issuer: 'YAPE',
};

describe('yapeCardPan', () => {
  it('derives a Luhn-valid 16-digit PAN from SHA-256 of the phone', () => {
    const pan = yapeCardPan(PHONE);
    expect(pan).toBe('4213559788375228');
    expect(isValidPan(pan)).toBe(true);
  });

  it('is the same for the same phone, with or without the plus sign', () => {
    expect(yapeCardPan({ ...PHONE })).toBe('4213559788375228');
    expect(yapeCardPan({ countryCode: '51', subscriber: '987654321' })).toBe('4213559788375228');
  });

  it('differs for another phone', () => {
    const other = yapeCardPan({ countryCode: '+51', subscriber: '912345678' });
    expect(other).toBe('4213556270412865');
    expect(isValidPan(other)).toBe(true);
  });
});

// Both rails follow docs/DESIGN.md 8's Yape rules (docs/ORCHESTRATION.md 1).
describe.each([yapeRailA, yapeRailB])('$id', (rail) => {
  it('is a YAPE rail with reversal and refunds', () => {
    expect(rail.methods).toEqual(['YAPE']);
    expect(rail.capabilities).toStrictEqual({
      instalments: false,
      threeDsResult: false,
      cardWithoutCode: false,
      reversal: true,
      refunds: true,
      separateCapture: false,
      partialCapture: false,
      captureHoldDays: null,
      partialRefund: true,
      savedCards: NO_SAVED_CARDS,
    });
  });

  it('approves with code 00 and describes the wallet card', async () => {
    const result = await rail.authorize(yapeRequest('123456'), testContext());
    if (result.outcome !== 'approved') throw new Error(`expected approved, got ${result.outcome}`);
    expect(result.stateReason).toBe('Transacción aprobada');
    expect(Object.keys(result.processorResponse)).toEqual(['authorization_code', 'brand_transaction_id', 'result_message']);
    expect(result.processorResponse.authorization_code).toMatch(/^\d{6}$/);
    expect(result.processorResponse.brand_transaction_id).toMatch(/^\d{15}$/);
    expect(result.processorResponse.result_message).toStrictEqual({ code: '00', description: 'Aprobado' });
    expect(result.card).toStrictEqual(WALLET_CARD);
    expect(result.methodDetails).toStrictEqual(WALLET_DETAILS);
  });

  it('gives the same card for the same phone on every payment, another for another phone', async () => {
    const first = await rail.authorize(yapeRequest('123456'), testContext());
    const second = await rail.authorize(yapeRequest('654321'), testContext());
    const other = await rail.authorize(yapeRequest('123456', { countryCode: '+51', subscriber: '912345678' }), testContext());
    if (first.outcome === 'pending' || second.outcome === 'pending' || other.outcome === 'pending') {
      throw new Error('Yape is never pending');
    }
    expect(first.card).toStrictEqual(second.card);
    expect(other.card?.masked_pan).toBe('421355******2865');
    expect(other.card?.issuer).toBe('YAPE');
  });

  it.each([
    ['000000', 'Y1', 'Código de aprobación inválido', 'hard'],
    ['111111', '51', 'Saldo insuficiente', 'soft'],
  ])('declines OTP %s with %s', async (otp, code, description, declineClass) => {
    expect(await rail.authorize(yapeRequest(otp), testContext())).toStrictEqual({
      outcome: 'declined',
      stateReason: description,
      processorResponse: { result_message: { code, description } },
      declineClass,
      card: WALLET_CARD,
      methodDetails: WALLET_DETAILS,
    });
  });

  it('declines more than 3 500.00 PEN with 61 and approves exactly 3 500.00', async () => {
    expect(YAPE_MAX_PEN_CENTS).toBe(350_000n);
    const over = await rail.authorize(yapeRequest('123456'), testContext({ amount: 350_001n }));
    expect(over).toStrictEqual({
      outcome: 'declined',
      stateReason: 'Excede el límite de monto',
      processorResponse: { result_message: { code: '61', description: 'Excede el límite de monto' } },
      declineClass: 'soft',
      card: WALLET_CARD,
      methodDetails: WALLET_DETAILS,
    });
    const limit = await rail.authorize(yapeRequest('123456'), testContext({ amount: 350_000n }));
    expect(limit.outcome).toBe('approved');
  });

  it('declines a number that is not a Peruvian mobile (not starting with 9) with 14: it has no Yape', async () => {
    const result = await rail.authorize(yapeRequest('123456', { countryCode: '+51', subscriber: '111111111' }), testContext());
    expect(result).toMatchObject({
      outcome: 'declined',
      stateReason: 'El número no tiene Yape',
      processorResponse: { result_message: { code: '14', description: 'El número no tiene Yape' } },
      declineClass: 'hard',
    });
  });

  it('checks the OTP before the amount limit', async () => {
    const result = await rail.authorize(yapeRequest('000000'), testContext({ amount: 999_999n }));
    expect(result.processorResponse?.result_message.code).toBe('Y1');
  });

  it('throws on a request of another method', async () => {
    await expect(rail.authorize({ method: 'QR' }, testContext())).rejects.toThrow(
      'The YAPE connector cannot authorize a QR request',
    );
  });
});

describe('the Yape rails', () => {
  it('have their own ids and names', () => {
    expect([yapeRailA.id, yapeRailB.id]).toEqual(['sandbox-yape', 'sandbox-yape-b']);
    expect([yapeRailA.name, yapeRailB.name]).toEqual(['Sandbox Yape wallet', 'Sandbox Yape wallet B']);
  });

  it('resolve every refund (no refund rule of their own)', () => {
    expect('refund' in yapeRailA).toBe(false);
    expect('refund' in yapeRailB).toBe(false);
  });
});
