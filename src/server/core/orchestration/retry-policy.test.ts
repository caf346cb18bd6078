import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  nextStep,
  retryPolicyInput,
  type AttemptFailure,
  type NextStep,
  type NextStepInput,
} from './retry-policy';

const declined = (declineClass: 'technical' | 'soft' | 'sca_required' | 'hard'): AttemptFailure => ({
  kind: 'declined',
  declineClass,
});
const technical = (reason: 'timeout' | 'connection_refused' | 'processor_error' | 'kept_back'): AttemptFailure => ({
  kind: 'technical',
  reason,
});

function step(overrides: Partial<NextStepInput> & Pick<NextStepInput, 'failure'>): NextStep {
  return nextStep({
    policy: DEFAULT_RETRY_POLICY,
    method: 'CARD',
    attemptsMade: 1,
    elapsedMs: 1_000,
    candidatesLeft: 1,
    authenticated: false,
    stepUpAllowed: true,
    ...overrides,
  });
}

const softOn = { ...DEFAULT_RETRY_POLICY, retrySoftDeclines: true };

// Within every limit: the step each failure leads to, for a card, for YAPE (single-use one-time
// code) and for another method (docs/ORCHESTRATION.md 3).
const TABLE: [string, AttemptFailure, NextStepInput['policy'], NextStep, NextStep, NextStep][] = [
  // [name, failure, policy, CARD, YAPE, PAGOEFECTIVO]
  ['timeout', technical('timeout'), DEFAULT_RETRY_POLICY, 'stop', 'stop', 'stop'],
  [
    'connection refused',
    technical('connection_refused'),
    DEFAULT_RETRY_POLICY,
    'next_candidate',
    'next_candidate',
    'next_candidate',
  ],
  [
    'kept back (bulkhead full)',
    technical('kept_back'),
    DEFAULT_RETRY_POLICY,
    'next_candidate',
    'next_candidate',
    'next_candidate',
  ],
  ['processor error', technical('processor_error'), DEFAULT_RETRY_POLICY, 'next_candidate', 'stop', 'next_candidate'],
  ['technical decline (96)', declined('technical'), DEFAULT_RETRY_POLICY, 'next_candidate', 'stop', 'next_candidate'],
  ['soft decline, merchant did not opt in', declined('soft'), DEFAULT_RETRY_POLICY, 'stop', 'stop', 'stop'],
  ['soft decline, merchant opted in', declined('soft'), softOn, 'next_candidate', 'stop', 'next_candidate'],
  ['sca_required', declined('sca_required'), DEFAULT_RETRY_POLICY, 'step_up', 'stop', 'stop'],
  ['hard decline', declined('hard'), softOn, 'stop', 'stop', 'stop'],
];

const ROWS = TABLE.flatMap(([name, failure, policy, card, yape, other]) => [
  { name, failure, policy, method: 'CARD' as const, expected: card },
  { name, failure, policy, method: 'YAPE' as const, expected: yape },
  { name, failure, policy, method: 'PAGOEFECTIVO' as const, expected: other },
]);

describe('nextStep within the limits', () => {
  it.each(ROWS)('$name on $method: $expected', ({ failure, policy, method, expected }) => {
    expect(step({ failure, policy, method })).toBe(expected);
  });
});

// At a limit, moving on becomes stopping; a status inquiry and a step-up are not moving on.
const LIMITS: [string, Partial<NextStepInput>][] = [
  ['attempts made reach max_attempts', { attemptsMade: 2 }],
  ['attempts made pass max_attempts', { attemptsMade: 3 }],
  ['the budget is spent', { elapsedMs: 10_000 }],
  ['the budget is overspent', { elapsedMs: 25_000 }],
  ['no candidate is left', { candidatesLeft: 0 }],
];

describe.each(LIMITS)('nextStep when %s', (_, limit) => {
  it.each(ROWS)('$name on $method', ({ failure, policy, method, expected }) => {
    const atLimit = expected === 'next_candidate' ? 'stop' : expected;
    expect(step({ failure, policy, method, ...limit })).toBe(atLimit);
  });
});

