import {
  notSupported,
  type CaptureRequest,
  type CaptureResult,
  type RefundRequest,
  type RefundResult,
  type ReverseResult,
  type StatusResult,
  type TransactionReference,
} from '../connector';
import type { AccountCheck, ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';
import { integration } from '../processor-account';
import { absence } from '../transaction-reference';
import { niubizClient, type NiubizClient } from './niubiz-client';
import { findQr, niubizNotification, qrStatus } from './niubiz-notifications';
import { authorizeCard, authorizeQr, authorizeYape } from './niubiz-payments';
import { confirmationBody, hasStatus, refundBody, refundResult, unsettled, VOID_BODY } from './niubiz-mapping';
import { findPayment, recordStatus, type NiubizRecord } from './niubiz-records';

// A merchant's Niubiz account as a connector (docs/processors/niubiz.md; research notes
// docs/processors/sources/niubiz-api.md, "research §N"): cards server to server and Yape through
// the authorization API, QR through QR Manager; capture later by confirmation, a void before
// settlement, refunds ("devoluciones") after it, the retrieve API for every status.

export const NIUBIZ_METHODS = ['CARD', 'YAPE', 'QR'] as const;
// A merchant code is per currency (research §1.2: [odoo] one merchantId for PEN and one for USD):
// an account carries one code, and nothing tells which currency it was opened in, so accounts are
// PEN only (QR Manager documents 604 only, research §9). A USD code would need its own account kind.
export const NIUBIZ_CURRENCIES = ['604'] as const;
export const NIUBIZ_CAPABILITIES = {
  // `order.installment` is echoed in answers (research §4.1) but how to ask for cuotas server to
  // server is not documented: not offered.
  instalments: false,
  // Only one source shows an external 3-D Secure result (`athentication{eci,xid,cavv}`, [ts-hook],
  // research §4.4.5), without version or DS transaction id: not offered.
  threeDsResult: false,
  // Its authorization carries the card's cvv2 (niubiz-mapping.ts): no card goes without it.
  cardWithoutCode: false,
  // Void of a sale not yet settled (research §6.1).
  reversal: true,
  refunds: true,
  // `countable: false`, then the confirmation API (research §4.1, §5, [PW-PDF] Annex c).
  separateCapture: true,
  // Partial confirmation is not documented (research §5, §17.4): the whole authorization only.
  partialCapture: false,
  // "Si la venta no es confirmada en los 7 días … (Día 8) pasará al estado Vencida" ([PW-PDF] Annex c).
  captureHoldDays: 7,
  // The refund body carries an `amount` and integrations refund parts ([iub]); Niubiz's rules on
  // parts are not documented (research §7, §17.6): offered, to be checked in the sandbox.
  partialRefund: true,
  // Its saved-card flows (customers, tokens, stored-credential MITs) are not connected yet: it
  // carries a one-click charge that comes with its security code, as a new card, and no MIT.
  // Niubiz keeps a card registered by a customer-initiated sale and charges its token on the
  // `recurrent` channel without the card or its code (niubiz-mapping.ts). No network transaction
  // id or stored-credential flags, no zero-amount verification and no deletion of a token are in
  // anything readable of its documentation (docs/processors/niubiz.md "Saved cards").
  savedCards: { tokenize: true, tokenWithoutCode: true, mitWithNti: false, zeroAmountVerify: false, deleteToken: false },
} as const;

const voidPath = (client: NiubizClient, signature: string) =>
  `/api.authorization/v3/void/ecommerce/${encodeURIComponent(client.merchantId)}/${encodeURIComponent(signature)}`;

function isVoided(record: NiubizRecord): boolean {
  return ['voided', 'anulado'].includes(record.status.toLowerCase());
}

function isLive(record: NiubizRecord): boolean {
  return ['authorized', 'confirmed'].includes(record.status.toLowerCase());
}

/**
 * Voids a sale not yet settled, once: PUT /api.authorization/v3/void/ecommerce/{merchantId}/
 * {signature} with `annulationReason` ([odoo] "Anular una venta del día", [ts-hook]; research
 * §6.1, PUT chosen over [void-php]'s POST: two sources against one). The reverse API (§6.2) is
 * not used: its body is contradictory in every source. A sale can be voided the same day, or until
 * confirmed when held ([PW-PDF] Annex c); later Niubiz refuses and the merchant refunds instead.
 */
async function voidSale(client: NiubizClient, reference: TransactionReference): Promise<ReverseResult> {
  const found = await findPayment(client, reference);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { outcome: 'refused', reason: 'Niubiz no registra este pago' };
  const sale = found.value;
  if (isVoided(sale)) return { outcome: 'reversed', code: sale.transactionId };
  if (!isLive(sale) || !sale.signature) return { outcome: 'refused', reason: 'Niubiz no aprobó este pago' };
  const answer = await client.call('PUT', voidPath(client, sale.signature), { body: VOID_BODY });
  if (hasStatus(answer, 'voided')) return { outcome: 'reversed', code: sale.transactionId };
  // Refused or lost: perhaps an earlier request voided it already.
  const after = await findPayment(client, reference);
  if (after.kind === 'found' && isVoided(after.value)) return { outcome: 'reversed', code: sale.transactionId };
  return unsettled(answer, after);
}

/**
 * Refunds `refundAmount` of a sale: POST /api.refund/v1/refund/{merchantId}/{transactionId}
 * `{comment, externalReferenceId, amount}` ([woo-nf], [iub], [java-q]; research §7; POST over
 * [odoo]'s PUT, three sources against one). Success: 2xx, `errorCode` 0, `data.CODERROR` "100"
 * ([iub]). Niubiz has no idempotency key and no documented refund query (research §7, §17.6):
 * each refund carries its own `externalReferenceId`, and a refund asked again after a lost answer
 * is sent again with the same one; an answer of 945 "Referencia repetida" ([PW-PDF] Annex b; its
 * use for refunds is our inference) means the first one was registered. `ruc` (the merchant's
 * RUC, 11 digits, sent by every source) goes when the account has one (whether Niubiz requires
 * it is unconfirmed; docs/processors/niubiz.md).
 */
async function refundPart(client: NiubizClient, request: RefundRequest): Promise<RefundResult> {
  const found = await findPayment(client, request);
  if (found.kind === 'unknown') return { outcome: 'in_process' };
  if (found.kind === 'none') return { outcome: 'rejected', reason: 'Niubiz no registra este pago' };
  const sale = found.value;
  if (!isLive(sale) || !sale.transactionId) return { outcome: 'rejected', reason: 'Niubiz no tiene una venta que devolver' };
  if (sale.status.toLowerCase() === 'authorized' && sale.countable === false) {
    return { outcome: 'rejected', reason: 'La venta no fue confirmada: se anula, no se devuelve' };
  }
  const answer = await client.call(
    'POST',
    `/api.refund/v1/refund/${encodeURIComponent(client.merchantId)}/${encodeURIComponent(sale.transactionId)}`,
    { body: refundBody(request, client.taxId) },
  );
  return refundResult(answer);
}

/**
 * Confirms a held authorization whole, once: POST /api.confirmation/v1/confirmation/ecommerce/
 * {merchantId} (research §5: [oracle], [odoo], [woo-nf], [ts-hook]); success `dataMap.STATUS`
 * "Confirmed" ([odoo]). One confirmed before (a lost answer) answers captured; a sale captured
 * with its authorization (`countable: true`) is refused.
 */
async function confirmSale(client: NiubizClient, request: CaptureRequest): Promise<CaptureResult> {
  if (request.captureAmount !== request.amount) {
    return { outcome: 'refused', reason: 'Niubiz confirma solo el monto total autorizado' };
  }
  const found = await findPayment(client, request);
  if (found.kind === 'unknown') return { outcome: 'unavailable' };
  if (found.kind === 'none') return { outcome: 'refused', reason: 'Niubiz no registra este pago' };
  const sale = found.value;
  const status = sale.status.toLowerCase();
  if (status === 'confirmed') return { outcome: 'captured' };
  if (status !== 'authorized') return { outcome: 'refused', reason: `Niubiz registra la venta como ${sale.status}` };
  if (sale.countable !== false) return { outcome: 'refused', reason: 'La venta se liquidó con su autorización' };
  const answer = await client.call(
    'POST',
    `/api.confirmation/v1/confirmation/ecommerce/${encodeURIComponent(client.merchantId)}`,
    {
      body: confirmationBody(request, sale.transactionId),
    },
  );
  if (hasStatus(answer, 'confirmed')) return { outcome: 'captured' };
  const after = await findPayment(client, request);
  if (after.kind === 'found' && after.value.status.toLowerCase() === 'confirmed') return { outcome: 'captured' };
  return unsettled(answer, after);
}

async function qrStatusOf(client: NiubizClient, transaction: TransactionReference): Promise<StatusResult> {
  // A QR whose answer was lost cannot be looked for: QR Manager has no lookup by our reference.
  if (!transaction.processorReference) return { outcome: 'unknown' };
  const found = await findQr(client, transaction.processorReference);
  if (found.kind === 'found') return qrStatus(found.value);
  return found.kind === 'none' ? absence(transaction) : { outcome: 'unknown' };
}

export const niubiz = integration<NiubizClient>({
  name: 'Niubiz',
  methods: NIUBIZ_METHODS,
  currencies: NIUBIZ_CURRENCIES,
  capabilities: NIUBIZ_CAPABILITIES,
  client: niubizClient,
  flows(client) {
    const isSale = (method: string) => method === 'CARD' || method === 'YAPE';
    return {
      authorize: {
        CARD: (instrument, context) => authorizeCard(client, instrument, context),
        YAPE: (instrument, context) => authorizeYape(client, instrument, context),
        QR: (instrument, context) => authorizeQr(client, instrument, context),
      },
      // Annulling a QR is only in the AI-generated [indico] (research §9): not offered.
      reverse: (transaction) =>
        isSale(transaction.method) ? voidSale(client, transaction) : Promise.resolve(notSupported('reverse')),
      refund: (request) => (isSale(request.method) ? refundPart(client, request) : Promise.resolve(notSupported('refund'))),
      capture: (request) => (request.method === 'CARD' ? confirmSale(client, request) : Promise.resolve(notSupported('capture'))),
      async status(transaction) {
        if (transaction.method === 'QR') return qrStatusOf(client, transaction);
        const found = await findPayment(client, transaction);
        if (found.kind === 'found') return recordStatus(found.value);
        return found.kind === 'none' ? absence(transaction) : { outcome: 'unknown' };
      },
      notification: (notification) => niubizNotification(client, notification),
    };
  },
  check: checkNiubizAccount,
});

/** Whether Niubiz takes the account's API user and password: a security token (research §2). */
async function checkNiubizAccount(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): Promise<AccountCheck> {
  // "NUMÉRICO (9 MÁX.)" ([PW-PDF] §7.b.iii, research §1.2).
  if (!/^\d{1,9}$/.test(account.publicKey))
    return { ok: false, message: 'El código de comercio de Niubiz tiene hasta 9 dígitos' };
  if (!account.apiUser) return { ok: false, message: 'Falta el usuario de la API de Niubiz' };
  const answer = await niubizClient(account, endpoints).security();
  if (answer.kind === 'token') return { ok: true, message: 'Niubiz aceptó el usuario y la contraseña' };
  if (answer.kind === 'denied') {
    return answer.status === 401
      ? { ok: false, message: 'Niubiz rechazó el usuario o la contraseña' }
      : { ok: false, message: `Niubiz respondió ${answer.status}` };
  }
  return { ok: false, message: 'Niubiz no respondió' };
}
