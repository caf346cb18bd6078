import type { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/platform/db/client';
import type { TransactionState } from '@/server/core/domain/states';
import { moveTransaction } from '@/server/modules/charges/moves/move-transaction';
import { dropVaultedCard, readVaultedCard } from '@/server/modules/charges/card-vault';
import { pendingChallenge, pendingChallengeOf, type PendingChallenge } from '@/server/core/three-ds/challenge-state';
import { CHALLENGE_TRIES, verifyChallenge, type ThreeDsResult } from '@/server/core/three-ds/directory';
import type { PayerOutcome } from './payer-actions';
import { abandonMove, merchantReturnUrl, PAYER_PAGE_COLUMNS, payerPageHeader, paymentOfToken } from './payer-transaction';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

// The hosted 3-D Secure challenge of a CARD payment (docs/ORCHESTRATION.md 5): the page at
// /pay/<token> shows it while the payment is PENDIENTE with a challenge (`three_ds` status C),
// the payer types the code, the sandbox ACS checks it, and once it has its answer (authenticated,
// or failed: the code of a card that never passes, or the third wrong one) the authorization
// runs through `complete` (the orchestration loop's completeChallenge, injected so this file
// authorizes nothing itself). Wrong tries are counted in `three_ds`, under the row's lock, so
// two tabs or instances count the same tries. The page never sees card data beyond the mask.

export type ChallengeStage =
  /** waiting for the payer's code */
  | 'open'
  /** PENDIENTE, but nothing to type: the code was taken and the payment is being authorized */
  | 'processing'
  /** PENDIENTE past its expiry (the page shows it as expired; the next action or the worker moves it) */
  | 'expired'
  /** the payment has its outcome */
  | 'closed';

export type ChallengeView = {
  token: string;
  transactionId: string;
  merchantName: string;
  merchantSupportEmail: string | null;
  merchantOperationNumber: string;
  amount: bigint;
  currency: string;
  maskedPan: string | null;
  brand: string | null;
  state: TransactionState;
  stage: ChallengeStage;
  expiresAt: Date | null;
  triesLeft: number;
  /** The merchant's redirect_url with the outcome's query parameters, for a payment that has one. */
  returnUrl: string | null;
};

export type CompleteChallenge = (
  transactionId: string,
  result: ThreeDsResult,
) => Promise<{ state: string; redirectUrl: string | null }>;

export type ChallengeOutcome =
  /** `redirectUrl`: where the payer's browser goes (the merchant's, with the state), or null for the result page. */
  | { kind: 'completed'; state: string; redirectUrl: string | null }
  | { kind: 'retry'; triesLeft: number }
  /** not six digits: no try is counted (the field says what it wants) */
  | { kind: 'invalid_code' }
  /** the card is no longer in the vault: the payment cannot be authorized and ends at its expiry */
  | { kind: 'unavailable' }
  | { kind: 'unchanged'; state: string }
  | { kind: 'expired' }
  | { kind: 'not_found' };

const CODE = /^\d{6}$/;

/** The challenge page of `token`: null when the token names no CARD payment (the other payer pages show it). */
export async function challengeView(db: Db, token: string, now = new Date()): Promise<ChallengeView | null> {
  const row = await paymentOfToken(db, token, { ...PAYER_PAGE_COLUMNS, maskedPan: true, cardBrand: true, threeDs: true });
  if (!row || row.method !== 'CARD') return null;
  const pending = pendingChallengeOf(row.threeDs);
  const stage: ChallengeStage =
    row.state !== 'PENDIENTE'
      ? 'closed'
      : row.expiresAt !== null && row.expiresAt <= now
        ? 'expired'
        : pending && !pending.completing
          ? 'open'
          : 'processing';
  const shownState: TransactionState = stage === 'expired' ? 'EXPIRADO' : row.state;
  return {
    ...payerPageHeader(token, row),
    amount: row.amount,
    currency: row.currency,
    maskedPan: row.maskedPan,
    brand: row.cardBrand,
    state: shownState,
    stage,
    expiresAt: row.expiresAt,
    triesLeft: Math.max(0, CHALLENGE_TRIES - (pending?.tries ?? 0)),
    returnUrl:
      stage === 'closed' || stage === 'expired'
        ? merchantReturnUrl(
            {
              redirectUrl: row.redirectUrl,
              merchantOperationNumber: row.operation.merchantOperationNumber,
              transactionId: row.id,
            },
            shownState,
          )
        : null,
  };
}

type Locked = { id: string; method: string; state: TransactionState; expires_at: Date | null; three_ds: Prisma.JsonValue };

/** Runs `act` on the challenge payment of `token` with its row locked, after the checks every action shares. */
async function withLockedChallenge<T>(
  db: Db,
  transactionId: string,
  act: (tx: Tx, pending: PendingChallenge, now: Date) => Promise<T>,
): Promise<T | { kind: 'unchanged'; state: string } | { kind: 'expired' }> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Locked[]>`
      SELECT id, method, state, expires_at, three_ds FROM transactions WHERE id = ${transactionId}::uuid FOR UPDATE`;
    if (!row || row.state !== 'PENDIENTE') return { kind: 'unchanged' as const, state: row?.state ?? 'NONE' };
    const now = new Date();
    if (row.expires_at && row.expires_at <= now) {
      // As the other payer pages do: the payment moves on its next action, and its card goes with it.
      await moveTransaction(tx, row.id, 'PENDIENTE', 'EXPIRADO', { stateReason: STATE_REASONS.expired }, now);
      await dropVaultedCard(tx, row.id);
      return { kind: 'expired' as const };
    }
    const pending = pendingChallengeOf(row.three_ds);
    // No challenge waiting, or another submission took the final answer and is authorizing.
    if (!pending || pending.completing) return { kind: 'unchanged' as const, state: row.state };
    return act(tx, pending, now);
  });
}

