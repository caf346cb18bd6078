import type { Prisma } from '@/generated/prisma/client';
import { payerPageUrl } from '@/server/modules/charges/payer/payer-url';
import { sealForChallenge } from '@/server/modules/charges/card-vault';
import { CHALLENGE_EXPIRY_SECONDS, pendingChallenge } from '@/server/core/three-ds/challenge-state';
import { publicThreeDs, type ThreeDsResult } from '@/server/core/three-ds/directory';
import type { Db } from '@/server/platform/db/client';
import { carriesSavedCard, nextStep, type AttemptFailure } from '@/server/core/orchestration';
import { transactionReference, type AuthorizeResult, type ConnectorContext, type PaymentConnector } from '@/server/payments';
import { connectorById } from '@/server/modules/processors/connectors';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import type { TransactionRow } from '@/server/modules/charges/transaction-view';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { inquiryVerdict } from '../verdict';
import { authorizeWithin, holdWithin, statusWithin } from './ask-processor';
import { instrumentOf } from './payment-instrument';
import {
  attemptRows,
  newAttempt,
  orderFacts,
  outcomeColumns,
  settledMoves,
  settledRow,
  type Attempt,
  type ChargeBase,
  type Inquired,
  type Settlement,
  type Verifying,
} from './attempt-rows';
import { attemptRoute, type ChargePlan } from './plan-charge';
import { forProcessor, publicAuthentication, stepUpAuthentication } from './three-ds';
import { recordAttempt, type AttemptOutcomeRows } from './record-attempt';
import { NOTHING_OF_THE_CARD, recordSavingCard } from './save-on-approval';
import { cardNumberOf, savedCardRouting } from './stored-credential';
import { provisionCardToken } from './provision-token';
import { awaitAnswer, replyOf } from './stored-answer';

// The attempts of one charge (docs/ORCHESTRATION.md 3): ask the attempt's processor; after an
// ambiguous answer ask it for the status before anything else; then either answer (approved,
// pending, still in doubt) or, as the retry policy allows, record the failure and the next
// candidate's attempt in one statement and go on. An operation never holds two approvals: a
// next attempt is made only after a failure the processor confirmed, and the statement moves
// an attempt only from the state it was claimed in.

/** When the worker's status sync should look at an attempt nobody settled (a crash while it was with its processor). */
export function statusCheckAfter(connector: PaymentConnector, from = Date.now()): Date {
  return new Date(from + connector.timeoutMs + STATUS_CHECK_GRACE_MS);
}

const STATUS_CHECK_GRACE_MS = 30_000;
/** The first status inquiry after a still-unknown answer; the worker backs off from there. */
export const FIRST_STATUS_CHECK_MS = 30_000;

