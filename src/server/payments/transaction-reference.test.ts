import { describe, expect, it } from 'vitest';
import { absence, ABSENCE_GRACE_MS, transactionReference } from './transaction-reference';

const ROW = { id: 't-1', method: 'CARD', amount: 15_000n, currency: '604', cardBin: '400000', cardLast4: '5126' };

describe('transactionReference', () => {
  it('carries the card by BIN and last four', () => {
    expect(transactionReference(ROW)).toStrictEqual({
      transactionId: 't-1',
      method: 'CARD',
      amount: 15_000n,
      currency: '604',
      card: { bin: '400000', last4: '5126' },
      processorReference: null,
      createdAt: null,
    });
  });

  it("carries the processor's id of the payment and when the attempt was made", () => {
    const createdAt = new Date('2026-11-25T10:00:00Z');
    const reference = transactionReference({ ...ROW, processorReference: 'chr_test_0000000000000001', createdAt });
    expect([reference.processorReference, reference.createdAt]).toStrictEqual(['chr_test_0000000000000001', createdAt]);
  });

  it('has no card when either part is missing', () => {
    expect(transactionReference({ ...ROW, method: 'CUOTEALO', cardBin: null, cardLast4: null }).card).toBeNull();
    expect(transactionReference({ ...ROW, cardLast4: null }).card).toBeNull();
  });

  it('believes a processor found nothing only once the attempt is older than the grace', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const made = (agoMs: number) => transactionReference({ ...ROW, createdAt: new Date(now.getTime() - agoMs) });
    expect(absence(made(1_000), now)).toEqual({ outcome: 'unknown' });
    expect(absence(made(ABSENCE_GRACE_MS - 1), now)).toEqual({ outcome: 'unknown' });
    expect(absence(made(ABSENCE_GRACE_MS), now)).toEqual({ outcome: 'not_found' });
    // Without its time, nothing says it is old enough.
    expect(absence(transactionReference(ROW), now)).toEqual({ outcome: 'unknown' });
  });
});
