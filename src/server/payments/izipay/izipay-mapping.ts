import { parseExpiry } from '@/server/core/domain/card';
import { CURRENCIES, type CurrencyCode } from '@/server/core/domain/money';
import type { AuthorizeResult, CardFields, ConnectorContext, PaymentInstrument, RefundRequest, VerifyResult } from '../connector';
import { type cardPayment } from '../method-details';
import { approval, decline, technicalFailure } from '../outcomes';
import { errorWords, transactionOf, transactionsOf, type IzipayAnswer, type IzipayTransaction } from './izipay-client';
import { CHALLENGE_CODE, izipayDeclineClass } from './izipay-codes';
import { approvalCodes, refusalCode } from './izipay-records';

// Izipay's payments as data (docs/processors/izipay.md; research notes
// docs/processors/sources/izipay-api.md, "§N"): the bodies the connector sends and what Izipay's
// answers mean, with no I/O, tested with the documentation's own examples (izipay-mapping.test.ts).
//
// A card payment at Izipay: one `Charge/CreatePayment` carrying the card (`paymentForms[]`), for a
// PCI-DSS merchant whose contract allows it (research §2.2: "Si cuenta con el certificado PCI DSS,
// puede transmitir los datos sensibles … directamente al servicio web" [CI-pg]; body as
// micuentaweb's own quick start [MCW-quick] and Lyra's PCI.php [php-ex]). Izipay documents no
// server-side Yape or QR for this API (§9): the connector carries CARD only.
//
// 3-D Secure is Izipay's own (it is the 3DS server, §2.3); this API documents no way to pass a
// result the service obtained itself (§2.3, §15.4), so the connector declares `threeDsResult:
// false`. When the issuer wants a challenge, CreatePayment answers `V4/Charge/RedirectRequest`
// (a form to auto-POST to Izipay's ACS page, then back to merchantPostUrl*: §2.2 [MCW-quick],
// [php-ex] PCI.3DS.php), or in V4.1 an `AuthenticationSessionResponse` for the kr-authenticate.js
// library (§2.2 [MCW-pci-ch]). Neither is a URL a payer can simply open, and the result would come
// back to neither the connector nor the service's challenge page: the attempt is declined
// `sca_required` (code `3DS_CHALLENGE`, ours), which routing reads as "authenticate, then try a
// processor that takes the result".
//
// Izipay keeps no idempotency key (§11): the payment is sent once per attempt, with our
// transaction id as `orderId`, and a lost answer is settled by `Order/Get` (izipay-records.ts).

/** The card fields Izipay refuses as the card's own (pan, expiry, security code, network): a decline, not our fault (§8.5). */
const CARD_FIELD_ERRORS = new Set(['INT_040', 'INT_041', 'INT_042', 'INT_043', 'INT_044', 'INT_045', 'INT_879']);

export type Described = ReturnType<typeof cardPayment>;

function emailOf(context: ConnectorContext): string | null {
  const email = context.order.payer.email;
  // INT_015 "invalid customer email" (§8.5): a malformed one is left out rather than failing the payment.
  return email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 150 ? email : null;
}

/**
 * How a payment uses Izipay's saved cards (Lyra's REST API V4, which Izipay's is:
 * docs.lyra.com/en/rest/V4.0/api/kb/token_with_payment.html and …/kb/zero_click_payment.html):
 * a charge of a card Izipay holds names its `paymentMethodToken` with `formAction: SILENT`, no card
 * data; a customer-initiated charge of a card to save, that Izipay holds no token for, registers it
 * (`REGISTER_PAY`: the answer's transaction carries the new `paymentMethodToken`); an MIT sends the
 * first CIT's `initialIssuerTransactionIdentifier` in `transactionOptions.cardOptions`, with the
 * token or with the card. Recorded answer of a SILENT payment: openfun/joanie
 * src/backend/joanie/tests/payment/lyra/responses/create_zero_click_payment.json.
 */
export function savedCardUse(instrument: Extract<PaymentInstrument, { method: 'CARD' }>) {
  const stored = instrument.storedCredential;
  const token = stored?.processorToken?.token ?? null;
  return {
    token,
    registers: token === null && stored?.initiator === 'CUSTOMER' && instrument.securityCode !== undefined,
    initialNti: stored?.initiator === 'MERCHANT' ? stored.initialNti : null,
  };
}

/** The card as `paymentForms[0]` (§2.2 [MCW-quick]); a saved card's charge may come without its security code. */
function cardForm(instrument: Extract<PaymentInstrument, { method: 'CARD' }>) {
  const expiry = parseExpiry(instrument.expiry);
  const holder = [instrument.holder?.firstName, instrument.holder?.lastName].filter(Boolean).join(' ');
  return {
    paymentMethodType: 'CARD',
    pan: instrument.pan,
    // Two-digit month and year, as strings (§2.2 [MCW-quick]: "expiryMonth": "11", "expiryYear": "21").
    expiryMonth: expiry ? String(expiry.month).padStart(2, '0') : instrument.expiry.slice(0, 2),
    expiryYear: expiry ? String(expiry.year % 100).padStart(2, '0') : instrument.expiry.slice(2),
    ...(instrument.securityCode !== undefined ? { securityCode: instrument.securityCode } : {}),
    ...(holder ? { cardHolderName: holder } : {}),
  };
}