export async function runAttempts(prisma: Db, request: ChargeBase, plan: ChargePlan, first: Attempt): Promise<ChargeResponse> {
  const startedAt = Date.now();
  // The request's facts, with the payment's authentication once a step-up gives it one.
  let base = request;
  let attempt = first;
  // The candidate the current attempt went to; a step-up stays on it.
  let index = 0;
  // The attempts sent to a processor: one its bulkhead kept back spends none of the policy's.
  let sentCount = 0;
  for (;;) {
    const connector = await connectorOf(prisma, attempt.connectorId);
    const sentAt = new Date();
    const instrument = instrumentOf(base.body.payment_method, base.storedCredential, connector.id, base.heldCard ?? null);
    const context = contextOf(base, attempt, sentAt);
    const { answer, sent } = await authorizeWithin(connector, instrument, context);
    const latencyMs = Date.now() - sentAt.getTime();
    const result = isAmbiguous(answer) ? await afterAmbiguity(connector, attempt, answer.processorReference) : answer;

    if (sent) sentCount += 1;
    const failure: AttemptFailure | null = sent
      ? failureOf(result, attempt.row.method)
      : { kind: 'technical', reason: 'kept_back' };
    const step = failure
      ? nextStep({
          policy: plan.policy,
          method: attempt.row.method,
          failure,
          attemptsMade: sentCount,
          elapsedMs: Date.now() - startedAt,
          candidatesLeft: plan.candidates.length - index - 1,
          authenticated: base.authentication !== null,
          stepUpAllowed: plan.stepUpAllowed,
        })
      : 'stop';
    // Step-up (docs/ORCHESTRATION.md 5): the payment is authenticated once, then tried again on
    // the processor that asked; a challenge leaves the next attempt waiting for its payer.
    // The step-up's authorization goes to the first candidate from here that takes the result:
    // a processor that cannot would only decline again, the payer authenticated for nothing.
    const stepUpIndex =
      step === 'step_up' ? plan.candidates.findIndex((each, at) => at >= index && plan.threeDsCapable.has(each.connector)) : -1;
    const stepUp = stepUpIndex >= 0 ? stepUpAuthentication(base) : null;
    if (stepUp?.kind === 'frictionless') base = { ...base, authentication: stepUp.result };
    const nextCandidate =
      step === 'next_candidate'
        ? plan.candidates[index + 1]
        : stepUp && stepUp.kind !== 'failed'
          ? plan.candidates[stepUpIndex]
          : undefined;
    const next = nextCandidate ? newAttempt(base, attemptRoute(plan, nextCandidate), attempt.number + 1, new Date()) : null;

    const decidedAt = new Date();
    const settlement: Settlement = {
      result: asSettled(result),
      sentAt,
      decidedAt,
      latencyMs,
      declineClass: failure ? (failure.kind === 'declined' ? failure.declineClass : 'technical') : null,
      statusCheckAt: result.outcome === 'verifying' ? new Date(decidedAt.getTime() + FIRST_STATUS_CHECK_MS) : null,
      threeDs: stepUp?.kind === 'failed' ? publicThreeDs(stepUp.result) : publicAuthentication(base.authentication),
    };
    if (!next) {
      const { moved, reply, cardId } = await settle(prisma, base, attempt, settlement, { answer: true });
      if (!moved || !reply) return awaitAnswer(prisma, base.merchant, base.body, 0);
      if (cardId && result.outcome === 'approved' && !result.cardToken) {
        await provisionCardToken(prisma, connector, base.storedCredential, cardId, instrument, context);
      }
      return reply;
    }
    const { moved } = await settle(prisma, base, attempt, settlement, {
      next: { ...attemptRows(base, next, statusCheckAfter(await connectorOf(prisma, next.connectorId))), attempt: next.number },
    });
    if (!moved) return awaitAnswer(prisma, base.merchant, base.body, 0);
    if (stepUp?.kind === 'challenge') return awaitChallenge(prisma, base, next);
    if (step === 'next_candidate') index += 1;
    if (stepUp) index = stepUpIndex;
    attempt = next;
  }
}

/** What a connector is told of the payment an attempt makes. */
function contextOf(base: ChargeBase, attempt: Attempt, now: Date): Omit<ConnectorContext, 'signal'> {
  return {
    now,
    transactionId: attempt.row.id,
    amount: attempt.row.amount,
    currency: attempt.row.currency,
    order: orderFacts(base),
    payerPageUrl: payerPageUrl(attempt.payerToken),
    expirySeconds: base.merchant.expirySeconds[attempt.row.method],
    capture: base.captureMode === 'MANUAL' ? 'manual' : 'automatic',
    ...(base.authentication ? { authentication: forProcessor(base.authentication) } : {}),
  };
}

/**
 * The challenge a payment waits on: its attempt, in flight until now, written PENDIENTE with the
 * challenge page to continue at and its card vaulted, in one statement (the challenge page never
 * shows a payment whose card it cannot authorize). The security code is not vaulted: a processor
 * that authorizes no card without it is asked first for a one-use token of the card (`holdCard`),
 * charged after the challenge, which then expires with the token.
 */
