import { randomBytes } from 'node:crypto';
import { detectBrand, isValidPan } from '@/server/core/domain/card';

// The sandbox 3-D Secure directory server and issuer ACS, inside the service so the whole flow
// runs on one machine (docs/ORCHESTRATION.md 5). Pure: no database, no network. A real directory
// server replaces it behind the same two calls: `authenticate` (the AReq) and `verifyChallenge`
// (the payer's answer on the challenge page).

export const THREE_DS_VERSION = '2.2.0';

/** EMV 3DS transStatus: Y authenticated, A attempted, N not authenticated, U unavailable, C challenge pending. */
export type ThreeDsStatus = 'Y' | 'A' | 'N' | 'U' | 'C';

export type ThreeDsResult = {
  version: typeof THREE_DS_VERSION;
  status: ThreeDsStatus;
  eci: string;
  challenged: boolean;
  /**
   * The CAVV-like proof the processor checks (Y and A only). It goes to the authorization and
   * nowhere else: never into an API answer, a log line or a stored row (ORCHESTRATION.md 5).
   */
  authenticationValue: string | null;
};

/** What `additional_fields.three_ds` and `transactions.three_ds` hold: the result without its authentication value. */
export type PublicThreeDs = Omit<ThreeDsResult, 'authenticationValue'>;

export type Authentication =
  { kind: 'frictionless'; result: ThreeDsResult } | { kind: 'challenge' } | { kind: 'failed'; result: ThreeDsResult };

export type ChallengeAnswer = { kind: 'done'; result: ThreeDsResult } | { kind: 'retry'; triesLeft: number };

/** The sandbox one-time code of every challenge (the page hints at it). */
export const SANDBOX_CHALLENGE_CODE = '123456';
/** Wrong codes the ACS takes before it fails the authentication. */
export const CHALLENGE_TRIES = 3;

// The test PANs of ORCHESTRATION.md 1 that behave differently here; every other valid card is
// authenticated frictionless (3063 and 3261 are named only to say so: 3261's issuer declines
// 65 without authentication, and the step-up then passes without the payer).
const CHALLENGE = '4000000000003220';
const CHALLENGE_ALWAYS_FAILS = '4000000000003253';

// Electronic Commerce Indicator by brand and status: Mastercard has its own values; Visa's are
// used by Amex, Discover and Diners. U and N both mean "not authenticated".
const ECI: Record<'MASTERCARD' | 'OTHER', Record<'Y' | 'A' | 'N' | 'U', string>> = {
  MASTERCARD: { Y: '02', A: '01', N: '00', U: '00' },
  OTHER: { Y: '05', A: '06', N: '07', U: '07' },
};

function resultFor(pan: string, status: 'Y' | 'A' | 'N' | 'U', challenged: boolean): ThreeDsResult {
  const table = detectBrand(pan) === 'MASTERCARD' ? ECI.MASTERCARD : ECI.OTHER;
  return {
    version: THREE_DS_VERSION,
    status,
    eci: table[status],
    challenged,
    // A CAVV is 20 bytes; random here, since only the sandbox processors read it.
    authenticationValue: status === 'Y' || status === 'A' ? randomBytes(20).toString('base64') : null,
  };
}

/**
 * The directory server's answer to an authentication request. The amount and currency travel
 * in a real AReq (an issuer's risk engine weighs them); the sandbox rules go by PAN alone.
 */
export function authenticate(request: { pan: string; amount: bigint; currency: string }): Authentication {
  const { pan } = request;
  // The API refuses such cards before this; an ACS that cannot place a card answers U.
  if (!isValidPan(pan) || detectBrand(pan) === null) return { kind: 'failed', result: resultFor(pan, 'U', false) };
  if (pan === CHALLENGE || pan === CHALLENGE_ALWAYS_FAILS) return { kind: 'challenge' };
  return { kind: 'frictionless', result: resultFor(pan, 'Y', false) };
}

/**
 * The ACS's check of the code the payer typed on the challenge page: the sandbox code passes
 * (except on the card whose challenge can never be passed, which fails at its first code, and
 * once the tries are spent), a wrong one leaves `triesLeft`, and the third wrong one fails the
 * authentication.
 */
export function verifyChallenge(attempt: { pan: string; code: string; triesSoFar: number }): ChallengeAnswer {
  // A challenge whose tries are spent stays failed, even if a code arrives after them.
  if (attempt.pan === CHALLENGE_ALWAYS_FAILS || attempt.triesSoFar >= CHALLENGE_TRIES) {
    return { kind: 'done', result: resultFor(attempt.pan, 'N', true) };
  }
  if (attempt.code === SANDBOX_CHALLENGE_CODE) return { kind: 'done', result: resultFor(attempt.pan, 'Y', true) };
  const wrong = Math.max(0, attempt.triesSoFar) + 1;
  if (wrong >= CHALLENGE_TRIES) return { kind: 'done', result: resultFor(attempt.pan, 'N', true) };
  return { kind: 'retry', triesLeft: CHALLENGE_TRIES - wrong };
}

/** The result as answers, logs and rows may show it: `additional_fields.three_ds` (ORCHESTRATION.md 5). */
export function publicThreeDs(result: ThreeDsResult): PublicThreeDs {
  return { version: result.version, status: result.status, eci: result.eci, challenged: result.challenged };
}