export function paymentBody(
  instrument: Extract<PaymentInstrument, { method: 'CARD' }>,
  context: ConnectorContext,
  notificationUrl: string,
) {
  const email = emailOf(context);
  const use = savedCardUse(instrument);
  const cardOptions = {
    // Authorize only, validated (captured) later by Transaction/Validate (§3.1). The path
    // `transactionOptions.cardOptions.manualValidation` is **unconfirmed** (§2.1, §15.3): it is
    // where `installmentNumber` goes ([php-ex] createSilentPay.php), and the name is the one
    // Transaction/Update and the IPN's cardDetails use.
    ...(context.capture === 'manual' ? { manualValidation: 'YES' } : {}),
    ...(use.initialNti ? { initialIssuerTransactionIdentifier: use.initialNti } : {}),
  };
  return {
    // Integer, in the currency's smallest unit: 990 = S/ 9.90 (§2.1 [CI-pg], §11).
    amount: Number(context.amount),
    currency: CURRENCIES[context.currency as CurrencyCode].alpha,
    // Our transaction id: the status inquiry finds the payment by it (§6.1). "No admite los
    // caracteres UTF-8" (§2.1): a UUID is ASCII.
    orderId: context.transactionId,
    ...(email ? { customer: { email } } : {}),
    ...(use.token
      ? { formAction: 'SILENT', paymentMethodToken: use.token }
      : { ...(use.registers ? { formAction: 'REGISTER_PAY' } : {}), paymentForms: [cardForm(instrument)] }),
    // Where this payment's IPN goes, overriding the Back Office rule (§7.1 [CI-pg], [MCW-feat]).
    ipnTargetUrl: notificationUrl,
    ...(Object.keys(cardOptions).length > 0 ? { transactionOptions: { cardOptions } } : {}),
    metadata: { merchantOperationNumber: context.order.merchantOperationNumber },
  };
}

/** A zero-amount verification that registers the card (Charge/CreateToken with the card, creationContext VERIFICATION). */
export function verificationBody(instrument: Extract<PaymentInstrument, { method: 'CARD' }>, context: ConnectorContext) {
  const email = emailOf(context);
  return {
    currency: CURRENCIES[context.currency as CurrencyCode].alpha,
    orderId: context.transactionId,
    ...(email ? { customer: { email } } : {}),
    paymentForms: [cardForm(instrument)],
    metadata: { merchantOperationNumber: context.order.merchantOperationNumber },
  };
}

/** What an approval of Izipay's leaves for the card: the issuer's transaction id and a token it registered. */
function savedCardFacts(payment: IzipayTransaction, registers: boolean) {
  const nti = payment.transactionDetails?.cardDetails?.initialIssuerTransactionIdentifier;
  const token = registers ? payment.paymentMethodToken : null;
  return {
    ...(nti ? { networkTransactionId: nti } : {}),
    ...(token ? { cardToken: { token, processorCustomerId: null } } : {}),
  };
}

/** What Charge/CreateToken's answer means for the verification. */
export function verificationResult(answer: IzipayAnswer, card: CardFields): VerifyResult {
  if (answer.kind === 'refused' || answer.kind === 'lost') return { outcome: 'unavailable' };
  if (answer.kind === 'error') {
    const { errorCode } = answer.error;
    const declineClass = CARD_FIELD_ERRORS.has(errorCode) ? 'hard' : izipayDeclineClass(errorCode);
    if (declineClass === 'technical') return { outcome: 'unavailable' };
    return { outcome: 'declined', resultMessage: { code: errorCode, description: errorWords(answer.error) }, declineClass };
  }
  const type = typeof answer.answer._type === 'string' ? answer.answer._type : '';
  if (type === 'V4/Charge/RedirectRequest' || type === 'V4/PCI/Authentication/AuthenticationSessionResponse') {
    return {
      outcome: 'declined',
      resultMessage: { code: CHALLENGE_CODE, description: 'Izipay exige autenticar al pagador con 3-D Secure' },
      declineClass: 'sca_required',
    };
  }
  const verification = type === 'V4/Payment' ? transactionsOf(answer.answer)[0] : undefined;
  if (!verification) return { outcome: 'unavailable' };
  if (verification.detailedStatus === 'REFUSED') {
    const code = refusalCode(verification);
    const words = verification.detailedErrorMessage ?? verification.errorMessage ?? 'Tarjeta rechazada por Izipay';
    return { outcome: 'declined', resultMessage: { code, description: words }, declineClass: izipayDeclineClass(code) };
  }
  if (verification.detailedStatus !== 'ACCEPTED' || !verification.paymentMethodToken) return { outcome: 'unavailable' };
  return { outcome: 'verified', card, ...savedCardFacts(verification, true) };
}