export async function awaitChallenge(prisma: Db, base: ChargeBase, attempt: Attempt): Promise<ChargeResponse> {
  const method = base.body.payment_method;
  if (method.method_name !== 'CARD') throw new Error('only a card payment is authenticated with 3-D Secure');
  if (attempt.written !== 'claim') throw new Error('a challenge is awaited by an attempt in flight');
  const held = await holdCard(prisma, base, attempt);
  const decidedAt = new Date();
  const expiresAt = new Date(
    Math.min(decidedAt.getTime() + CHALLENGE_EXPIRY_SECONDS * 1000, held?.expiresAt.getTime() ?? Number.POSITIVE_INFINITY),
  );
  const { pan, expiryDate } = cardNumberOf(base.body);
  const card = sealForChallenge({ pan, expiryDate }, held && { connectorId: attempt.connectorId, token: held.token }, expiresAt);
  const settlement: Settlement = {
    result: {
      outcome: 'pending',
      stateReason: STATE_REASONS.challengePending,
      processorResponse: null,
      expiresAt,
      continueUrl: payerPageUrl(attempt.payerToken),
      methodDetails: base.methodDetails,
    },
    sentAt: decidedAt,
    decidedAt,
    latencyMs: 0,
    declineClass: null,
    statusCheckAt: null,
    threeDs: pendingChallenge(),
  };
  return answerWith(prisma, base, attempt, settlement, card);
}

/**
 * The waiting processor's one-use token of a card it cannot authorize without the security code,
 * made while the code is in memory; null when it needs none (`capabilities.cardWithoutCode`, or a
 * saved card's routing without the code: its own token, the NTI), or holds none.
 */
async function holdCard(prisma: Db, base: ChargeBase, attempt: Attempt): Promise<{ token: string; expiresAt: Date } | null> {
  const connector = await connectorOf(prisma, attempt.connectorId);
  const saved = savedCardRouting(base.storedCredential);
  if (connector.capabilities.cardWithoutCode || (saved && carriesSavedCard(connector, { ...saved, securityCode: false }))) {
    return null;
  }
  const instrument = instrumentOf(base.body.payment_method, null, connector.id, null);
  if (instrument.method !== 'CARD' || instrument.securityCode === undefined) return null;
  const answer = await holdWithin(connector, instrument, contextOf(base, attempt, new Date()));
  return answer.outcome === 'held' ? answer : null;
}

/** A payment whose 3-D Secure authentication failed is declined without asking a processor. */
export async function refuseUnauthenticated(
  prisma: Db,
  base: ChargeBase,
  attempt: Attempt,
  result: ThreeDsResult,
): Promise<ChargeResponse> {
  const decidedAt = new Date();
  const settlement: Settlement = {
    result: {
      outcome: 'declined',
      stateReason: STATE_REASONS.unauthenticated,
      // The directory server's transStatus stands where a processor's code would.
      processorResponse: { result_message: { code: result.status, description: STATE_REASONS.unauthenticated } },
      declineClass: 'hard',
      card: null,
      methodDetails: base.methodDetails,
    },
    sentAt: decidedAt,
    decidedAt,
    latencyMs: 0,
    declineClass: 'hard',
    statusCheckAt: null,
    threeDs: publicThreeDs(result),
  };
  const refused = {
    ...attempt,
    row: {
      ...attempt.row,
      additionalFields: { ...(attempt.row.additionalFields as Prisma.JsonObject), three_ds: publicThreeDs(result) },
    },
  };
  return answerWith(prisma, base, refused, settlement);
}

/**
 * Writes how an attempt ended (and the next attempt's claim, if any) in one statement; the
 * approval of a charge that saves its card saves it with that statement (save-on-approval.ts).
 * `moved` false when the attempt was settled already: the worker's status sync settled it first
 * (the processor was slower than its timeout and the grace), and its settlement is the answer.
 */
async function settle(
  prisma: Db,
  base: ChargeBase,
  attempt: Attempt,
  settlement: Settlement,
  { row = settledRow(attempt, settlement), answer = false, next = null, vault = null }: SettleRows,
): Promise<{ moved: boolean; reply: ChargeResponse | null; cardId: string | null }> {
  let reply: ChargeResponse | null = null;
  let cardId: string | null = null;
  const { result } = settlement;
  const approval =
    result.outcome === 'approved'
      ? {
          nti: result.networkTransactionId ?? null,
          cardToken: result.cardToken ? { connectorId: attempt.connectorId, ...result.cardToken } : null,
        }
      : NOTHING_OF_THE_CARD;
  const moved = await recordSavingCard(prisma, row, base.merchant, approval, (db, written, card) => {
    reply = answer ? replyOf(base.merchant, base.body, written) : null;
    cardId = written.savedCardId;
    const moves = settledMoves(base, attempt, written);
    return recordAttempt(
      db,
      {
        transactionId: attempt.row.id,
        from: attempt.written === 'claim' ? 'claim' : attempt.row.state,
        columns: outcomeColumns(base, attempt, written, settlement, reply),
        lifecycle: moves.lifecycle,
        events: moves.events,
        vault,
        next,
        card,
      },
      { inTransaction: db !== prisma },
    );
  });
  return { moved, reply, cardId };
}

