import { describe, expect, it } from 'vitest';
import { testContext } from '@tests/support/connector-context';
import { describeCard } from '@/server/core/domain/card';
import { cardPayment } from '../method-details';
import type { IzipayAnswer, IzipayTransaction } from './izipay-client';
import { cancellationBody, madeRefund, paymentBody, paymentResult, refundBody, transactionIn } from './izipay-mapping';

// Izipay's mapping against the documentation's own examples (docs/processors/sources/izipay-api.md),
// with no simulator: the bodies sent, and what answers in the documented shapes mean.

const context = testContext({
  amount: 180n,
  order: {
    merchantOperationNumber: 'op-1',
    merchantName: 'Tienda',
    description: 'Tienda op-1',
    payer: { email: 'sample@example.com', firstName: null, lastName: null, phone: null },
  },
});
const card = { method: 'CARD' as const, pan: '4970100000000055', expiry: '1128', securityCode: '123' };
const described = cardPayment(describeCard(card.pan), undefined);

/** A transaction as the published IPN sample lists its fields (§6, [php-ex] helpers.php). */
const transaction = (overrides: Partial<IzipayTransaction>): IzipayTransaction => ({
  uuid: '5b158f084502a34a8e0e4d7b3d8e5c1f',
  amount: 180,
  currency: 'PEN',
  status: 'PAID',
  detailedStatus: 'AUTHORISED',
  operationType: 'DEBIT',
  creationDate: '2026-12-02T15:00:01+00:00',
  transactionDetails: { cardDetails: { authorizationResponse: { authorizationNumber: '3fc116' } } },
  ...overrides,
});
const payment = (each: IzipayTransaction): IzipayAnswer => ({
  kind: 'success',
  answer: { _type: 'V4/Payment', orderStatus: each.status, transactions: [each] },
  mode: 'TEST',
});

describe('the bodies sent to Izipay', () => {
  it('creates the payment as the quick start does: the smallest unit, the card in paymentForms, two-digit month and year (§2.1, §2.2)', () => {
    expect(paymentBody(card, context, 'https://pagos.test/notifications/izipay/a')).toEqual({
      amount: 180,
      currency: 'PEN',
      orderId: context.transactionId,
      customer: { email: 'sample@example.com' },
      paymentForms: [
        { paymentMethodType: 'CARD', pan: '4970100000000055', expiryMonth: '11', expiryYear: '28', securityCode: '123' },
      ],
      ipnTargetUrl: 'https://pagos.test/notifications/izipay/a',
      metadata: { merchantOperationNumber: 'op-1' },
    });
    expect(paymentBody(card, { ...context, capture: 'manual' }, 'u')).toMatchObject({
      transactionOptions: { cardOptions: { manualValidation: 'YES' } },
    });
  });

  it('cancels an authorization, and refunds a part in the payment currency (§4.1, §5.1 [mag])', () => {
    expect(cancellationBody('5b15', 'Reversa t')).toEqual({
      uuid: '5b15',
      resolutionMode: 'CANCELLATION_ONLY',
      comment: 'Reversa t',
    });
    expect(refundBody(transaction({}), 50, 'Reembolso r')).toEqual({
      uuid: '5b158f084502a34a8e0e4d7b3d8e5c1f',
      amount: 50,
      currency: 'PEN',
      resolutionMode: 'REFUND_ONLY',
      comment: 'Reembolso r',
    });
  });
});

describe("Izipay's answers", () => {
  it('approves a V4/Payment whose transaction is authorised, naming it by its uuid (§6.1, [mag] success statuses)', () => {
    for (const detailedStatus of ['AUTHORISED', 'AUTHORISED_TO_VALIDATE', 'CAPTURED', 'ACCEPTED']) {
      expect(paymentResult(payment(transaction({ detailedStatus })), described)).toMatchObject({
        outcome: 'approved',
        processorReference: '5b158f084502a34a8e0e4d7b3d8e5c1f',
      });
    }
  });

  it('declines a refused payment by its acquirer code, and a strong-authentication request as sca_required (§8.1, §2.2)', () => {
    const refused = transaction({
      status: 'UNPAID',
      detailedStatus: 'REFUSED',
      errorCode: 'ACQ_001',
      detailedErrorCode: '51',
      detailedErrorMessage: 'Fondos insuficientes',
    });
    expect(paymentResult(payment(refused), described)).toMatchObject({
      outcome: 'declined',
      processorResponse: { result_message: { code: '51', description: 'Fondos insuficientes' } },
    });
    const redirect: IzipayAnswer = { kind: 'success', answer: { _type: 'V4/Charge/RedirectRequest' }, mode: 'TEST' };
    expect(paymentResult(redirect, described)).toMatchObject({ outcome: 'declined', declineClass: 'sca_required' });
  });

  it('leaves a lost answer or a payment still waiting to the status inquiry; an ERROR envelope made no payment', () => {
    expect(paymentResult({ kind: 'lost' }, described)).toMatchObject({ outcome: 'technical_failure', reason: 'timeout' });
    expect(
      paymentResult(payment(transaction({ status: 'RUNNING', detailedStatus: 'WAITING_AUTHORISATION' })), described),
    ).toMatchObject({
      reason: 'timeout',
    });
    const badCard: IzipayAnswer = {
      kind: 'error',
      error: { errorCode: 'INT_041', errorMessage: 'invalid card number', detailedErrorCode: null, detailedErrorMessage: null },
    };
    expect(paymentResult(badCard, described)).toMatchObject({ outcome: 'declined', declineClass: 'hard' });
  });

  it('finds a refund made before its answer was lost, and reads a cancellation by its detailedStatus', () => {
    const credit = transaction({ operationType: 'CREDIT', amount: 50, creationDate: '2026-12-02T15:10:00+00:00' });
    expect(madeRefund([credit], { refundAmount: 50n, registeredAt: new Date('2026-12-02T15:09:30Z') })).toBe(credit);
    expect(madeRefund([credit], { refundAmount: 50n, registeredAt: new Date('2026-12-02T15:12:00Z') })).toBeUndefined();
    expect(madeRefund([credit], { refundAmount: 60n, registeredAt: new Date('2026-12-02T15:09:30Z') })).toBeUndefined();
    const cancelled: IzipayAnswer = { kind: 'success', answer: transaction({ detailedStatus: 'CANCELLED' }), mode: 'TEST' };
    expect(transactionIn(cancelled, ['CANCELLED'])).toEqual({ ok: true });
  });
});