/** What CreatePayment's answer means for the attempt; `registers`: the payment asked Izipay to register the card. */
export function paymentResult(answer: IzipayAnswer, described: Described, registers = false): AuthorizeResult {
  const { card, methodDetails } = described;
  if (answer.kind === 'refused') return technicalFailure('connection_refused', card, methodDetails);
  // Lost (or a 5xx): Izipay may have made the payment; only Order/Get can tell.
  if (answer.kind === 'lost') return technicalFailure('timeout', card, methodDetails);
  if (answer.kind === 'error') {
    // An ERROR envelope is a request not processed (§8.1): no payment was made.
    const { errorCode } = answer.error;
    const message = { code: errorCode, description: errorWords(answer.error) };
    if (CARD_FIELD_ERRORS.has(errorCode)) return decline(message, 'hard', described);
    const declineClass = izipayDeclineClass(errorCode);
    return declineClass === 'technical'
      ? technicalFailure('processor_error', card, methodDetails, message)
      : decline(message, declineClass, described);
  }
  const type = typeof answer.answer._type === 'string' ? answer.answer._type : '';
  if (type === 'V4/Charge/RedirectRequest' || type === 'V4/PCI/Authentication/AuthenticationSessionResponse') {
    return decline(
      { code: CHALLENGE_CODE, description: 'Izipay exige autenticar al pagador con 3-D Secure' },
      'sca_required',
      described,
    );
  }
  const payment = type === 'V4/Payment' ? transactionsOf(answer.answer)[0] : undefined;
  // Any other success is not understood: the payment may exist, so only its status can tell.
  if (!payment) return technicalFailure('timeout', card, methodDetails);
  const withReference = { ...described, processorReference: payment.uuid };
  // A payment authorized (to be captured automatically, or validated later): §6.1, §3.1.
  if (['AUTHORISED', 'AUTHORISED_TO_VALIDATE', 'CAPTURED', 'ACCEPTED'].includes(payment.detailedStatus)) {
    const approved = approval(approvalCodes(payment), withReference);
    return approved.outcome === 'approved' ? { ...approved, ...savedCardFacts(payment, registers) } : approved;
  }
  if (payment.detailedStatus === 'REFUSED') {
    // §8.1: a refusal is a V4/Payment UNPAID whose transaction carries errorCode (ACQ_001 …) and
    // the acquirer's detailedErrorCode, the code reported.
    const code = refusalCode(payment);
    const words = payment.detailedErrorMessage ?? payment.errorMessage ?? 'Pago rechazado por Izipay';
    return decline({ code, description: words }, izipayDeclineClass(code), withReference);
  }
  // WAITING_AUTHORISATION, UNDER_VERIFICATION, RUNNING …: not decided; the status inquiry follows.
  return technicalFailure('timeout', card, methodDetails);
}

/** An answer that is a transaction in one of `statuses`; otherwise what Izipay said (or nothing). */
export function transactionIn(answer: IzipayAnswer, statuses: string[]): { ok: true } | { ok: false; reason: string | null } {
  if (answer.kind === 'success') {
    const transaction = transactionOf(answer.answer);
    if (transaction && statuses.includes(transaction.detailedStatus)) return { ok: true };
    return { ok: false, reason: null };
  }
  return { ok: false, reason: answer.kind === 'error' ? errorWords(answer.error) : null };
}

/** The cancellation of an authorization not yet remitted (CancelOrRefund CANCELLATION_ONLY, the official plugin's void, §4.1 [mag]). */
export const cancellationBody = (uuid: string, comment: string) => ({ uuid, resolutionMode: 'CANCELLATION_ONLY', comment });

/** A refund of `amount` (cents) of a remitted payment (CancelOrRefund REFUND_ONLY, §5.1 [mag]). */
export const refundBody = (payment: IzipayTransaction, amount: number, comment: string) => ({
  uuid: payment.uuid,
  amount,
  currency: payment.currency,
  resolutionMode: 'REFUND_ONLY',
  comment,
});

/** A part of a manual authorization: its amount lowered first (Transaction/Update, downward only, §3.1 [LY-update]). */
export const amountUpdateBody = (payment: IzipayTransaction, amount: number, comment: string) => ({
  uuid: payment.uuid,
  cardUpdate: { amount, currency: payment.currency },
  comment,
});

/** How far Izipay's clock may be from ours when a refund made since one was registered is looked for. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The payment's refund (a CREDIT transaction) that is this one, made before its answer was lost:
 * of this amount, made since the refund was registered, not refused or cancelled. Izipay keeps no
 * idempotency key (§11). **Limit** (izipay.md): two refunds of the same amount of one payment
 * registered within a minute of each other cannot be told apart.
 */
export function madeRefund(credits: IzipayTransaction[], request: Pick<RefundRequest, 'refundAmount' | 'registeredAt'>) {
  const since = request.registeredAt.getTime() - CLOCK_SKEW_MS;
  return credits.find(
    (credit) =>
      credit.amount === Number(request.refundAmount) &&
      Date.parse(credit.creationDate ?? '') >= since &&
      credit.detailedStatus !== 'REFUSED' &&
      credit.detailedStatus !== 'CANCELLED',
  );
}
