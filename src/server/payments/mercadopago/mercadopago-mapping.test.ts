import { describe, expect, it } from 'vitest';
import { answered, testContext } from '@tests/support/connector-context';
import type { ProcessorAccountConfig } from '../processor-account';
import {
  captureBody,
  cardTokenBody,
  mercadoPagoNotificationUrl,
  paymentBody,
  paymentResult,
  refundAmountBody,
  refundAnswer,
  underWay,
} from './mercadopago-mapping';

// Mercado Pago's mapping against the documentation's own examples
// (docs/processors/sources/mercadopago-api.md), with no simulator.

const context = testContext({
  amount: 15050n,
  order: {
    merchantOperationNumber: 'ord_1234',
    merchantName: 'Tienda',
    description: 'Order 1234',
    payer: { email: 'buyer@example.com', firstName: null, lastName: null, phone: null },
  },
});
const account = { notificationUrl: 'https://pagos.example.pe/notifications/mercadopago/a' } as ProcessorAccountConfig;
const described = { card: null, methodDetails: {} };

describe('the bodies sent to Mercado Pago', () => {
  it('asks a payment as the reference does: the amount in soles, our id as external reference, a decision now (§4.1)', () => {
    expect(
      paymentBody(account, context, { token: 'ff8080814c11e237014c1ff593b57b4d', installments: 1, payment_method_id: 'visa' }),
    ).toEqual({
      transaction_amount: 150.5,
      description: 'Order 1234',
      payer: { email: 'buyer@example.com' },
      external_reference: context.transactionId,
      notification_url: 'https://pagos.example.pe/notifications/mercadopago/a',
      binary_mode: true,
      capture: true,
      metadata: { transaction_id: context.transactionId, merchant_operation_number: 'ord_1234' },
      token: 'ff8080814c11e237014c1ff593b57b4d',
      installments: 1,
      payment_method_id: 'visa',
    });
    expect(paymentBody(account, { ...context, capture: 'manual' }, {})).toMatchObject({ capture: false });
  });

  it("tokenizes a card with the SDK's string fields", () => {
    expect(cardTokenBody('4009175332806176', { month: 11, year: 2030 }, '123', '')).toEqual({
      card_number: '4009175332806176',
      expiration_month: '11',
      expiration_year: '2030',
      security_code: '123',
      cardholder: { name: 'Cliente' },
    });
  });
});

describe("Mercado Pago's answers", () => {
  it('approves the official Yape and card responses by their payment id (§3.2, §4.1)', () => {
    const yape = { id: 74581527758, payment_method_id: 'yape', status: 'approved', status_detail: 'accredited' };
    expect(paymentResult(answered(201, yape), described)).toMatchObject({
      outcome: 'approved',
      processorReference: '74581527758',
    });
    const card = {
      id: 20359978,
      payment_method_id: 'visa',
      status: 'approved',
      status_detail: 'accredited',
      authorization_code: null,
    };
    expect(paymentResult(answered(201, card), described)).toMatchObject({
      outcome: 'approved',
      processorResponse: { authorization_code: '20359978', brand_transaction_id: '20359978' },
    });
  });

  it("declines a rejection by its status_detail (the Yape test phones' codes, §3.3), and leaves in_process to the status sync", () => {
    const rejected = { id: 1, status: 'rejected', status_detail: 'cc_rejected_call_for_authorize' };
    expect(paymentResult(answered(201, rejected), described)).toMatchObject({
      outcome: 'declined',
      processorResponse: { result_message: { code: 'cc_rejected_call_for_authorize' } },
    });
    expect(
      paymentResult(answered(201, { id: 2, status: 'in_process', status_detail: 'pending_contingency' }), described),
    ).toMatchObject({
      outcome: 'technical_failure',
      reason: 'timeout',
      processorReference: '2',
    });
    expect(paymentResult(answered(409, {}), described)).toMatchObject({ reason: 'timeout' });
  });

  it('reads a refund approved, in process, or under way under its key (§6)', () => {
    expect(refundAnswer(answered(201, { id: 1009042015, status: 'approved' }), '20359978')).toEqual({
      kind: 'refunded',
      code: '1009042015',
    });
    expect(refundAnswer(answered(201, { status: 'in_process' }), '20359978')).toEqual({ kind: 'in_process', code: '20359978' });
    expect(refundAnswer(answered(409, {}), '20359978')).toEqual({ kind: 'unavailable' });
  });
});

// Mercado Pago takes a payment's notification_url only when it is https and reachable (cause
// 4020 otherwise, for the whole payment): the connector sends it only then, and relies on the
// application's Webhooks URL (Your integrations) for the rest.
describe('mercadoPagoNotificationUrl', () => {
  it('keeps an https URL of a public host', () => {
    const url = 'https://pagos.example.pe/api/webhooks/mercadopago/0b6c1c8e-1f7e-4d3a-9a51-2f4f1d9f7e21';
    expect(mercadoPagoNotificationUrl(url)).toBe(url);
    expect(mercadoPagoNotificationUrl('https://8.8.8.8/hook')).toBe('https://8.8.8.8/hook');
  });

  it.each([
    'http://pagos.example.pe/api/webhooks/mercadopago/1',
    'https://localhost/api/webhooks/mercadopago/1',
    'https://api.localhost:3000/hook',
    'https://127.0.0.1:3000/hook',
    'https://10.1.2.3/hook',
    'https://172.16.0.1/hook',
    'https://172.31.255.1/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/hook',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[fd12:3456::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'not a url',
    `https://pagos.example.pe/${'x'.repeat(240)}`,
  ])('sends none for %s', (url) => {
    expect(mercadoPagoNotificationUrl(url)).toBeNull();
  });

  it('keeps a public 172.x host outside the private range', () => {
    expect(mercadoPagoNotificationUrl('https://172.32.0.1/hook')).toBe('https://172.32.0.1/hook');
  });
});

describe('after the payment at Mercado Pago', () => {
  it('captures a reserve for an amount in soles and refunds a part in soles (§6, §7.3)', () => {
    expect(captureBody(150.5)).toEqual({ capture: true, transaction_amount: 150.5 });
    expect(refundAmountBody(5050n)).toEqual({ amount: 50.5 });
  });

  it('takes a 5xx, a request under the same key (409, 423) or 429 as nothing decided yet', () => {
    for (const status of [500, 503, 409, 423, 429]) expect(underWay(answered(status, {}))).toBe(true);
    for (const status of [200, 201, 400, 404]) expect(underWay(answered(status, {}))).toBe(false);
  });
});