type SettleRows = {
  /** The settled attempt's row, when the caller has it already. */
  row?: TransactionRow;
  /** Whether this attempt's outcome is the charge's answer, stored with it. */
  answer?: boolean;
  next?: AttemptOutcomeRows['next'];
  vault?: AttemptOutcomeRows['vault'];
};

/** Settles the attempt whose outcome is the charge's answer, storing that answer with it. */
async function answerWith(
  prisma: Db,
  base: ChargeBase,
  attempt: Attempt,
  settlement: Settlement,
  vault: AttemptOutcomeRows['vault'] = null,
): Promise<ChargeResponse> {
  const { moved, reply } = await settle(prisma, base, attempt, settlement, { answer: true, vault });
  if (moved && reply) return reply;
  return awaitAnswer(prisma, base.merchant, base.body, 0);
}

async function connectorOf(prisma: Db, id: string): Promise<PaymentConnector> {
  const connector = await connectorById(prisma, id);
  if (!connector) throw new Error(`no connector ${id}`);
  return connector;
}

type Answer = AuthorizeResult | Verifying | Inquired;

/** A timeout: the processor may or may not have done what was asked. */
function isAmbiguous(answer: AuthorizeResult): boolean {
  return answer.outcome === 'technical_failure' && answer.reason === 'timeout';
}

/**
 * After an ambiguous answer, only the same processor's status decides (docs/ORCHESTRATION.md 3):
 * the verdict of that status is the attempt's answer; anything undecided leaves the attempt in
 * doubt for the worker. The processor's id, when its answer named the payment while leaving it
 * undecided, is asked by and kept.
 */
async function afterAmbiguity(connector: PaymentConnector, attempt: Attempt, processorReference?: string): Promise<Answer> {
  const status = await statusWithin(
    connector,
    transactionReference({ ...attempt.row, cardBin: null, cardLast4: null, processorReference: processorReference ?? null }),
  );
  const verdict = inquiryVerdict(status);
  const reference = processorReference ? { processorReference } : {};
  if (!verdict) return { outcome: 'verifying', stateReason: STATE_REASONS.verifying, ...reference };
  return {
    outcome: 'inquired',
    verdict,
    notFound: status.outcome === 'not_found',
    stateReason: verdict.stateReason,
    ...reference,
  };
}

/**
 * What routing reads of a failed answer; null when the attempt did not fail. A payment its
 * processor never received lets routing move on, but a Yape payment never does after a timeout,
 * since the payer's one-time code may be spent by then.
 */
function failureOf(result: Answer, method: string): AttemptFailure | null {
  switch (result.outcome) {
    case 'declined':
      return result.declineClass === 'technical'
        ? { kind: 'technical', reason: 'processor_error' }
        : { kind: 'declined', declineClass: result.declineClass };
    case 'technical_failure':
      return { kind: 'technical', reason: result.reason };
    case 'inquired': {
      const { verdict } = result;
      if (verdict.to === 'AUTORIZADO') return null;
      if (result.notFound) return { kind: 'technical', reason: method === 'YAPE' ? 'processor_error' : 'connection_refused' };
      const declineClass = verdict.declineClass ?? 'technical';
      return declineClass === 'technical' ? { kind: 'technical', reason: 'processor_error' } : { kind: 'declined', declineClass };
    }
    // A processor that wants the payer authenticated first: 3-D Secure step-up decides.
    case 'challenge':
      return { kind: 'declined', declineClass: 'sca_required' };
    default:
      return null;
  }
}

/** A challenge this path cannot take the payer through ends as a decline asking for authentication. */
function asSettled(result: Answer): Settlement['result'] {
  if (result.outcome !== 'challenge') return result;
  return {
    outcome: 'declined',
    stateReason: result.stateReason,
    processorResponse: result.processorResponse ?? { result_message: { code: '1A', description: result.stateReason } },
    declineClass: 'sca_required',
    card: result.card,
    methodDetails: result.methodDetails,
  };
}