async function challengeTransaction(db: Db, token: string) {
  const row = await paymentOfToken(db, token, {
    id: true,
    method: true,
    redirectUrl: true,
    operation: { select: { merchantOperationNumber: true } },
  });
  return row && row.method === 'CARD' ? row : null;
}

/**
 * The payer's code. A wrong one counts a try (`retry`); the ACS's final answer marks the
 * challenge as completing (so a second tab cannot complete it again), then `complete` authorizes
 * with the result, outside the row's lock (the authorization moves the row itself). Should
 * `complete` fail, the mark is lifted so the payer can try again, and the error is rethrown.
 */
export async function submitChallengeCode(
  db: Db,
  token: string,
  code: string,
  complete: CompleteChallenge,
): Promise<ChallengeOutcome> {
  const payment = await challengeTransaction(db, token);
  if (!payment) return { kind: 'not_found' };
  const typed = code.trim();
  // The PAN is needed by the sandbox ACS's rules; it stays in memory, here and in verifyChallenge.
  const card = CODE.test(typed) ? await readVaultedCard(db, payment.id) : null;
  const decided = await withLockedChallenge(db, payment.id, async (tx, pending) => {
    if (!CODE.test(typed)) return { kind: 'invalid_code' as const };
    if (!card) return { kind: 'unavailable' as const };
    const answer = verifyChallenge({ pan: card.pan, code: typed, triesSoFar: pending.tries });
    const tries = answer.kind === 'retry' || answer.result.status === 'N' ? pending.tries + 1 : pending.tries;
    const next: PendingChallenge =
      answer.kind === 'retry' ? pendingChallenge(tries) : { ...pendingChallenge(tries), completing: true };
    await tx.transaction.update({ where: { id: payment.id }, data: { threeDs: next } });
    return answer.kind === 'retry' ? answer : { kind: 'authenticate' as const, result: answer.result };
  });
  if (decided.kind !== 'authenticate') return decided;

  let completed: { state: string; redirectUrl: string | null };
  try {
    completed = await complete(payment.id, decided.result);
  } catch (error) {
    await db.$executeRaw`
      UPDATE transactions SET three_ds = three_ds - 'completing'
      WHERE id = ${payment.id}::uuid AND state = 'PENDIENTE' AND three_ds ->> 'completing' = 'true'`;
    throw error;
  }
  // `complete` answers the merchant's redirect_url (null without one); the payer's browser goes
  // there with the same query parameters as after the other payer pages (docs/DESIGN.md 8).
  const redirectUrl = merchantReturnUrl(
    {
      redirectUrl: completed.redirectUrl,
      merchantOperationNumber: payment.operation.merchantOperationNumber,
      transactionId: payment.id,
    },
    completed.state,
  );
  return { kind: 'completed', state: completed.state, redirectUrl };
}

/** The payer gives up on the challenge: CANCELADO (nothing was charged), and the card leaves the vault at once. */
export async function cancelChallenge(db: Db, token: string): Promise<PayerOutcome> {
  const payment = await challengeTransaction(db, token);
  if (!payment) return { kind: 'not_found' };
  return withLockedChallenge(db, payment.id, async (tx, _pending, now) => {
    await abandonMove(tx, payment.id, now);
    await dropVaultedCard(tx, payment.id);
    return { kind: 'moved' as const, state: 'CANCELADO' as const };
  });
}
