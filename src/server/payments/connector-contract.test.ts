import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '@/server/domain/money';
import { PENDING_METHODS } from '@/server/domain/expiry';
import { decideCancel, PAYMENT_METHODS, REFUNDABLE_METHODS, type PaymentMethod } from '@/server/domain/states';
import { paymentMethodRequest } from '@/server/schemas/charge-request';
import { testContext } from '@tests/support/connector-context';
import type { AuthorizeRequest, AuthorizeResult, PaymentConnector, TransactionReference } from './connector';
import { DECLINE_CLASSES, declineClassOf } from './decline-class';
import { CONNECTORS } from './registry';

// One battery for every connector of the registry: what docs/ORCHESTRATION.md 1 asks of any
// processor's integration. The per-connector tests beside each sandbox connector hold the
// sandbox's own rules (docs/DESIGN.md 8).

const SECURITY_CODE = '987';
const card = (pan: string) => ({ pan, expiry_date: '1230', security_code: SECURITY_CODE });
const URLS = { redirect_url: 'https://shop.test/return', callback_url: 'https://shop.test/cb' };
const YAPE_PHONE = { country_code: '+51', subscriber: '987654321' } as const;

/** Valid requests of each method (approvals and every sandbox decline). */
const REQUESTS: Record<PaymentMethod, unknown[]> = {
  CARD: [
    '4111111111111111',
    '4000000000005126',
    '4000000000000002',
    '4000000000009995',
    '4000000000000069',
    '4000000000000127',
    '4000000000000119',
  ].map((pan) => ({ method_name: 'CARD', method_details: card(pan) })),
  YAPE: ['123456', '000000', '111111'].map((otp) => ({ method_name: 'YAPE', method_details: { phone: YAPE_PHONE, otp } })),
  BANK_TRANSFER: [{ method_name: 'BANK_TRANSFER', method_details: URLS }],
  CUOTEALO: [{ method_name: 'CUOTEALO', method_details: URLS }],
  PAGOEFECTIVO: [
    { method_name: 'PAGOEFECTIVO', method_details: {} },
    { method_name: 'PAGOEFECTIVO', method_details: URLS },
  ],
  QR: [
    { method_name: 'QR', method_details: {} },
    { method_name: 'QR', method_details: { callback_url: URLS.callback_url } },
  ],
};

/** The request as `POST /charges` validation hands it over. */
function validRequests(method: PaymentMethod): AuthorizeRequest[] {
  return REQUESTS[method].map((request) => paymentMethodRequest.parse(request));
}

function references(method: PaymentMethod, currency: string): TransactionReference[] {
  const base = { transactionId: 'b3c1f2de-0000-4000-8000-000000000001', method, amount: 15_000n, currency };
  return [
    { ...base, card: null },
    { ...base, card: { bin: '411111', last4: '1111' } },
    { ...base, card: { bin: '400000', last4: '5126' } },
  ];
}

/** What a processor decided, without the ids it draws afresh for every answer. */
function decision(result: AuthorizeResult) {
  const { processorResponse, ...rest } = result;
  return { ...rest, resultMessage: processorResponse?.result_message ?? null };
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object' || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, member]) => [key, ...stringsOf(member)]);
}

function expectWellFormed(result: AuthorizeResult, context: ReturnType<typeof testContext>): void {
  expect(result.stateReason).toEqual(expect.any(String));
  expect(result.stateReason).not.toBe('');
  expect(result.methodDetails).toEqual(expect.any(Object));
  switch (result.outcome) {
    case 'approved':
      expect(result.processorResponse.authorization_code).toMatch(/^\d{6}$/);
      expect(result.processorResponse.brand_transaction_id).toMatch(/^\S+$/);
      expect(result.processorResponse.result_message.code).toBe('00');
      break;
    case 'declined':
      expect(result.processorResponse.result_message.code).not.toBe('00');
      expect(DECLINE_CLASSES).toContain(result.declineClass);
      expect(result.declineClass).toBe(declineClassOf(result.processorResponse.result_message.code));
      break;
    case 'technical_failure':
      expect(['timeout', 'connection_refused', 'processor_error']).toContain(result.reason);
      break;
    case 'challenge':
      expect(new URL(result.challengeUrl).protocol).toMatch(/^https?:$/);
      expect(result.expiresAt.getTime()).toBeGreaterThan(context.now.getTime());
      break;
    case 'pending':
      expect(result.expiresAt.getTime()).toBeGreaterThan(context.now.getTime());
      if (result.continueUrl !== null) expect(new URL(result.continueUrl).protocol).toMatch(/^https?:$/);
      if (result.processorResponse !== null) expect(result.processorResponse.result_message.code).not.toBe('');
      break;
  }
}

