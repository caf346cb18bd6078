import { describe, expect, it } from 'vitest';
import {
  canCaptureTransition,
  captureBefore,
  captureModeOf,
  decideCapture,
  decideRefundAmount,
  moneyStory,
  stillRefundable,
} from './money-movements';

describe('refund amounts', () => {
  const settled = { amount: 15000n, capturedAmount: null, refundedAmount: 0n };

  it('takes a TOTAL of all of what was captured, once', () => {
    expect(decideRefundAmount('TOTAL', 15000n, settled)).toEqual({ kind: 'refund', amount: 15000n });
    expect(decideRefundAmount('TOTAL', null, settled)).toEqual({ kind: 'refund', amount: 15000n });
    expect(decideRefundAmount('TOTAL', 9000n, { ...settled, capturedAmount: 9000n })).toEqual({ kind: 'refund', amount: 9000n });
    expect(decideRefundAmount('TOTAL', 14999n, settled)).toMatchObject({ kind: 'refused', reason: 'amount_mismatch' });
    expect(decideRefundAmount('TOTAL', 15000n, { ...settled, capturedAmount: 9000n })).toMatchObject({
      reason: 'amount_mismatch',
    });
    expect(decideRefundAmount('TOTAL', 15000n, { ...settled, refundedAmount: 1n })).toMatchObject({ reason: 'already_refunded' });
  });

  it('takes PARTIAL refunds up to what is still refundable, and none of nothing', () => {
    expect(decideRefundAmount('PARTIAL', 5000n, { ...settled, refundedAmount: 10000n })).toEqual({
      kind: 'refund',
      amount: 5000n,
    });
    expect(decideRefundAmount('PARTIAL', 5001n, { ...settled, refundedAmount: 10000n })).toMatchObject({
      reason: 'exceeds_refundable',
      message: 'must be at most what is still refundable, 5000',
    });
    expect(decideRefundAmount('PARTIAL', 1n, { ...settled, refundedAmount: 15000n })).toMatchObject({
      reason: 'already_refunded',
    });
    expect(decideRefundAmount('PARTIAL', 0n, settled)).toMatchObject({ reason: 'amount_mismatch' });
    expect(decideRefundAmount('PARTIAL', null, { ...settled, refundedAmount: 4000n })).toEqual({
      kind: 'refund',
      amount: 11000n,
    });
    // What was captured bounds the refunds, not what was authorized.
    expect(decideRefundAmount('PARTIAL', 9001n, { ...settled, capturedAmount: 9000n })).toMatchObject({
      reason: 'exceeds_refundable',
    });
    expect(stillRefundable({ ...settled, capturedAmount: 9000n, refundedAmount: 2000n })).toBe(7000n);
  });
});

describe('capture', () => {
  it('moves as its table says: claimed from UNCAPTURED, then CAPTURED or UNCAPTURED again; nothing after CAPTURED', () => {
    expect(canCaptureTransition(null, 'UNCAPTURED')).toBe(true);
    expect(canCaptureTransition('UNCAPTURED', 'CAPTURING')).toBe(true);
    expect(canCaptureTransition('CAPTURING', 'CAPTURED')).toBe(true);
    expect(canCaptureTransition('CAPTURING', 'UNCAPTURED')).toBe(true);
    expect(canCaptureTransition('UNCAPTURED', 'CAPTURED')).toBe(false);
    expect(canCaptureTransition('CAPTURED', 'UNCAPTURED')).toBe(false);
    expect(canCaptureTransition('CAPTURED', 'CAPTURING')).toBe(false);
  });

  it('is manual only for cards, by the request first, then the merchant', () => {
    expect(captureModeOf('CARD', undefined, {})).toBe('AUTOMATIC');
    expect(captureModeOf('CARD', undefined, { CARD: 'MANUAL' })).toBe('MANUAL');
    expect(captureModeOf('CARD', 'automatic', { CARD: 'MANUAL' })).toBe('AUTOMATIC');
    expect(captureModeOf('CARD', 'manual', {})).toBe('MANUAL');
    expect(captureModeOf('YAPE', 'manual', { YAPE: 'MANUAL' })).toBe('AUTOMATIC');
  });

  it('ends its window after its length (whole days of 24 h for a merchant)', () => {
    expect(captureBefore(new Date('2026-11-27T10:00:00.000Z'), 7 * 86_400_000).toISOString()).toBe('2026-12-04T10:00:00.000Z');
  });

  it('captures an uncaptured authorization once, up to its amount', () => {
    const payment = { state: 'AUTORIZADO' as const, amount: 15000n, captureStatus: 'UNCAPTURED' };
    expect(decideCapture(payment, null)).toEqual({ kind: 'capture', amount: 15000n });
    expect(decideCapture(payment, 9000n)).toEqual({ kind: 'capture', amount: 9000n });
    expect(decideCapture(payment, 15001n)).toMatchObject({ kind: 'refused', error: 'VALIDATION' });
    for (const refused of [
      { ...payment, captureStatus: null },
      { ...payment, captureStatus: 'CAPTURED' },
      { ...payment, captureStatus: 'CAPTURING' },
      { ...payment, state: 'EXTORNADO' as const },
    ]) {
      expect(
        decideCapture(refused, null),
        JSON.stringify(refused, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      ).toMatchObject({
        kind: 'refused',
        error: 'STATE_CONFLICT',
      });
    }
  });
});

describe('moneyStory', () => {
  const payment = {
    state: 'LIQUIDADO' as const,
    method: 'CARD' as const,
    amount: 15000n,
    captureStatus: 'CAPTURED',
    capturedAmount: 10000n,
    refundedAmount: 7000n,
    resolvedRefunds: 4000n,
  };

  it('tells refunded from being refunded, and leaves what is still refundable', () => {
    expect(moneyStory(payment)).toEqual({
      authorized: 15000n,
      captured: 10000n,
      refunded: 4000n,
      refundInProcess: 3000n,
      refundable: 3000n,
    });
  });

  it('captures nothing of an authorization still to capture or of a declined payment, and refunds only settled ones', () => {
    expect(
      moneyStory({
        ...payment,
        state: 'AUTORIZADO',
        captureStatus: 'UNCAPTURED',
        capturedAmount: null,
        refundedAmount: 0n,
        resolvedRefunds: 0n,
      }),
    ).toEqual({
      authorized: 15000n,
      captured: null,
      refunded: 0n,
      refundInProcess: 0n,
      refundable: 0n,
    });
    expect(
      moneyStory({
        ...payment,
        state: 'DENEGADO',
        captureStatus: null,
        capturedAmount: null,
        refundedAmount: 0n,
        resolvedRefunds: 0n,
      }).captured,
    ).toBeNull();
    expect(
      moneyStory({
        ...payment,
        state: 'AUTORIZADO',
        captureStatus: null,
        capturedAmount: null,
        refundedAmount: 0n,
        resolvedRefunds: 0n,
      }).captured,
    ).toBe(15000n);
    expect(moneyStory({ ...payment, method: 'QR' }).refundable).toBe(0n);
  });
});
