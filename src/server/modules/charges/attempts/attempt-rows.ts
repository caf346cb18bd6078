import { randomBytes, randomUUID } from 'node:crypto';
import { env } from '@/env';
import type { Prisma } from '@/generated/prisma/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import type { CardDescription } from '@/server/core/domain/card';
import { captureBefore, type CaptureMode } from '@/server/core/domain/money-movements';
import type { AuthorizeResult, CardFields, DeclineClass, OrderFacts } from '@/server/payments';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import { publicThreeDs, type ThreeDsResult } from '@/server/core/three-ds/directory';
import { chargeMoves } from '@/server/modules/charges/moves/charge-moves';
import type { TransactionRow } from '@/server/modules/charges/transaction-view';
import type { HeldCard } from '@/server/modules/charges/card-vault';
import type { ClaimRows } from './claim-charge';
import type { OutcomeColumns, TransactionColumns } from './transaction-columns';
import { authorizationVerdict, verdictRow, type Verdict } from '../verdict';
import { storedCredentialFields, type StoredCredentialUse } from './stored-credential';

// The rows of one attempt as the charge statements write them, and the row as the answer and
// the events show it (the same values: one is made from the other).

/** What every attempt of one charge request shares. */
export type ChargeBase = {
  merchant: ActingMerchant;
  body: ChargeRequest;
  requestHash: string;
  /** The card as the request describes it (CARD only): routing facts and the row's card fields. */
  card: CardDescription | null;
  /** The method_details an attempt shows until its processor answers. */
  methodDetails: Record<string, unknown>;
  /** The payment's 3-D Secure result once it has one: every later attempt reuses it (docs/ORCHESTRATION.md 5). */
  authentication: ThreeDsResult | null;
  /** MANUAL: authorized now, captured later by the merchant (docs/DECISIONS.md "Capture later"). */
  captureMode: CaptureMode;
  /** The card save its approval makes (`save_card`), written before the claim (modules/customers/card-saves.ts). */
  cardSaveId: string | null;
  /** The charge that saves a card, or a saved card's charge (stored-credential.ts); null for any other. */
  storedCredential: StoredCredentialUse | null;
  /** After a 3-D Secure challenge: the token of the card its waiting processor made before it (card-vault.ts). */
  heldCard?: HeldCard | null;
};

/** Why routing chose an attempt's connector (stored in `transactions.routing`). */
export type RoutingChoice = { rule_version: number | null; route: number | null; reason: string };

/** An attempt in memory: its row as the answer shows it, and what the statements need besides. */
export type Attempt = {
  row: TransactionRow;
  number: number;
  connectorId: string;
  routing: RoutingChoice;
  /**
   * Where it is stored: its claim (an attempt in flight: its REGISTRADO event written, its
   * transaction not yet) or its transaction (a payment waiting for its payer's challenge).
   */
  written: 'claim' | 'row';
  payerToken: string;
};

const audienceOf = (base: ChargeBase) => ({
  merchantId: base.merchant.id,
  merchantCode: base.merchant.code,
  merchantOperationNumber: base.body.merchant_operation_number,
});

/**
 * A payment's capture window: the merchant's, ended sooner by a processor that releases an
 * uncaptured authorization on its own (`captureHoldDays`); tests may set one of seconds
 * (CAPTURE_WINDOW_SECONDS).
 */
function captureWindowMs(merchant: ActingMerchant, holdDays: number | undefined): number {
  const seconds = env().CAPTURE_WINDOW_SECONDS;
  if (seconds !== undefined) return seconds * 1000;
  return Math.min(merchant.captureWindowDays, holdDays ?? Infinity) * 86_400_000;
}

/** Where routing sends an attempt: the connector, why, and how long it holds an uncaptured authorization. */
export type AttemptRoute = { connectorId: string; routing: RoutingChoice; holdDays?: number };

/** A new attempt, REGISTRADO at `at`; `number` 0 when the claim statement decides it. */
export function newAttempt(
  base: ChargeBase,
  { connectorId, routing, holdDays }: AttemptRoute,
  number: number,
  at: Date,
): Attempt {
  const details = base.body.payment_method.method_details as { callback_url?: string; redirect_url?: string };
  return {
    number,
    connectorId,
    routing,
    written: 'claim',
    payerToken: randomBytes(18).toString('base64url'),
    row: {
      id: randomUUID(),
      method: base.body.payment_method.method_name,
      amount: BigInt(base.body.payment_details.amount),
      currency: base.body.payment_details.currency,
      state: 'REGISTRADO',
      stateReason: '',
      expiresAt: null,
      continueUrl: null,
      callbackUrl: details.callback_url ?? null,
      redirectUrl: details.redirect_url ?? null,
      methodDetails: base.methodDetails as Prisma.JsonObject,
      processorResponse: null,
      additionalFields: additionalFieldsOf(base, connectorId, number),
      processorReference: null,
      cardSaveId: base.cardSaveId,
      savedCardId: base.storedCredential?.cardId ?? null,
      // A payment to capture later is UNCAPTURED from its first attempt; its window counts from
      // the attempt (the authorization follows within the processor's timeout, or the payer's
      // 3-D Secure challenge).
      captureStatus: base.captureMode === 'MANUAL' ? 'UNCAPTURED' : null,
      capturedAmount: null,
      captureBefore: base.captureMode === 'MANUAL' ? captureBefore(at, captureWindowMs(base.merchant, holdDays)) : null,
      createdAt: at,
      lifecycle: [{ state: 'REGISTRADO', at }],
    },
  };
}

