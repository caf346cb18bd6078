import {
  notSupported,
  type CaptureRequest,
  type CaptureResult,
  type RefundRequest,
  type ReverseResult,
  type TransactionReference,
} from '../connector';
import type { AccountCheck, ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';
import { integration } from '../processor-account';
import { errorOf, type MercadoPagoClient, mercadoPagoClient } from './mercadopago-client';
import { mercadoPagoNotification } from './mercadopago-notifications';
import { findPayment, paymentStatus } from './mercadopago-records';
import { field, text } from '../processor-http';
import { authorizeCard, authorizeYape } from './mercadopago-payments';
import { deleteCard, provisionCard } from './mercadopago-cards';
import {
  CANCEL_BODY,
  captureBody,
  majorUnits,
  refundAmountBody,
  refundAnswer,
  underWay,
  type Refunded,
} from './mercadopago-mapping';
import { absence } from '../transaction-reference';

// A merchant's Mercado Pago account as a connector (docs/processors/mercadopago.md): cards and
// Yape (Checkout API, Peru). An approved card payment cannot be cancelled, only refunded
// (mercadopago.com.pe/developers/en/guides/manage-account/account/cancellations-and-refunds): a
// reversal before settlement and a refund after it are both a whole refund, each under an
// idempotency key of its own, so asking again never returns the money twice.

export const MERCADOPAGO_METHODS = ['CARD', 'YAPE'] as const;
// Peru's accounts are in soles (mercadopago.com.pe: site MPE, currency PEN); its API takes no
// 3-D Secure result from another directory server.
export const MERCADOPAGO_CURRENCIES = ['604'] as const;
// Cards are captured later by reserving them (`capture: false`) and then PUT /v1/payments/{id}
// with `capture: true` and the amount to take (…/checkout-api/payment-management/capture-authorized-payments);
// a reserve is released by cancelling it. Refunds take an amount (POST …/refunds with `amount`,
// …/reference/chargebacks/_payments_id_refunds/post), up to 20 per payment in Peru.
export const MERCADOPAGO_CAPABILITIES = {
  instalments: true,
  threeDsResult: false,
  // A card token is made with the security code (mercadopago-mapping.ts).
  cardWithoutCode: false,
  reversal: true,
  refunds: true,
  separateCapture: true,
  partialCapture: true,
  // A reserve not captured in 22 days is cancelled in Peru (…/checkout-api/reserve-funds: "22 días" for mpe).
  captureHoldDays: 22,
  partialRefund: true,
  // Customers' cards (mercadopago-cards.ts): made after a customer-initiated approval, paid again
  // only with the security code captured again (no MIT), deleted on removal.
  savedCards: { tokenize: true, tokenWithoutCode: false, mitWithNti: false, zeroAmountVerify: false, deleteToken: true },
} as const;

async function refundWhole(
  client: MercadoPagoClient,
  reference: TransactionReference,
  idempotencyKey: string,
): Promise<Refunded> {
  const found = await findPayment(client, reference);
  if (found.kind === 'unknown') return { kind: 'unavailable' };
  if (found.kind === 'none') return { kind: 'refused', reason: 'Mercado Pago no registra este pago' };
  const id = String(found.payment.id);
  if (found.payment.status === 'refunded') return { kind: 'refunded', code: id };
  if (found.payment.status !== 'approved') return { kind: 'refused', reason: 'Mercado Pago no aprobó este pago' };
  // A refund made before (its answer lost, or still in process) is not made again: it is read.
  const earlier = await client.get(`/v1/payments/${encodeURIComponent(id)}/refunds`);
  if (earlier.kind !== 'answered' || earlier.status >= 500) return { kind: 'unavailable' };
  const made = Array.isArray(earlier.body) ? (earlier.body as unknown[]) : [];
  const pending = made.find((each) => text(field(each, 'status')) === 'in_process');
  if (pending) return { kind: 'in_process', code: text(field(pending, 'id')) ?? id };
  return refundAnswer(await client.post(`/v1/payments/${encodeURIComponent(id)}/refunds`, {}, idempotencyKey), id);
}

/** Cancels a reserve not captured yet (PUT `status: cancelled`); null when the payment is no reserve. */
async function cancelReserve(client: MercadoPagoClient, reference: TransactionReference): Promise<ReverseResult | null> {
  const found = await findPayment(client, reference);
  if (found.kind !== 'found' || found.payment.captured !== false) return null;
  const id = String(found.payment.id);
  if (found.payment.status === 'cancelled') return { outcome: 'reversed', code: id };
  const answer = await client.put(`/v1/payments/${encodeURIComponent(id)}`, CANCEL_BODY, `${reference.transactionId}:cancel`);
  if (answer.kind !== 'answered' || underWay(answer)) return { outcome: 'unavailable' };
  if (answer.status < 300) return { outcome: 'reversed', code: id };
  return { outcome: 'refused', reason: errorOf(answer.body, answer.status).description };
}

/** Captures `captureAmount` of a reserve, once: a reserve captured before answers as that capture did. */
async function captureReserve(client: MercadoPagoClient, request: CaptureRequest): Promise<CaptureResult> {
  const found = await findPayment(client, request);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { outcome: 'refused', reason: 'Mercado Pago no registra este pago' };
  const { payment } = found;
  const id = String(payment.id);
  const amount = majorUnits(request.captureAmount);
  if (payment.status === 'approved' && payment.captured !== false) {
    return payment.transaction_amount === amount
      ? { outcome: 'captured' }
      : { outcome: 'refused', reason: 'Mercado Pago ya capturó este pago por otro monto' };
  }
  if (payment.status !== 'authorized') {
    return { outcome: 'refused', reason: `Mercado Pago no tiene este pago por capturar (${payment.status})` };
  }
  const answer = await client.put(
    `/v1/payments/${encodeURIComponent(id)}`,
    captureBody(amount),
    `${request.transactionId}:capture`,
  );
  if (answer.kind !== 'answered' || underWay(answer)) return { outcome: 'unavailable' };
  if (answer.status < 300 && text(field(answer.body, 'status')) === 'approved') return { outcome: 'captured' };
  return { outcome: 'refused', reason: errorOf(answer.body, answer.status).description };
}

/** Refunds the request's amount of the payment, under the refund's own key (asked again, Mercado Pago answers the same refund). */
async function refundAmount(client: MercadoPagoClient, request: RefundRequest): Promise<Refunded> {
  const found = await findPayment(client, request);
  if (found.kind === 'unknown') return { kind: 'unavailable' };
  if (found.kind === 'none') return { kind: 'refused', reason: 'Mercado Pago no registra este pago' };
  const id = String(found.payment.id);
  const answer = await client.post(
    `/v1/payments/${encodeURIComponent(id)}/refunds`,
    refundAmountBody(request.refundAmount),
    `${request.refundId}:refund`,
  );
  return refundAnswer(answer, id);
}

export const mercadoPago = integration<MercadoPagoClient>({
  name: 'Mercado Pago',
  methods: MERCADOPAGO_METHODS,
  currencies: MERCADOPAGO_CURRENCIES,
  capabilities: MERCADOPAGO_CAPABILITIES,
  client: mercadoPagoClient,
  flows: (client, account) => ({
    authorize: {
      CARD: (instrument, context) => authorizeCard(client, account, instrument, context),
      YAPE: (instrument, context) => authorizeYape(client, account, instrument, context),
    },
    async reverse(transaction) {
      const reserve = await cancelReserve(client, transaction);
      if (reserve !== null) return reserve;
      const refunded = await refundWhole(client, transaction, `${transaction.transactionId}:reversal`);
      if (refunded.kind === 'refunded' || refunded.kind === 'in_process') return { outcome: 'reversed', code: refunded.code };
      return refunded.kind === 'refused' ? { outcome: 'refused', reason: refunded.reason } : { outcome: 'unavailable' };
    },
    async refund(request) {
      const refunded = await refundAmount(client, request);
      if (refunded.kind === 'refunded') return { outcome: 'resolved' };
      if (refunded.kind === 'refused') return { outcome: 'rejected', reason: refunded.reason };
      return { outcome: 'in_process' };
    },
    async capture(request) {
      if (request.method !== 'CARD') return notSupported('capture');
      return captureReserve(client, request);
    },
    async status(transaction) {
      const found = await findPayment(client, transaction);
      if (found.kind === 'found') return paymentStatus(found.payment);
      return found.kind === 'none' ? absence(transaction) : { outcome: 'unknown' };
    },
    notification: (notification) => mercadoPagoNotification(client, account, notification),
    provisionCardToken: (card, context) => provisionCard(client, card, context),
    deleteCardToken: (token) => deleteCard(client, token),
  }),
  check: checkMercadoPagoAccount,
});

/** Whether Mercado Pago takes the account's access token: its payment methods (GET /v1/payment_methods). */
async function checkMercadoPagoAccount(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): Promise<AccountCheck> {
  const answer = await mercadoPagoClient(account, endpoints).get('/v1/payment_methods');
  if (answer.kind !== 'answered') return { ok: false, message: 'Mercado Pago no respondió' };
  if (answer.status === 200) return { ok: true, message: 'Mercado Pago aceptó el access token' };
  return { ok: false, message: errorOf(answer.body, answer.status).description };
}
