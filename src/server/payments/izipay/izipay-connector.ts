import { describeCard } from '@/server/core/domain/card';
import { cardPayment } from '../method-details';
import {
  instrumentFor,
  type CaptureRequest,
  type CaptureResult,
  type RefundRequest,
  type RefundResult,
  type ReverseResult,
  type TransactionReference,
} from '../connector';
import type { AccountCheck, ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';
import { integration } from '../processor-account';
import { errorWords, transactionOf, izipayClient, type IzipayClient } from './izipay-client';
import { izipayNotification } from './izipay-notifications';
import {
  amountUpdateBody,
  cancellationBody,
  madeRefund,
  paymentBody,
  paymentResult,
  refundBody,
  savedCardUse,
  transactionIn,
  verificationBody,
  verificationResult,
} from './izipay-mapping';
import {
  approvedOrAbsent,
  CANCELLABLE,
  findOrder,
  isManual,
  paymentStatus,
  refundedOf,
  TO_VALIDATE,
  type IzipayOrder,
} from './izipay-records';

// A merchant's Izipay account as a connector (docs/processors/izipay.md), on Izipay's REST API V4
// ("micuentaweb", Lyra's platform: research §12 recommends it for cards). CARD only: Izipay
// documents no server-side Yape or QR for this API (§9), and the newer Izipay API that offers them
// does so only through its checkout JavaScript (§9, §12), so the connector does not offer them.

export const IZIPAY_METHODS = ['CARD'] as const;
// `PEN` in every Peruvian example, USD in Lyra's currency tables (§11 [MCW-qsjs], [LY-update]);
// whether the merchant's contract has a USD MID is the merchant's to check (izipay.md).
export const IZIPAY_CURRENCIES = ['604', '840'] as const;
// Captured later with `manualValidation` (AUTHORISED_TO_VALIDATE), then Transaction/Update to lower
// the amount (a part) and Transaction/Validate (§3.1 [LY-update], [LY-validate]). Refunds in parts
// and many times with CancelOrRefund REFUND_ONLY and an amount (§5.1 [mag]).
export const IZIPAY_CAPABILITIES = {
  // Instalments (`transactionOptions.cardOptions.installmentNumber`, §2.2) depend on the merchant's
  // issuers' agreements; not offered until a merchant needs them.
  instalments: false,
  // No documented way to pass an external 3-D Secure result to API A (§2.3, §15.4).
  threeDsResult: false,
  // A typed card goes with its securityCode (izipay-mapping.ts); only an MIT (mitWithNti) goes without.
  cardWithoutCode: false,
  reversal: true,
  refunds: true,
  separateCapture: true,
  partialCapture: true,
  // How long Izipay holds an authorization not validated is **unconfirmed** (§3.1 names only
  // WAITING_AUTHORISATION_TO_VALIDATE "when capture delay > authorization validity"): 7 days, the
  // usual card authorization validity, bounds the service's window so it voids before Izipay does.
  captureHoldDays: 7,
  partialRefund: true,
  // Lyra's tokens, which Izipay's API is (izipay-mapping.ts savedCardUse): registered by a
  // customer-initiated payment (REGISTER_PAY) or a zero-amount verification (Charge/CreateToken,
  // V4.1/PCI/Charge/CreateToken [MCW-pci-ch]), charged SILENT, cancelled by Token/Cancel (openfun/joanie
  // src/backend/joanie/payment/backends/lyra.py, tests/payment/lyra/responses/cancel_token.json);
  // an MIT carries the first CIT's initialIssuerTransactionIdentifier, with its token or the card.
  savedCards: { tokenize: true, tokenWithoutCode: true, mitWithNti: true, zeroAmountVerify: true, deleteToken: true },
} as const;

type Read = { kind: 'order'; order: IzipayOrder } | { kind: 'done'; result: 'refused' | 'unavailable'; reason?: string };

async function readOrder(client: IzipayClient, reference: TransactionReference): Promise<Read> {
  const found = await findOrder(client, reference.transactionId);
  if (found.kind === 'found') return { kind: 'order', order: found.value };
  return found.kind === 'none'
    ? { kind: 'done', result: 'refused', reason: 'Izipay no registra este pago' }
    : { kind: 'done', result: 'unavailable' };
}

/**
 * Undoes a payment not settled: an authorization still cancellable is cancelled
 * (CancelOrRefund CANCELLATION_ONLY, the official plugin's void, §4.1 [mag]); one Izipay already
 * captured ("remesa") can no longer be cancelled (PSP_075, §4.1 [MCW-anular]), so what is left of
 * it is refunded (REFUND_ONLY, §5.1). Asked again, a payment cancelled or refunded whole answers
 * reversed, nothing sent.
 */
async function reversePayment(client: IzipayClient, reference: TransactionReference): Promise<ReverseResult> {
  const read = await readOrder(client, reference);
  if (read.kind === 'done')
    return read.result === 'refused' ? { outcome: 'refused', reason: read.reason! } : { outcome: 'unavailable' };
  const { payment } = read.order;
  if (payment.detailedStatus === 'CANCELLED') return { outcome: 'reversed', code: payment.uuid };
  if (CANCELLABLE.includes(payment.detailedStatus)) {
    const answer = await client.call(
      'Transaction/CancelOrRefund',
      cancellationBody(payment.uuid, `Reversa ${reference.transactionId}`),
    );
    const cancelled = transactionIn(answer, ['CANCELLED']);
    if (cancelled.ok) return { outcome: 'reversed', code: payment.uuid };
    // Remitted meanwhile (PSP_075), or the answer lost: the next ask reads it again.
    if (answer.kind === 'error' && answer.error.errorCode !== 'PSP_075') return { outcome: 'refused', reason: cancelled.reason! };
    return { outcome: 'unavailable' };
  }
  if (payment.detailedStatus !== 'CAPTURED')
    return { outcome: 'refused', reason: `Izipay no aprobó este pago (${payment.detailedStatus})` };
  const left = payment.amount - refundedOf(payment);
  if (left <= 0) return { outcome: 'reversed', code: payment.uuid };
  const answer = await client.call('Transaction/CancelOrRefund', refundBody(payment, left, `Reversa ${reference.transactionId}`));
  if (answer.kind === 'success' && transactionOf(answer.answer)?.operationType === 'CREDIT')
    return { outcome: 'reversed', code: payment.uuid };
  if (answer.kind === 'error') return { outcome: 'refused', reason: errorWords(answer.error) };
  return { outcome: 'unavailable' };
}

/**
 * Refunds `refundAmount` of a payment, once. Izipay keeps no idempotency key (§11), so before it is
 * asked, the order's refunds (CREDIT transactions of the payment) are read: one of this amount
 * made since the refund was registered is taken as this refund, made before its answer was lost.
 * **Limit** (izipay.md): two refunds of the same amount of one payment registered within a
 * minute of each other cannot be told apart; the later one is then answered as made.
 */
async function refundPart(client: IzipayClient, request: RefundRequest): Promise<RefundResult> {
  const read = await readOrder(client, request);
  if (read.kind === 'done')
    return read.result === 'refused' ? { outcome: 'rejected', reason: read.reason! } : { outcome: 'in_process' };
  const { payment, credits } = read.order;
  const made = madeRefund(credits, request);
  if (made) return made.status === 'PAID' ? { outcome: 'resolved' } : { outcome: 'in_process' };
  if (payment.detailedStatus === 'CAPTURED') {
    const answer = await client.call(
      'Transaction/CancelOrRefund',
      refundBody(payment, Number(request.refundAmount), `Reembolso ${request.refundId}`),
    );
    if (answer.kind === 'success') {
      const credit = transactionOf(answer.answer);
      if (credit?.operationType === 'CREDIT' && credit.status === 'PAID') return { outcome: 'resolved' };
      // A credit still running, or an answer not understood: asked again, it is looked for first.
      if (credit?.operationType === 'CREDIT' && credit.detailedStatus === 'REFUSED')
        return { outcome: 'rejected', reason: 'Izipay rechazó la devolución' };
      return { outcome: 'in_process' };
    }
    if (answer.kind === 'error') return { outcome: 'rejected', reason: errorWords(answer.error) };
    return { outcome: 'in_process' };
  }
  // Authorized, not yet remitted: Izipay answers PSP_076 "refund not yet available" (§4.1). The
  // whole payment is cancelled instead (the money never leaves the payer); a part waits for the
  // remittance (in process: asked again later, it is made then).
  if (CANCELLABLE.includes(payment.detailedStatus) && !TO_VALIDATE.includes(payment.detailedStatus)) {
    if (Number(request.refundAmount) !== payment.amount) return { outcome: 'in_process' };
    const answer = await client.call(
      'Transaction/CancelOrRefund',
      cancellationBody(payment.uuid, `Reembolso ${request.refundId}`),
    );
    if (transactionIn(answer, ['CANCELLED']).ok) return { outcome: 'resolved' };
    return answer.kind === 'error' && answer.error.errorCode !== 'PSP_075'
      ? { outcome: 'rejected', reason: errorWords(answer.error) }
      : { outcome: 'in_process' };
  }
  if (payment.detailedStatus === 'CANCELLED' && Number(request.refundAmount) === payment.amount) return { outcome: 'resolved' };
  return { outcome: 'rejected', reason: `Izipay no tiene este pago por devolver (${payment.detailedStatus})` };
}

/**
 * Captures `captureAmount` of an authorization made with manualValidation, once: a part lowers
 * the amount first (Transaction/Update, downward only), then Transaction/Validate remits it
 * (§3.1). Asked again after a lost answer, a payment validated at that amount answers captured.
 */
async function captureAuthorization(client: IzipayClient, request: CaptureRequest): Promise<CaptureResult> {
  const read = await readOrder(client, request);
  if (read.kind === 'done')
    return read.result === 'refused' ? { outcome: 'refused', reason: read.reason! } : { outcome: 'unavailable' };
  const { payment } = read.order;
  const amount = Number(request.captureAmount);
  const validated = ['AUTHORISED', 'CAPTURED'].includes(payment.detailedStatus);
  if (!isManual(payment) || validated) {
    // Captured with its authorization (automatic), or validated before: the same amount is that capture.
    return validated && payment.amount === amount
      ? { outcome: 'captured' }
      : { outcome: 'refused', reason: 'Izipay ya captura (o capturó) este pago por su monto' };
  }
  if (!TO_VALIDATE.includes(payment.detailedStatus))
    return { outcome: 'refused', reason: `Izipay no tiene este pago por capturar (${payment.detailedStatus})` };
  if (amount > payment.amount) return { outcome: 'refused', reason: 'El monto supera lo autorizado' };
  if (amount < payment.amount) {
    const update = await client.call(
      'Transaction/Update',
      amountUpdateBody(payment, amount, `Captura parcial ${request.transactionId}`),
    );
    if (update.kind === 'error') return { outcome: 'refused', reason: errorWords(update.error) };
    if (update.kind !== 'success') return { outcome: 'unavailable' };
  }
  const answer = await client.call('Transaction/Validate', { uuid: payment.uuid, comment: `Captura ${request.transactionId}` });
  if (transactionIn(answer, ['AUTHORISED', 'CAPTURED']).ok) return { outcome: 'captured' };
  if (answer.kind === 'error') return { outcome: 'refused', reason: errorWords(answer.error) };
  return { outcome: 'unavailable' };
}

/** Token/Cancel of a token Izipay does not have (or cancelled): INT_030, invalid paymentMethodToken (§8.5). */
const TOKEN_GONE = new Set(['INT_030']);

export const izipay = integration<IzipayClient>({
  name: 'Izipay',
  methods: IZIPAY_METHODS,
  currencies: IZIPAY_CURRENCIES,
  capabilities: IZIPAY_CAPABILITIES,
  client: izipayClient,
  flows: (client, account) => ({
    authorize: {
      async CARD(instrument, context) {
        const card = instrumentFor(instrument, 'CARD');
        const described = cardPayment(describeCard(card.pan), card.installments);
        const answer = await client.call(
          'Charge/CreatePayment',
          paymentBody(card, context, account.notificationUrl),
          context.signal,
        );
        return paymentResult(answer, described, savedCardUse(card).registers);
      },
    },
    async verifyCard(card, context) {
      const answer = await client.call('Charge/CreateToken', verificationBody(card, context), context.signal);
      return verificationResult(answer, describeCard(card.pan));
    },
    async deleteCardToken(token) {
      const answer = await client.call('Token/Cancel', { paymentMethodToken: token.token });
      if (answer.kind === 'success') return { outcome: 'deleted' };
      // A token Izipay no longer knows (or cancelled before) is as good as deleted.
      if (answer.kind === 'error' && TOKEN_GONE.has(answer.error.errorCode)) return { outcome: 'deleted' };
      return { outcome: 'unavailable' };
    },
    reverse: (transaction) => reversePayment(client, transaction),
    refund: (request) => refundPart(client, request),
    capture: (request) => captureAuthorization(client, request),
    async status(transaction) {
      const found = await findOrder(client, transaction.transactionId);
      return approvedOrAbsent(found, transaction) ?? paymentStatus((found as { value: IzipayOrder }).value.payment);
    },
    notification: (notification) => izipayNotification(client, account, notification),
  }),
  check: checkIzipayAccount,
});

/**
 * Whether Izipay takes the account's shop id and password: Order/Get of an order that cannot exist
 * answers "not found" (PSP_010) to good credentials and INT_905 to bad ones (§1.1, §8.5). The
 * password's prefix must match the account's environment (§1.1: the mode is the password's).
 */
async function checkIzipayAccount(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): Promise<AccountCheck> {
  const expected = account.environment === 'live' ? 'prodpassword_' : 'testpassword_';
  if (!account.secretKey.startsWith(expected))
    return {
      ok: false,
      message: `La contraseña REST de una cuenta ${account.environment === 'live' ? 'de producción' : 'de prueba'} empieza por ${expected}`,
    };
  if (!/^\d{8}$/.test(account.publicKey)) return { ok: false, message: 'El identificador de tienda de Izipay tiene 8 dígitos' };
  const answer = await izipayClient(account, endpoints).call('Order/Get', { orderId: `check-${account.accountId}` });
  if (answer.kind === 'refused' || answer.kind === 'lost') return { ok: false, message: 'Izipay no respondió' };
  if (answer.kind === 'success' || answer.error.errorCode === 'PSP_010')
    return { ok: true, message: 'Izipay aceptó la tienda y la contraseña REST' };
  return { ok: false, message: `${answer.error.errorCode}: ${errorWords(answer.error)}` };
}
