import { z } from 'zod';
import type { PaymentMethod } from '@/server/core/domain/states';
import type { DeclineClass } from '@/server/core/domain/decline-class';

// What follows a failed attempt (docs/ORCHESTRATION.md 3): another candidate, 3-D Secure, a
// status inquiry at the same processor, or the end of the payment.

/** A merchant's policy for one method; a missing row means `DEFAULT_RETRY_POLICY`. */
export type RetryPolicy = {
  /** Attempts per payment, the first included: 1 to 3. */
  maxAttempts: number;
  /** No new attempt starts once this much time has passed since the payment's first attempt. */
  budgetMs: number;
  /** Whether a soft decline (`05`, `51`, `61`) may be tried at the next candidate. */
  retrySoftDeclines: boolean;
};

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 2,
  budgetMs: 10_000,
  retrySoftDeclines: false,
});

/** A policy as the console or the CLI saves it: every field, each within its bounds. */
export const retryPolicyInput = z.strictObject({
  maxAttempts: z
    .int('must be a whole number from 1 to 3')
    .min(1, 'must be a whole number from 1 to 3')
    .max(3, 'must be a whole number from 1 to 3'),
  budgetMs: z
    .int('must be a whole number of milliseconds from 1000 to 30000')
    .min(1000, 'must be a whole number of milliseconds from 1000 to 30000')
    .max(30_000, 'must be a whole number of milliseconds from 1000 to 30000'),
  retrySoftDeclines: z.boolean('must be true or false'),
});

export type AttemptFailure =
  | { kind: 'declined'; declineClass: DeclineClass }
  /**
   * No decision. `kept_back`: this instance never sent the request (its processor's bulkhead was
   * full): like a candidate routing skipped for an open breaker, it spends none of the policy's attempts.
   */
  | { kind: 'technical'; reason: 'timeout' | 'connection_refused' | 'processor_error' | 'kept_back' };

export type NextStep = 'next_candidate' | 'step_up' | 'stop';

export type NextStepInput = {
  policy: RetryPolicy;
  method: PaymentMethod;
  failure: AttemptFailure;
  /** Attempts sent to a processor so far for the payment, the failed one included when it was sent. */
  attemptsMade: number;
  /** Time since the payment's first attempt started. */
  elapsedMs: number;
  candidatesLeft: number;
  /** The payer already passed 3-D Secure for this payment (one authentication per payment). */
  authenticated: boolean;
  /** The merchant's 3-D Secure setting lets the service ask for authentication (not `never`). */
  stepUpAllowed: boolean;
};

/**
 * Whether the failure lets the payment go to another processor at all. YAPE's one-time code is
 * single use: it may move on only when the request never reached the processor (connection
 * refused, kept back), never after the processor saw the code (a decline of any class, a
 * processor error).
 */
function failureAllowsNext(failure: AttemptFailure, method: PaymentMethod, policy: RetryPolicy): boolean {
  if (failure.kind === 'technical') {
    if (method === 'YAPE') return failure.reason === 'connection_refused' || failure.reason === 'kept_back';
    return failure.reason !== 'timeout';
  }
  switch (failure.declineClass) {
    case 'technical':
      return method !== 'YAPE';
    case 'soft':
      return method !== 'YAPE' && policy.retrySoftDeclines;
    case 'sca_required':
    case 'hard':
      return false;
  }
}

function withinLimits({ policy, attemptsMade, elapsedMs, candidatesLeft }: NextStepInput): boolean {
  return attemptsMade < policy.maxAttempts && elapsedMs < policy.budgetMs && candidatesLeft > 0;
}

/**
 * The step after a failed attempt. A timeout is ambiguous (the processor may have approved): the
 * caller asks the same processor first and passes on what the inquiry found, so a timeout itself
 * never moves on. An `sca_required` decline steps up to 3-D Secure on a CARD payment not yet authenticated; the
 * step-up is the issuer's demand, not a retry, so the attempt limits do not hold it back.
 * Otherwise the next candidate, when the failure allows it and no limit is reached.
 */
export function nextStep(input: NextStepInput): NextStep {
  const { failure, method } = input;
  if (failure.kind === 'declined' && failure.declineClass === 'sca_required') {
    return method === 'CARD' && !input.authenticated && input.stepUpAllowed ? 'step_up' : 'stop';
  }
  return failureAllowsNext(failure, method, input.policy) && withinLimits(input) ? 'next_candidate' : 'stop';
}