/** The claim of a new attempt (the first, or the next beside a failed one's outcome). */
export function attemptRows(base: ChargeBase, attempt: Attempt, statusCheckAt: Date): ClaimRows {
  const { row } = attempt;
  const card = base.card;
  const moves = chargeMoves(row, audienceOf(base));
  return {
    transaction: {
      id: row.id,
      merchant_id: base.merchant.id,
      method: row.method,
      amount: row.amount,
      currency: row.currency,
      state: row.state,
      state_reason: row.stateReason,
      expires_at: null,
      continue_url: null,
      payer_token: null,
      ...cardColumns(card),
      payer_email: base.body.payment_details.customer.email ?? null,
      payer_name: payerNameOf(base.body.payment_details.customer),
      callback_url: row.callbackUrl,
      redirect_url: row.redirectUrl,
      method_details: row.methodDetails,
      processor_response: null,
      additional_fields: row.additionalFields,
      request_hash: base.requestHash,
      connector_id: attempt.connectorId,
      routing: attempt.routing,
      status_check_at: statusCheckAt,
      capture_status: row.captureStatus,
      capture_before: row.captureBefore,
      card_save_id: row.cardSaveId,
      saved_card_id: row.savedCardId,
      created_at: row.createdAt,
      updated_at: row.createdAt,
    } satisfies TransactionColumns,
    events: moves.events,
  };
}

/** What every attempt notes (docs/ORCHESTRATION.md 3, 5): its processor, its number, the 3-D Secure result. */
export function additionalFieldsOf(base: ChargeBase, connectorId: string, number: number): Prisma.JsonObject {
  return {
    processor: connectorId,
    attempt: number,
    ...(base.authentication ? { three_ds: publicThreeDs(base.authentication) } : {}),
    ...storedCredentialFields(base.storedCredential),
  };
}

/** How an attempt ended, as its row keeps it. */
export type Settlement = {
  result: Exclude<AuthorizeResult, { outcome: 'challenge' }> | Verifying | Inquired;
  sentAt: Date;
  decidedAt: Date;
  latencyMs: number;
  declineClass: DeclineClass | null;
  /** The ambiguous answer is being verified: the worker asks the processor again then. */
  statusCheckAt: Date | null;
  /** `transactions.three_ds`: the public result, or the challenge under way. */
  threeDs: Prisma.JsonObject | null;
};

/** No answer and no status yet: the attempt waits PENDIENTE for the status sync. */
export type Verifying = { outcome: 'verifying'; stateReason: string; processorReference?: string };

/**
 * An ambiguous answer the processor's status then decided: its verdict; `notFound` when the
 * processor never received the payment.
 */
export type Inquired = {
  outcome: 'inquired';
  verdict: Verdict;
  notFound: boolean;
  stateReason: string;
  processorReference?: string;
};

/**
 * The attempt once its outcome is known: the row the answer shows. What the processor said of the
 * payment (its details, its reference, a payment order's expiry) is kept PENDIENTE; a verdict
 * (an authorization's decision, or the status that decided an ambiguous one) moves it on.
 */
export function settledRow(attempt: Attempt, settlement: Settlement): TransactionRow {
  const { result } = settlement;
  // An attempt that waited for its payer's challenge is PENDIENTE already.
  const lifecycle =
    attempt.row.state === 'PENDIENTE'
      ? [...attempt.row.lifecycle]
      : [...attempt.row.lifecycle, { state: 'PENDIENTE' as const, at: settlement.sentAt }];
  // A failure the service noted itself (timeout, a throwing connector) carries no details: the request's stay.
  const decided = 'methodDetails' in result && Object.keys(result.methodDetails).length > 0 ? result : null;
  const pending: TransactionRow = {
    ...attempt.row,
    state: 'PENDIENTE',
    stateReason: result.stateReason,
    expiresAt: result.outcome === 'pending' ? result.expiresAt : null,
    continueUrl: result.outcome === 'pending' ? result.continueUrl : null,
    methodDetails: (decided?.methodDetails ?? attempt.row.methodDetails) as Prisma.JsonObject,
    processorResponse: 'processorResponse' in result ? result.processorResponse : null,
    // A sandbox processor's page that simulates the payer's payment.
    additionalFields: withAnswerFields(attempt.row.additionalFields, result),
    // The processor's id of the payment, which its reversal, capture, refunds and inquiries name.
    processorReference: result.processorReference ?? attempt.row.processorReference,
    lifecycle,
  };
  const verdict = result.outcome === 'inquired' ? result.verdict : authorizationVerdict(result);
  return verdict ? verdictRow(pending, verdict, settlement.decidedAt) : pending;
}

