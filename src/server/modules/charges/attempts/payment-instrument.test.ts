import { describe, expect, it } from 'vitest';
import { paymentMethodRequest } from '@/server/core/interface/charge-request';
import { instrumentOf } from './payment-instrument';

const parse = (paymentMethod: unknown) => instrumentOf(paymentMethodRequest.parse(paymentMethod));

describe('instrumentOf', () => {
  it('carries every field of a card, in the connectors terms', () => {
    expect(
      parse({
        method_name: 'CARD',
        method_details: {
          pan: '4111111111111111',
          expiry_date: '1230',
          security_code: '123',
          card_holder: { first_name: 'Ana', last_name: 'Quispe', email: 'ana@example.pe' },
          installments: { plan: 'CUOTAS_SIN_INTERES', number: '3' },
          redirect_url: 'https://shop.test/return',
          callback_url: 'https://shop.test/cb',
        },
      }),
    ).toStrictEqual({
      method: 'CARD',
      pan: '4111111111111111',
      expiry: '1230',
      securityCode: '123',
      holder: { firstName: 'Ana', lastName: 'Quispe' },
      installments: { plan: 'CUOTAS_SIN_INTERES', number: '3' },
      returnUrl: 'https://shop.test/return',
      callbackUrl: 'https://shop.test/cb',
    });
  });

  it('leaves out the holder and instalments a card did not carry', () => {
    const card = parse({
      method_name: 'CARD',
      method_details: { pan: '4111111111111111', expiry_date: '1230', security_code: '123' },
    });
    expect(card).not.toHaveProperty('holder');
    expect(card).not.toHaveProperty('installments');
  });

  it('carries the Yape phone, OTP and callback', () => {
    expect(
      parse({
        method_name: 'YAPE',
        method_details: {
          phone: { country_code: '+51', subscriber: '987654321' },
          otp: '123456',
          callback_url: 'https://shop.test/cb',
        },
      }),
    ).toStrictEqual({
      method: 'YAPE',
      phone: { countryCode: '+51', subscriber: '987654321' },
      otp: '123456',
      callbackUrl: 'https://shop.test/cb',
    });
  });

  it.each(['BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO'] as const)('carries the return and callback URLs of %s', (method) => {
    expect(
      parse({
        method_name: method,
        method_details: { redirect_url: 'https://shop.test/return', callback_url: 'https://shop.test/cb' },
      }),
    ).toStrictEqual({ method, returnUrl: 'https://shop.test/return', callbackUrl: 'https://shop.test/cb' });
  });

  it('carries the QR callback', () => {
    expect(parse({ method_name: 'QR', method_details: { callback_url: 'https://shop.test/cb' } })).toStrictEqual({
      method: 'QR',
      callbackUrl: 'https://shop.test/cb',
    });
  });
});
