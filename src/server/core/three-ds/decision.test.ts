import { describe, expect, it } from 'vitest';
import { authenticateFirst, mayStepUp, THREE_DS_MODES, threeDsSettingInput, type ThreeDsSetting } from './decision';

// The merchant's 3-D Secure setting (docs/ORCHESTRATION.md 5).
const setting = (mode: ThreeDsSetting['mode'], overAmount: bigint | null = null): ThreeDsSetting => ({ mode, overAmount });

describe('authenticateFirst', () => {
  it('authenticates first with ALWAYS, never with NEVER or WHEN_REQUIRED', () => {
    expect(authenticateFirst(setting('ALWAYS'), 1n)).toBe(true);
    expect(authenticateFirst(setting('NEVER'), 999_999_999n)).toBe(false);
    expect(authenticateFirst(setting('WHEN_REQUIRED'), 999_999_999n)).toBe(false);
  });

  it('authenticates first with OVER only strictly over the amount', () => {
    expect(authenticateFirst(setting('OVER', 50_000n), 50_001n)).toBe(true);
    expect(authenticateFirst(setting('OVER', 50_000n), 50_000n)).toBe(false);
    expect(authenticateFirst(setting('OVER', 50_000n), 1n)).toBe(false);
  });

  it('authenticates every payment of an OVER stored without an amount', () => {
    expect(authenticateFirst(setting('OVER'), 1n)).toBe(true);
  });
});

describe('mayStepUp', () => {
  it('steps up after sca_required in every mode but NEVER', () => {
    expect(THREE_DS_MODES.filter((mode) => mayStepUp(setting(mode, 1n)))).toEqual(['ALWAYS', 'OVER', 'WHEN_REQUIRED']);
  });
});

describe('threeDsSettingInput', () => {
  const errors = (input: unknown) => {
    const parsed = threeDsSettingInput.safeParse(input);
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('parses OVER with its amount in cents, and the other modes without one', () => {
    expect(threeDsSettingInput.parse({ mode: 'OVER', overAmount: '50000' })).toEqual({ mode: 'OVER', overAmount: 50_000n });
    for (const mode of ['NEVER', 'ALWAYS', 'WHEN_REQUIRED'] as const) {
      expect(threeDsSettingInput.parse({ mode })).toEqual({ mode, overAmount: null });
      expect(threeDsSettingInput.parse({ mode, overAmount: null })).toEqual({ mode, overAmount: null });
      expect(threeDsSettingInput.parse({ mode, overAmount: '' })).toEqual({ mode, overAmount: null });
    }
  });

  it('requires a positive amount in cents with OVER', () => {
    expect(errors({ mode: 'OVER' })).toEqual(['overAmount: is required with OVER: an amount in cents']);
    expect(errors({ mode: 'OVER', overAmount: '' })).toEqual(['overAmount: is required with OVER: an amount in cents']);
    for (const overAmount of ['0', '-5', '050', '12.50', '1e5', '1234567890123']) {
      expect(errors({ mode: 'OVER', overAmount })).toEqual([
        'overAmount: must be a positive integer amount in cents: digits only, no leading zero, at most 12 digits',
      ]);
    }
    expect(errors({ mode: 'OVER', overAmount: 500 })).toEqual(['overAmount: must be an amount in cents as a string of digits']);
  });

  it('refuses an amount with the other modes, an unknown mode and unknown fields', () => {
    expect(errors({ mode: 'ALWAYS', overAmount: '100' })).toEqual([
      'overAmount: must be empty with ALWAYS: only OVER takes an amount',
    ]);
    expect(errors({ mode: 'SOMETIMES' })).toEqual(['mode: must be NEVER, ALWAYS, OVER or WHEN_REQUIRED']);
    expect(errors({ mode: 'NEVER', extra: 1 })).toHaveLength(1);
  });
});
