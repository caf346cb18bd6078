import { describe, expect, it } from 'vitest';
import { transactionReference } from './transaction-reference';

const ROW = { id: 't-1', method: 'CARD', amount: 15_000n, currency: '604', cardBin: '400000', cardLast4: '5126' };

describe('transactionReference', () => {
  it('carries the card by BIN and last four', () => {
    expect(transactionReference(ROW)).toStrictEqual({
      transactionId: 't-1',
      method: 'CARD',
      amount: 15_000n,
      currency: '604',
      card: { bin: '400000', last4: '5126' },
    });
  });

  it('has no card when either part is missing', () => {
    expect(transactionReference({ ...ROW, method: 'CUOTEALO', cardBin: null, cardLast4: null }).card).toBeNull();
    expect(transactionReference({ ...ROW, cardLast4: null }).card).toBeNull();
  });
});
