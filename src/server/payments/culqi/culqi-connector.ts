import {
  notSupported,
  type RefundRequest,
  type RefundResult,
  type ReverseResult,
  type CaptureRequest,
  type CaptureResult,
  type TransactionReference,
} from '../connector';
import type { AccountCheck, ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';
import { integration } from '../processor-account';
import { authorizeCard, authorizeOrder, authorizeYape, holdCard } from './culqi-payments';
import { culqiClient, isObject, type CulqiClient, type CulqiRefund } from './culqi-client';
import { culqiNotification } from './culqi-notifications';
import { deleteCard, provisionCard } from './culqi-cards';
import { absence } from '../transaction-reference';
import { refundBody, refusalWords } from './culqi-mapping';
import { chargeStatus, findCharge, findOrder, findRefund, orderStatus } from './culqi-records';

// A merchant's Culqi account as a connector (docs/processors/culqi.md): cards and Yape by token
// and charge, PagoEfectivo and Cuotéalo by payment order; a reversal before settlement and a
// refund after it both return the whole charge (Culqi has no void of a captured charge:
// docs.culqi.com/es/documentacion/pagos-online/cargo-unico/captura), a pending order is deleted.

export const CULQI_METHODS = ['CARD', 'YAPE', 'PAGOEFECTIVO', 'CUOTEALO'] as const;
export const CULQI_CURRENCIES = ['604', '840'] as const;
// A card charge made with `capture: false` is held and captured whole by POST
// /v2/charges/{id}/capture (docs.culqi.com/es/documentacion/pagos-online/cargo-unico/captura: no
// amount, within 4 days). Refunds go in parts; Culqi keeps no idempotency key, so each refund
// carries our refund's id in its metadata and is looked for before it is asked (again).
export const CULQI_CAPABILITIES = {
  instalments: true,
  threeDsResult: true,
  // A card is charged as a token made with its cvv (Tokens); after a challenge, the token held before it (holdCard).
  cardWithoutCode: false,
  reversal: true,
  refunds: true,
  separateCapture: true,
  partialCapture: false,
  // Returned by Culqi after 4 days (docs.culqi.com/es/documentacion/pagos-online/cargo-unico/captura).
  captureHoldDays: 4,
  partialRefund: true,
  // Its cards (`crd_`, culqi-cards.ts): made by a customer-initiated approval, charged without the
  // payer, deleted on removal. No NTI or stored-credential flags are documented, so an MIT goes
  // to Culqi only by its card; a Culqi card needs a customer with a postal address, which a card
  // saved without a payment does not come with, so Culqi does not verify for zero.
  savedCards: { tokenize: true, tokenWithoutCode: true, mitWithNti: false, zeroAmountVerify: false, deleteToken: true },
} as const;

type Returned = { kind: 'returned'; code: string } | { kind: 'refused'; reason: string } | { kind: 'unavailable' };

/**
 * Returns what is left of a charge to its payer, once: a charge already returned whole (a retry
 * after a lost answer) is not refunded again (POST /v2/refunds, docs.culqi.com apidocs
 * "Crear devolución"; Culqi keeps no idempotency key).
 */
async function returnCharge(client: CulqiClient, reference: TransactionReference): Promise<Returned> {
  const found = await findCharge(client, reference);
  if (found.kind === 'unknown') return { kind: 'unavailable' };
  if (found.kind === 'none') return { kind: 'refused', reason: 'Culqi no registra este pago' };
  const charge = found.value;
  if (chargeStatus(charge).outcome !== 'approved') return { kind: 'refused', reason: 'Culqi no aprobó este pago' };
  const left = charge.amount - (charge.amount_refunded ?? 0);
  if (left <= 0) return { kind: 'returned', code: charge.id };
  const answer = await client.post('/refunds', refundBody(left, charge.id), { key: 'secret' });
  if (answer.kind !== 'answered' || answer.status >= 500) return { kind: 'unavailable' };
  if (answer.status === 201 && isObject<{ id: string }>(answer.body, 'refund')) return { kind: 'returned', code: answer.body.id };
  // Refused: perhaps because an earlier request already returned it.
  const again = await findCharge(client, { ...reference, processorReference: charge.id });
  if (again.kind === 'found' && (again.value.amount_refunded ?? 0) >= again.value.amount) {
    return { kind: 'returned', code: charge.id };
  }
  return { kind: 'refused', reason: refusalWords(answer) };
}

/**
 * Refunds `refundAmount` of a charge, once: the refund is looked for among those made since it
 * was taken (its metadata names it) before Culqi is asked to make it, so a refund asked again
 * after a lost answer is found, not made twice (POST /v2/refunds with `metadata`, GET /v2/refunds
 * by creation date: docs.culqi.com apidocs "Crear devolución", "Listar devoluciones").
 */
async function refundPart(client: CulqiClient, request: RefundRequest): Promise<RefundResult> {
  const made = await findRefund(client, request.refundId, request.registeredAt);
  if (made.kind === 'found') return { outcome: 'resolved' };
  if (made.kind === 'unknown') return { outcome: 'in_process' };
  const found = await findCharge(client, request);
  if (found.kind === 'unknown') return { outcome: 'in_process' };
  if (found.kind === 'none') return { outcome: 'rejected', reason: 'Culqi no registra este pago' };
  const charge = found.value;
  if (chargeStatus(charge).outcome !== 'approved') return { outcome: 'rejected', reason: 'Culqi no aprobó este pago' };
  const answer = await client.post(
    '/refunds',
    refundBody(Number(request.refundAmount), charge.id, { refund_id: request.refundId, transaction_id: request.transactionId }),
    { key: 'secret' },
  );
  // Lost or failed: the next ask looks for it first.
  if (answer.kind !== 'answered' || answer.status >= 500 || answer.status === 429) return { outcome: 'in_process' };
  if (answer.status === 201 && isObject<CulqiRefund>(answer.body, 'refund')) return { outcome: 'resolved' };
  return { outcome: 'rejected', reason: refusalWords(answer) };
}

/** Captures a held charge whole, once: a charge captured before answers captured (Culqi refuses a second capture). */
async function captureCharge(client: CulqiClient, request: CaptureRequest): Promise<CaptureResult> {
  if (request.captureAmount !== request.amount)
    return { outcome: 'refused', reason: 'Culqi captura solo el monto total del cargo' };
  const found = await findCharge(client, request);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { outcome: 'refused', reason: 'Culqi no registra este pago' };
  const charge = found.value;
  if (chargeStatus(charge).outcome !== 'approved') return { outcome: 'refused', reason: 'Culqi no aprobó este pago' };
  if (charge.capture === true) return { outcome: 'captured' };
  // Released (returned) while held: nothing is left to capture.
  if ((charge.amount_refunded ?? 0) > 0) return { outcome: 'refused', reason: 'Culqi devolvió este cargo' };
  const answer = await client.post(`/charges/${encodeURIComponent(charge.id)}/capture`, undefined, { key: 'secret' });
  if (answer.kind !== 'answered' || answer.status >= 500) return { outcome: 'unavailable' };
  if (answer.status < 300) return { outcome: 'captured' };
  return { outcome: 'refused', reason: refusalWords(answer) };
}

/** Deletes an order nobody paid, so its CIP or Cuotéalo page can no longer be paid. */
async function voidOrder(client: CulqiClient, reference: TransactionReference): Promise<ReverseResult> {
  const found = await findOrder(client, reference);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { outcome: 'refused', reason: 'Culqi no registra esta orden' };
  const order = found.value;
  if (order.state === 'deleted' || order.state === 'expired') return { outcome: 'reversed', code: order.id };
  if (order.state === 'paid') return { outcome: 'refused', reason: 'El pagador ya pagó la orden' };
  const answer = await client.delete(`/orders/${encodeURIComponent(order.id)}`);
  if (answer.kind === 'answered' && answer.status < 300) return { outcome: 'reversed', code: order.id };
  const after = await findOrder(client, { ...reference, processorReference: order.id });
  if (after.kind === 'found' && after.value.state === 'paid')
    return { outcome: 'refused', reason: 'El pagador ya pagó la orden' };
  if (after.kind === 'found' && after.value.state === 'deleted') return { outcome: 'reversed', code: order.id };
  if (after.kind === 'unknown' || answer.kind !== 'answered' || answer.status >= 500) return { outcome: 'unavailable' };
  return { outcome: 'refused', reason: 'Culqi no eliminó la orden' };
}

export const culqi = integration<CulqiClient>({
  name: 'Culqi',
  methods: CULQI_METHODS,
  currencies: CULQI_CURRENCIES,
  capabilities: CULQI_CAPABILITIES,
  client: culqiClient,
  flows(client, account) {
    const isCharge = (method: string) => method === 'CARD' || method === 'YAPE';
    return {
      authorize: {
        CARD: (instrument, context) => authorizeCard(client, instrument, context),
        YAPE: (instrument, context) => authorizeYape(client, instrument, context),
        PAGOEFECTIVO: (instrument, context) => authorizeOrder(client, 'PAGOEFECTIVO', instrument, context),
        CUOTEALO: (instrument, context) => authorizeOrder(client, 'CUOTEALO', instrument, context),
      },
      async reverse(transaction) {
        if (!isCharge(transaction.method)) return voidOrder(client, transaction);
        const returned = await returnCharge(client, transaction);
        if (returned.kind === 'returned') return { outcome: 'reversed', code: returned.code };
        return returned.kind === 'refused' ? { outcome: 'refused', reason: returned.reason } : { outcome: 'unavailable' };
      },
      async refund(request): Promise<RefundResult> {
        // A paid Cuotéalo order is the lender's credit: Culqi's API refunds charges only.
        if (request.method === 'CUOTEALO') {
          return { outcome: 'rejected', reason: 'Culqi no devuelve pagos Cuotéalo por su API: hazlo desde CulqiPanel' };
        }
        if (!isCharge(request.method)) return notSupported('refund');
        return refundPart(client, request);
      },
      async capture(request) {
        if (request.method !== 'CARD') return notSupported('capture');
        return captureCharge(client, request);
      },
      async status(transaction) {
        if (isCharge(transaction.method)) {
          const found = await findCharge(client, transaction);
          if (found.kind === 'found') return chargeStatus(found.value);
          return found.kind === 'none' ? absence(transaction) : { outcome: 'unknown' };
        }
        const found = await findOrder(client, transaction);
        if (found.kind === 'found') return orderStatus(found.value);
        return found.kind === 'none' ? absence(transaction) : { outcome: 'unknown' };
      },
      notification: (notification) => culqiNotification(client, account, notification),
      provisionCardToken: (card, context) => provisionCard(client, card, context),
      holdCard: (card, context) => holdCard(client, card, context),
      deleteCardToken: (token) => deleteCard(client, token),
    };
  },
  check: checkCulqiAccount,
});

/** Whether Culqi takes the account's secret key: one listed charge (GET /v2/charges?limit=1). */
async function checkCulqiAccount(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): Promise<AccountCheck> {
  const answer = await culqiClient(account, endpoints).get('/charges', { limit: '1' });
  if (answer.kind !== 'answered') return { ok: false, message: 'Culqi no respondió' };
  if (answer.status === 200) return { ok: true, message: 'Culqi aceptó la llave secreta' };
  return { ok: false, message: refusalWords(answer) };
}
