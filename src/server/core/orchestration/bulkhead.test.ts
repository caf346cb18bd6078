import { describe, expect, it } from 'vitest';
import { Bulkhead, BulkheadBoard, defaultBulkheadLimit, parseCallLimits } from './bulkhead';

describe('a bulkhead per connector', () => {
  it('lets `limit` calls in, refuses the next at once and counts it, and takes one in again when a call ends', () => {
    const bulkhead = new Bulkhead(2);
    const first = bulkhead.enter();
    const second = bulkhead.enter();
    expect([first, second].every((release) => typeof release === 'function')).toBe(true);
    expect(bulkhead.hasRoom()).toBe(false);
    expect(bulkhead.enter()).toBeNull();
    expect([bulkhead.inFlight, bulkhead.refused]).toEqual([2, 1]);
    first!();
    first!();
    expect(bulkhead.inFlight).toBe(1);
    expect(bulkhead.enter()).not.toBeNull();
    expect(bulkhead.enter()).toBeNull();
    expect([bulkhead.inFlight, bulkhead.refused]).toEqual([2, 2]);
  });

  it('counts a call that is never refused (a reversal, a refund) even past the limit', () => {
    const bulkhead = new Bulkhead(1);
    bulkhead.enter();
    const reversal = bulkhead.enterAlways();
    expect([bulkhead.inFlight, bulkhead.refused]).toEqual([2, 0]);
    reversal();
    expect(bulkhead.inFlight).toBe(1);
  });

  it('is sized by default from the timeout within a share of the heap, never under 16', () => {
    const fourGiB = 4 * 1024 ** 3;
    expect(defaultBulkheadLimit(10_000, fourGiB)).toBe(1000);
    expect(defaultBulkheadLimit(2_000, fourGiB)).toBe(200);
    // A small heap: an eighth of 64 MiB holds 128 calls of 64 KiB.
    expect(defaultBulkheadLimit(10_000, 64 * 1024 ** 2)).toBe(128);
    expect(defaultBulkheadLimit(50, fourGiB)).toBe(16);
  });

  it('keeps one bulkhead per connector, its limit given once, and shows them by connector', () => {
    const board = new BulkheadBoard((id, timeoutMs) => (id === 'slow' ? 1 : timeoutMs / 1000));
    const slow = { id: 'slow', timeoutMs: 10_000 };
    expect(board.hasRoom('slow')).toBe(true);
    board.for(slow).enter();
    expect(board.hasRoom('slow')).toBe(false);
    expect(board.hasRoom('fast')).toBe(true);
    expect(board.for(slow).enter()).toBeNull();
    board.for({ id: 'fast', timeoutMs: 3_000 });
    expect(board.snapshot()).toEqual([
      { connector: 'fast', limit: 3, inFlight: 0, refused: 0 },
      { connector: 'slow', limit: 1, inFlight: 1, refused: 1 },
    ]);
  });

  it('reads a limit per connector, and refuses a malformed one', () => {
    expect(parseCallLimits('mercadopago-0a1b2c3d4e=200, sandbox-acquirer-a=32')).toEqual({
      'mercadopago-0a1b2c3d4e': 200,
      'sandbox-acquirer-a': 32,
    });
    expect(parseCallLimits('')).toEqual({});
    expect(parseCallLimits('sandbox-acquirer-a=0')).toMatch(/must be connector=count/);
    expect(parseCallLimits('Sandbox=3')).toMatch(/must be connector=count/);
  });
});