/** The outcome columns of a settled attempt; `reply` is stored only on the answer's attempt. */
export function outcomeColumns(
  base: ChargeBase,
  attempt: Attempt,
  row: TransactionRow,
  settlement: Settlement,
  reply: unknown,
): Omit<OutcomeColumns, 'status_checks'> {
  const { result } = settlement;
  // A processor's card (a wallet's virtual card) wins over the request's; without one, the row keeps the request's.
  const card: CardFields | null = ('card' in result ? result.card : null) ?? base.card;
  return {
    state: row.state,
    state_reason: row.stateReason,
    expires_at: row.expiresAt,
    continue_url: row.continueUrl,
    payer_token: result.outcome === 'pending' ? attempt.payerToken : null,
    ...cardColumns(card),
    method_details: row.methodDetails,
    processor_response: row.processorResponse,
    additional_fields: row.additionalFields,
    saved_card_id: row.savedCardId,
    processor_reference: row.processorReference,
    authorization_reply: reply,
    decline_class: settlement.declineClass,
    three_ds: settlement.threeDs,
    latency_ms: settlement.latencyMs,
    status_check_at: settlement.statusCheckAt,
    updated_at: settlement.decidedAt,
  };
}

/**
 * The lifecycle entries and events the settled attempt's outcome writes: the events of its moves
 * after those it had; the entries likewise for a written row, all of them for a claim (its
 * transaction is written whole).
 */
export function settledMoves(base: ChargeBase, attempt: Attempt, row: TransactionRow) {
  const moves = chargeMoves(row, audienceOf(base), attempt.row.lifecycle.length);
  return {
    lifecycle: attempt.written === 'claim' ? row.lifecycle.map(({ state, at }) => ({ state, at })) : moves.lifecycle,
    events: moves.events,
  };
}

/** The row's display-only card columns (never the PAN or security code). */
function cardColumns(card: CardFields | null) {
  return {
    card_bin: card?.bin ?? null,
    card_last4: card?.last_pan ?? null,
    masked_pan: card?.masked_pan ?? null,
    card_brand: card?.brand ?? null,
    card_type: card?.card_type ?? null,
    card_country: card?.card_country ?? null,
    card_issuer: card?.issuer ?? null,
  };
}

/** An attempt's additional fields with what its processor's answer adds to them. */
function withAnswerFields(fields: Prisma.JsonValue | null, result: Settlement['result']): Prisma.JsonObject | null {
  return result.outcome === 'pending' && result.simulatedPaymentUrl
    ? { ...(fields as Prisma.JsonObject | null), sandbox: { pay_url: result.simulatedPaymentUrl } }
    : (fields as Prisma.JsonObject | null);
}

/** What a processor is told of the order: its number, a description, and the payer (the customer, else the billing person). */
export function orderFacts(base: ChargeBase): OrderFacts {
  const { customer, billing } = base.body.payment_details;
  const phone = customer.phone ?? billing.phone;
  const location = customer.location?.line_1 && customer.location.city ? customer.location : billing.location;
  return {
    merchantOperationNumber: base.body.merchant_operation_number,
    merchantName: base.merchant.name,
    description: `${base.merchant.name} ${base.body.merchant_operation_number}`.slice(0, 80),
    payer: {
      email: customer.email ?? billing.email ?? null,
      firstName: customer.first_name ?? billing.first_name ?? null,
      lastName: customer.last_name ?? billing.last_name ?? null,
      phone: phone?.subscriber ? `${phone.country_code ?? ''}${phone.subscriber}` : null,
      ...(location?.line_1 && location.city
        ? { address: { line: location.line_1, city: location.city, country: location.country ?? null } }
        : {}),
    },
  };
}

/** The customer's name as sent ("Ana Quispe"), or null when neither part came. */
function payerNameOf(customer: ChargeRequest['payment_details']['customer']): string | null {
  return [customer.first_name, customer.last_name].filter(Boolean).join(' ') || null;
}