describe('nextStep limits', () => {
  it('moves on just inside each limit', () => {
    const failure = technical('connection_refused');
    const policy = { maxAttempts: 3, budgetMs: 5_000, retrySoftDeclines: false };
    expect(step({ failure, policy, attemptsMade: 2, elapsedMs: 4_999, candidatesLeft: 1 })).toBe('next_candidate');
    expect(step({ failure, policy, attemptsMade: 3 })).toBe('stop');
    expect(step({ failure, policy, elapsedMs: 5_000 })).toBe('stop');
  });

  it('never moves on with max_attempts 1', () => {
    const policy = { ...softOn, maxAttempts: 1 };
    for (const failure of [
      technical('connection_refused'),
      technical('processor_error'),
      declined('technical'),
      declined('soft'),
    ]) {
      expect(step({ failure, policy, attemptsMade: 1 })).toBe('stop');
    }
  });

  it('moves on with max_attempts 1 from a request it kept back: none was sent', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 1 };
    expect(step({ failure: technical('kept_back'), policy, attemptsMade: 0 })).toBe('next_candidate');
    expect(step({ failure: technical('kept_back'), policy, attemptsMade: 0, candidatesLeft: 0 })).toBe('stop');
    expect(step({ failure: technical('kept_back'), policy, attemptsMade: 0, elapsedMs: 10_000 })).toBe('stop');
  });
});

describe('nextStep and 3-D Secure (docs/ORCHESTRATION.md 3, 5)', () => {
  it('steps up a card not yet authenticated when the merchant allows it', () => {
    expect(step({ failure: declined('sca_required') })).toBe('step_up');
  });

  it('stops when the payer already authenticated: one authentication per payment', () => {
    expect(step({ failure: declined('sca_required'), authenticated: true })).toBe('stop');
  });

  it('stops when the merchant 3-D Secure setting does not allow a step-up', () => {
    expect(step({ failure: declined('sca_required'), stepUpAllowed: false })).toBe('stop');
  });

  it('steps up whatever the attempt limits: the issuer demands it, it is not a retry', () => {
    expect(step({ failure: declined('sca_required'), attemptsMade: 3, elapsedMs: 60_000, candidatesLeft: 0 })).toBe('step_up');
  });
});

describe('retry policy', () => {
  it('defaults to 2 attempts within 10 s, soft declines not retried', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 2, budgetMs: 10_000, retrySoftDeclines: false });
  });

  it('accepts the bounds', () => {
    expect(retryPolicyInput.parse({ maxAttempts: 1, budgetMs: 1000, retrySoftDeclines: true })).toEqual({
      maxAttempts: 1,
      budgetMs: 1000,
      retrySoftDeclines: true,
    });
    expect(retryPolicyInput.safeParse({ maxAttempts: 3, budgetMs: 30_000, retrySoftDeclines: false }).success).toBe(true);
  });

  it.each([
    [{ maxAttempts: 0, budgetMs: 10_000, retrySoftDeclines: false }, 'maxAttempts'],
    [{ maxAttempts: 4, budgetMs: 10_000, retrySoftDeclines: false }, 'maxAttempts'],
    [{ maxAttempts: 1.5, budgetMs: 10_000, retrySoftDeclines: false }, 'maxAttempts'],
    [{ maxAttempts: 2, budgetMs: 999, retrySoftDeclines: false }, 'budgetMs'],
    [{ maxAttempts: 2, budgetMs: 30_001, retrySoftDeclines: false }, 'budgetMs'],
    [{ maxAttempts: 2, budgetMs: 10_000, retrySoftDeclines: 'yes' }, 'retrySoftDeclines'],
    [{ maxAttempts: 2, budgetMs: 10_000 }, 'retrySoftDeclines'],
    [{ maxAttempts: 2, budgetMs: 10_000, retrySoftDeclines: false, extra: 1 }, ''],
  ])('refuses %j at %s', (input, key) => {
    const result = retryPolicyInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map(({ path }) => path.join('.'))).toEqual([key]);
  });
});
