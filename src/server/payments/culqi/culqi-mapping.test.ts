import { describe, expect, it } from 'vitest';
import { answered, testContext } from '@tests/support/connector-context';
import { cardTokenBody, chargeBody, chargeResult, refundBody, refusalWords, yapeTokenBody } from './culqi-mapping';

// Culqi's mapping against the documentation's own examples (docs/processors/sources/culqi-api.md),
// with no simulator: the bodies sent, and what the recorded answers mean.

const context = testContext({
  amount: 1000n,
  order: {
    merchantOperationNumber: 'COD00001',
    merchantName: 'Tienda',
    description: 'Venta de prueba',
    payer: { email: 'richard@piedpiper.com', firstName: 'Roberto', lastName: 'Beretta', phone: null },
  },
});
const described = { card: null, methodDetails: {} };

describe('the bodies sent to Culqi', () => {
  it('tokenizes a card and a Yape approval code with our transaction id in the metadata (§2.1, §2.2)', () => {
    expect(cardTokenBody('4111111111111111', { month: 9, year: 2029 }, '123', context)).toEqual({
      card_number: '4111111111111111',
      cvv: '123',
      expiration_month: '09',
      expiration_year: '2029',
      email: 'richard@piedpiper.com',
      metadata: { transaction_id: context.transactionId },
    });
    expect(yapeTokenBody({ subscriber: '900000001' }, '425251', { ...context, amount: 700n })).toEqual({
      number_phone: '900000001',
      otp: '425251',
      amount: 700,
      metadata: { transaction_id: context.transactionId },
    });
  });

  it('charges the token in céntimos with the required fields, held when captured later (§3.1)', () => {
    expect(chargeBody(context, 'tkn_test_0CjjdWhFpEAZlxlz', 0)).toEqual({
      amount: 1000,
      currency_code: 'PEN',
      email: 'richard@piedpiper.com',
      source_id: 'tkn_test_0CjjdWhFpEAZlxlz',
      capture: true,
      description: 'Venta de prueba',
      installments: 0,
      metadata: { transaction_id: context.transactionId, merchant_operation_number: 'COD00001' },
      antifraud_details: { first_name: 'Roberto', last_name: 'Beretta' },
    });
    expect(chargeBody({ ...context, capture: 'manual' }, 'ype_test_1', 0)).toMatchObject({ capture: false });
  });
});

describe("Culqi's answers (§3.2)", () => {
  it('approves the recorded 201 charge by its id, authorization code and reference code', () => {
    const charge = {
      duplicated: false,
      object: 'charge',
      id: 'chr_test_Hj7RxQ1igDSznRiP',
      amount: 1000,
      currency_code: 'PEN',
      outcome: { type: 'venta_exitosa', code: 'AUT0000' },
      capture: false,
      reference_code: '1MQiw8epWJ',
      authorization_code: 'fhKkdL',
    };
    expect(chargeResult(answered(201, charge), described)).toMatchObject({
      outcome: 'approved',
      processorResponse: { authorization_code: 'fhKkdL', brand_transaction_id: '1MQiw8epWJ' },
      processorReference: 'chr_test_Hj7RxQ1igDSznRiP',
    });
  });

  it('declines a 402 card_error by its decline code, and a 200 REVIEW as sca_required', () => {
    const declined = {
      object: 'error',
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      merchant_message: 'Fondos insuficientes',
      user_message: 'Su tarjeta no tiene fondos suficientes.',
      charge_id: 'chr_test_5lV3IV6ssSs9xMi9',
    };
    expect(chargeResult(answered(402, declined), described)).toMatchObject({
      outcome: 'declined',
      processorResponse: { result_message: { code: 'insufficient_funds' } },
      processorReference: 'chr_test_5lV3IV6ssSs9xMi9',
    });
    const review = { action_code: 'REVIEW', user_message: 'El usuario necesita autenticarse' };
    expect(chargeResult(answered(200, review), described)).toMatchObject({ outcome: 'declined', declineClass: 'sca_required' });
  });

  it('leaves a lost answer, a 5xx or a success it does not understand to the status inquiry', () => {
    for (const answer of [{ kind: 'lost' } as const, answered(503, {}), answered(201, { object: 'token' })]) {
      expect(chargeResult(answer, described)).toMatchObject({ outcome: 'technical_failure', reason: 'timeout' });
    }
  });
});

describe('refunds at Culqi', () => {
  it('asks a refund as "Crear devolución" shows it (§5), naming our refund in its metadata, and words a refusal', () => {
    expect(refundBody(100, 'chr_test_dwETnJOXXwMJRZvh')).toEqual({
      amount: 100,
      charge_id: 'chr_test_dwETnJOXXwMJRZvh',
      reason: 'solicitud_comprador',
    });
    expect(refundBody(100, 'chr_test_dwETnJOXXwMJRZvh', { refund_id: 'r-1' })).toMatchObject({ metadata: { refund_id: 'r-1' } });
    const error = {
      object: 'error',
      type: 'invalid_request_error',
      merchant_message: 'El monto excede lo devolvible',
      user_message: 'x',
    };
    expect(refusalWords(answered(400, error))).toContain('El monto excede lo devolvible');
    expect(refusalWords(answered(400, 'no JSON'))).toBe('Culqi respondió 400');
  });
});
