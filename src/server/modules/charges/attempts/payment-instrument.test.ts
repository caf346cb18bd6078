import { describe, expect, it } from 'vitest';
import { paymentMethodRequest } from '@/server/core/interface/charge-request';
import { instrumentOf } from './payment-instrument';
import type { StoredCredentialUse } from './stored-credential';

const parse = (paymentMethod: unknown) =>
  instrumentOf(paymentMethodRequest.parse(paymentMethod), null, 'sandbox-acquirer-a', null);

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

  it("tells each connector only its own token for a saved card, and the customer's id it keeps", () => {
    const request = paymentMethodRequest.parse({
      method_name: 'CARD',
      method_details: { pan: '4111111111111111', expiry_date: '1230', security_code: '123' },
    });
    const use: StoredCredentialUse = {
      initiator: 'CUSTOMER',
      usage: 'SUBSEQUENT',
      reason: null,
      initialNti: '123456789012345',
      cardId: 'c0ffee00-0000-4000-8000-000000000001',
      answerReason: 'ONE_CLICK',
      securityCode: true,
      tokens: {
        card: [{ connectorId: 'izipay-1', token: 'a'.repeat(32), processorCustomerId: null }],
        processorCustomers: new Map([['culqi-1', 'cus_test_AAAAAAAAAAAAAAAA']]),
      },
    };
    const at = (connectorId: string) => {
      const instrument = instrumentOf(request, use, connectorId, null);
      return instrument.method === 'CARD' ? instrument.storedCredential : undefined;
    };
    expect(at('izipay-1')).toStrictEqual({
      initiator: 'CUSTOMER',
      usage: 'SUBSEQUENT',
      reason: null,
      initialNti: '123456789012345',
      processorToken: { token: 'a'.repeat(32), processorCustomerId: null },
    });
    expect(at('culqi-1')).toStrictEqual({
      initiator: 'CUSTOMER',
      usage: 'SUBSEQUENT',
      reason: null,
      initialNti: '123456789012345',
      processorCustomerId: 'cus_test_AAAAAAAAAAAAAAAA',
    });
    expect(at('sandbox-acquirer-a')).not.toHaveProperty('processorToken');
  });
});
