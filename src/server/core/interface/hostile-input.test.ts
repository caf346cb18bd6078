import { describe, expect, it } from 'vitest';
import { chargeRequest } from './charge-request';
import { z } from 'zod';
import { isStorableText, merchantOperationNumber, nestingDepth, pathParameter } from './common';
import { refundRequest } from './refund';

// Input found by the API fuzz suite: what the database cannot hold must be a 400, not a 500 at
// the database; nesting must not exhaust the stack; path segments mean their decoded text.
const charge = (changes: { callbackUrl?: string; email?: string; plan?: string; product?: Record<string, unknown> }) => ({
  action: 'authorize',
  channel: 'ecommerce',
  merchant_code: 'M1',
  merchant_operation_number: 'op-1',
  payment_method: {
    method_name: 'CARD',
    method_details: {
      pan: '4111111111111111',
      expiry_date: '1230',
      security_code: '123',
      installments: { plan: changes.plan ?? 'NONE', number: '1' },
      callback_url: changes.callbackUrl ?? 'https://shop.example/hooks',
    },
  },
  payment_details: {
    amount: '100',
    currency: '604',
    billing: {},
    shipping: {},
    customer: { email: changes.email ?? 'ana@example.pe' },
    product_details: [changes.product ?? { sku: 'S1' }],
  },
});

const refund = (description: string) => ({
  merchant_code: 'M1',
  operations: [
    {
      type: 'TOTAL',
      merchant_operation_number: 'op-1',
      transaction_id: null,
      refund_amount: '100',
      additional_fields: { canal: 'web', reason: 'r', description },
    },
  ],
});

function deep(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
}

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, keeps everything else (emoji, RTL, markup)', () => {
    for (const text of ['a\u0000b', '\ud83d', 'x\udfffy', '\udfff\ud800']) expect(isStorableText(text)).toBe(false);
    for (const text of ['👩‍👩‍👧‍👦', 'مرحبا \u202e', "'; DROP TABLE operations; --", '<script>', '']) {
      expect(isStorableText(text)).toBe(true);
    }
  });

  it('is a validation error in stored charge and refund fields', () => {
    expect(chargeRequest.safeParse(charge({})).success).toBe(true);
    const fields = (body: unknown) => {
      const result = chargeRequest.safeParse(body);
      return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
    };
    expect(fields(charge({ callbackUrl: 'https://shop.example/a\u0000b' }))).toEqual([
      'payment_method.method_details.callback_url',
    ]);
    expect(fields(charge({ callbackUrl: 'https://shop.example/\ud83d' }))).toEqual([
      'payment_method.method_details.callback_url',
    ]);
    expect(fields(charge({ plan: 'N\u0000' }))).toEqual(['payment_method.method_details.installments.plan']);
    expect(refundRequest.safeParse(refund('talla')).success).toBe(true);
    expect(refundRequest.safeParse(refund('talla\u0000')).success).toBe(false);
  });
});

describe('nesting depth', () => {
  it('counts without recursion, even 100 000 levels deep', () => {
    expect(nestingDepth('x')).toBe(0);
    expect(nestingDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(nestingDepth(deep(100_000))).toBe(100_000);
  });

  it('caps product_details items at 32 levels', () => {
    expect(chargeRequest.safeParse(charge({ product: { nested: deep(31) } })).success).toBe(true);
    const result = chargeRequest.safeParse(charge({ product: { nested: deep(20_000) } }));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['payment_details.product_details.0']);
  });
});

describe('path parameters', () => {
  it('are read percent-decoded, once; a malformed escape stays as sent (and fails its pattern)', () => {
    const input = z.strictObject({ number: pathParameter(merchantOperationNumber) });
    expect(input.safeParse({ number: 'ord%2D1' }).data).toEqual({ number: 'ord-1' });
    expect(input.safeParse({ number: 'ord-1' }).data).toEqual({ number: 'ord-1' });
    for (const sent of ['ord%252D1', '%E0%A4%A', '%C3%B1', 'a%2Fb'])
      expect(input.safeParse({ number: sent }).success).toBe(false);
  });
});