describe.each(CONNECTORS.map((connector) => [connector.id, connector] as const))(
  'connector %s',
  (_id, connector: PaymentConnector) => {
    const contexts = connector.currencies.flatMap((currency) => [
      testContext({ currency }),
      testContext({ currency, amount: 350_001n }),
    ]);

    it('declares its id, name, methods, currencies, capabilities and timeout', () => {
      expect(connector.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(connector.name.trim()).not.toBe('');
      expect(connector.methods.length).toBeGreaterThan(0);
      for (const method of connector.methods) expect(PAYMENT_METHODS).toContain(method);
      expect(connector.currencies.length).toBeGreaterThan(0);
      for (const currency of connector.currencies) expect(Object.keys(CURRENCIES)).toContain(currency);
      expect(Object.keys(connector.capabilities).sort()).toEqual(['instalments', 'refunds', 'reversal', 'threeDsResult']);
      for (const capability of Object.values(connector.capabilities)) expect(typeof capability).toBe('boolean');
      expect(Number.isInteger(connector.timeoutMs) && connector.timeoutMs > 0).toBe(true);
    });

    it('declares reversal and refunds exactly where its methods allow them (docs/DESIGN.md 6, 7)', () => {
      for (const method of connector.methods) {
        expect(connector.capabilities.reversal).toBe(decideCancel('AUTORIZADO', method).kind === 'move');
        expect(connector.capabilities.refunds).toBe(REFUNDABLE_METHODS.includes(method));
      }
    });

    it.each(connector.methods)('answers every valid %s request with a well-formed result', async (method) => {
      for (const context of contexts) {
        for (const request of validRequests(method)) {
          const result = await connector.authorize(request, context);
          expectWellFormed(result, context);
          const pending = (PENDING_METHODS as readonly string[]).includes(method);
          expect(result.outcome === 'pending').toBe(pending);
        }
      }
    });

    it.each(connector.methods)('gives the same decision for the same %s request', async (method) => {
      for (const context of contexts) {
        for (const request of validRequests(method)) {
          const first = await connector.authorize(request, context);
          const second = await connector.authorize(request, context);
          expect(decision(second)).toStrictEqual(decision(first));
        }
      }
    });

    it.each(connector.methods)('never answers a %s request with its PAN or security code', async (method) => {
      for (const request of validRequests(method)) {
        const result = await connector.authorize(request, testContext());
        const strings = stringsOf(result);
        expect(strings).not.toContain(SECURITY_CODE);
        expect(strings).not.toContain('security_code');
        expect(strings).not.toContain('pan');
        if (request.method_name === 'CARD') {
          const pan = request.method_details.pan;
          expect(strings.filter((value) => value.includes(pan))).toEqual([]);
        }
      }
    });

    it('refuses a request of a method it does not declare, as a programming error', async () => {
      const other = PAYMENT_METHODS.find((method) => !connector.methods.includes(method))!;
      await expect(connector.authorize(validRequests(other)[0]!, testContext())).rejects.toThrow(
        `cannot authorize a ${other} request`,
      );
    });

    it.each(connector.methods)('answers reverse, refund and status of a %s payment in their typed shapes', async (method) => {
      for (const currency of connector.currencies) {
        for (const reference of references(method, currency)) {
          const reversal = await connector.reverse(reference);
          if (!connector.capabilities.reversal) expect(reversal).toStrictEqual({ outcome: 'not_supported', flow: 'reverse' });
          else if (reversal.outcome === 'reversed') expect(reversal.code).toMatch(/^\S+$/);
          else expect(reversal.outcome === 'refused' && reversal.reason !== '').toBe(true);

          const refund = await connector.refund({ ...reference, refundId: 'f0e1d2c3-0000-4000-8000-000000000001' });
          if (!connector.capabilities.refunds) expect(refund).toStrictEqual({ outcome: 'not_supported', flow: 'refund' });
          else if (refund.outcome === 'rejected') expect(refund.reason).not.toBe('');
          else expect(['in_process', 'resolved']).toContain(refund.outcome);

          const status = await connector.status(reference);
          expect(['approved', 'declined', 'not_found', 'unknown', 'not_supported']).toContain(status.outcome);
          if (status.outcome === 'approved') expect(status.authorizationCode).toMatch(/^\d{6}$/);
          if (status.outcome === 'declined') expect(status.declineClass).toBe(declineClassOf(status.code));

          expect(await connector.reverse(reference)).toStrictEqual(reversal);
          expect(await connector.refund({ ...reference, refundId: 'f0e1d2c3-0000-4000-8000-000000000001' })).toStrictEqual(
            refund,
          );
          expect(await connector.status(reference)).toStrictEqual(status);
        }
      }
    });
  },
);
