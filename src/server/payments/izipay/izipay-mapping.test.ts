import { describe, expect, it } from 'vitest';
import { testContext } from '@tests/support/connector-context';
import { describeCard } from '@/server/core/domain/card';
import { cardPayment } from '../method-details';
import type { IzipayAnswer, IzipayTransaction } from './izipay-client';
import {
  cancellationBody,
  madeRefund,
  paymentBody,
  paymentResult,
  refundBody,
  transactionIn,
  verificationResult,
} from './izipay-mapping';

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

describe("Izipay's saved cards (Lyra tokens)", () => {
  const url = 'https://pagos.test/notifications/izipay/a';
  const stored = { initiator: 'CUSTOMER' as const, usage: 'FIRST' as const, reason: 'RECURRING' as const, initialNti: null };

  it('registers the card of a customer-initiated saving charge (REGISTER_PAY), and pays a held token SILENT with the MIT issuer id', () => {
    expect(paymentBody({ ...card, storedCredential: stored }, context, url)).toMatchObject({ formAction: 'REGISTER_PAY' });
    const { securityCode: _code, ...withoutCode } = card;
    const mit = {
      ...withoutCode,
      storedCredential: {
        initiator: 'MERCHANT' as const,
        usage: 'SUBSEQUENT' as const,
        reason: 'RECURRING' as const,
        initialNti: '4575676657929351',
        processorToken: { token: '78b346b66bc5472fad3b7a1f72e3db9e', processorCustomerId: null },
      },
    };
    const body = paymentBody(mit, context, url);
    expect(body).toMatchObject({
      formAction: 'SILENT',
      paymentMethodToken: '78b346b66bc5472fad3b7a1f72e3db9e',
      transactionOptions: { cardOptions: { initialIssuerTransactionIdentifier: '4575676657929351' } },
    });
    expect(body).not.toHaveProperty('paymentForms');
    // Without Izipay's token: the card, no security code, and the issuer id.
    const { processorToken: _token, ...withoutToken } = mit.storedCredential;
    const byCard = paymentBody({ ...withoutCode, storedCredential: withoutToken }, context, url);
    expect(byCard).toMatchObject({ paymentForms: [{ pan: card.pan, expiryMonth: '11', expiryYear: '28' }] });
    expect(JSON.stringify(byCard)).not.toContain('securityCode');
    expect(byCard).not.toHaveProperty('formAction');
  });

  it('reads the token and the issuer id of the recorded SILENT answer (openfun/joanie create_zero_click_payment.json), the token only where the payment registered it', () => {
    const recorded = transaction({
      paymentMethodToken: '78b346b66bc5472fad3b7a1f72e3db9e',
      transactionDetails: {
        cardDetails: {
          authorizationResponse: { authorizationNumber: '3fbcfe' },
          initialIssuerTransactionIdentifier: '4575676657929351',
        },
      },
    });
    expect(paymentResult(payment(recorded), described, true)).toMatchObject({
      outcome: 'approved',
      networkTransactionId: '4575676657929351',
      cardToken: { token: '78b346b66bc5472fad3b7a1f72e3db9e', processorCustomerId: null },
    });
    expect(paymentResult(payment(recorded), described, false)).not.toHaveProperty('cardToken');
  });

  it("reads a verification: ACCEPTED with its token is verified, REFUSED is the acquirer's decline, a redirect asks for 3-D Secure", () => {
    const card4970 = describeCard('4970100000000055');
    const accepted = transaction({ amount: 0, detailedStatus: 'ACCEPTED', paymentMethodToken: 'a'.repeat(32) });
    expect(verificationResult(payment(accepted), card4970)).toMatchObject({
      outcome: 'verified',
      cardToken: { token: 'a'.repeat(32) },
    });
    const refused = transaction({
      amount: 0,
      status: 'UNPAID',
      detailedStatus: 'REFUSED',
      errorCode: 'ACQ_001',
      detailedErrorCode: '14',
    });
    expect(verificationResult(payment(refused), card4970)).toMatchObject({ outcome: 'declined', resultMessage: { code: '14' } });
    const redirect: IzipayAnswer = { kind: 'success', answer: { _type: 'V4/Charge/RedirectRequest' }, mode: 'TEST' };
    expect(verificationResult(redirect, card4970)).toMatchObject({ outcome: 'declined', declineClass: 'sca_required' });
    expect(verificationResult({ kind: 'lost' }, card4970)).toEqual({ outcome: 'unavailable' });
  });
});
