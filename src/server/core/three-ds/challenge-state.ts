// What `transactions.three_ds` holds while a CARD payment waits for its payer's challenge
// (docs/ORCHESTRATION.md 5): status C and the wrong codes so far, so every instance counts the
// same tries. `completing` marks the one submission that took the ACS's final answer and is
// authorizing: a second tab's code then changes nothing. Once authorized or declined the column
// holds the public result (directory.ts `publicThreeDs`), never the authentication value.
export type PendingChallenge = { status: 'C'; tries: number; completing?: true };

/** What the orchestration loop stores when it starts a challenge (with the card in the vault). */
export function pendingChallenge(tries = 0): PendingChallenge {
  return { status: 'C', tries };
}

/** The pending challenge a `three_ds` value holds, or null when it holds none (a result, or nothing). */
export function pendingChallengeOf(value: unknown): PendingChallenge | null {
  if (typeof value !== 'object' || value === null) return null;
  const { status, tries, completing } = value as Record<string, unknown>;
  if (status !== 'C') return null;
  const counted = typeof tries === 'number' && Number.isInteger(tries) && tries >= 0 ? tries : 0;
  return completing === true ? { status: 'C', tries: counted, completing: true } : { status: 'C', tries: counted };
}

/** How long a payment waits for its challenge (ORCHESTRATION.md 5: `expiration_date` 10 minutes). */
export const CHALLENGE_EXPIRY_SECONDS = 600;
