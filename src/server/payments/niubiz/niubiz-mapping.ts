import { payloadOfImage } from '../qr/qr-image-text';
import { CURRENCIES, formatDecimal, type CurrencyCode } from '@/server/core/domain/money';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { toTimeObject } from '@/server/core/domain/time';
import type { AuthorizeResult, CardFields, ConnectorContext, ProcessorCardToken } from '../connector';
import { approval, decline, technicalFailure } from '../outcomes';
import { PAYER_WITHOUT_EMAIL } from '../processor-account';
import type { ProcessorAnswer } from '../processor-http';
import { qrImageOf } from '../qr/emv-qr';
import { niubizDeclineClass, NIUBIZ_APPROVAL_CODES } from './niubiz-codes';
import { field, mapText, niubizAmount, orderText, purchaseNumberOf, text } from './niubiz-client';

// Niubiz's payments as data (docs/processors/niubiz.md; research notes
// docs/processors/sources/niubiz-api.md, "research §N"): the bodies the connector sends and what
// Niubiz's answers mean, with no I/O, so that they are tested with the documentation's own
// examples (niubiz-mapping.test.ts). niubiz-payments.ts sends them in order through the client.

/** The payment's card and method details as the row keeps them, whatever Niubiz answers. */
export type Described = { card: CardFields | null; methodDetails: Record<string, unknown> };

type Answered = Extract<ProcessorAnswer, { kind: 'answered' }>;

const currencyOf = (context: ConnectorContext): string => CURRENCIES[context.currency as CurrencyCode].alpha;

const orderOf = (context: ConnectorContext) => ({
  purchaseNumber: purchaseNumberOf(context.transactionId),
  amount: niubizAmount(context.amount),
  currency: currencyOf(context),
});

/**
 * The antifraud request of a card (POST /api.antifraud/v1/antifraud/ecommerce/{merchantId}, the
 * observed request, research §4.4.1, [K-obs]), amounts and purchaseNumber as the authorization's.
 * Cybersource wants the payer's email (research §4.4 observed body): a placeholder when none came.
 */
export function antifraudBody(
  card: {
    pan: string;
    expiry: { month: number; year: number };
    securityCode: string | undefined;
    holder?: { firstName?: string; lastName?: string };
  },
  context: ConnectorContext,
) {
  const { payer } = context.order;
  return {
    channel: 'web',
    cardHolder: {
      firstName: card.holder?.firstName ?? payer.firstName ?? 'Cliente',
      lastName: card.holder?.lastName ?? payer.lastName ?? 'Pagos',
      email: payer.email ?? PAYER_WITHOUT_EMAIL,
    },
    card: {
      cardNumber: card.pan,
      expirationMonth: String(card.expiry.month).padStart(2, '0'),
      expirationYear: String(card.expiry.year),
      cvv2: card.securityCode,
    },
    order: orderOf(context),
  };
}

/**
 * The authorization of a token, a card's antifraud token or a Yape token (POST
 * /api.authorization/v3/authorization/ecommerce/{merchantId}, research §4.1). A customer-initiated
 * charge of a card to save asks Niubiz to register it (`card.registerFrequent`, the first charge
 * of a card to keep in [odoo] controllers/main.py), with the payer's email its token is kept under
 * (the customer's owner at Niubiz, where another of its cards has one).
 */
export function authorizationBody(
  context: ConnectorContext,
  tokenId: string,
  channel: 'web' | 'pasarela',
  register = false,
  /** The owner the customer's other cards are kept under at Niubiz, so that all of them share one. */
  owner: string | null = null,
) {
  return {
    channel,
    // "Constante, siempre es el valor manual" ([PW-PDF] §7.b.iv).
    captureType: 'manual',
    // true: settled automatically overnight; false: held until confirmed (research §4.1, §5).
    countable: context.capture !== 'manual',
    order: { tokenId, ...orderOf(context) },
    ...(register
      ? {
          card: { registerFrequent: true, useFrequent: false },
          cardHolder: { email: owner ?? context.order.payer.email ?? PAYER_WITHOUT_EMAIL },
        }
      : {}),
  };
}

/**
 * The charge of a card Niubiz keeps, by its token and without the card or its security code: the
 * `recurrent` channel with `card.useFrequent` (research §4.4.3, [odoo] models/payment_transaction.py
 * `_niubiz_prepare_authorization_sale_payload`), no antifraud call before it.
 */
export function savedCardAuthorizationBody(context: ConnectorContext, cardToken: ProcessorCardToken) {
  return {
    channel: 'recurrent',
    captureType: 'manual',
    countable: context.capture !== 'manual',
    order: orderOf(context),
    card: { tokenId: cardToken.token, registerFrequent: false, useFrequent: true },
    // The email the token was registered under (its ownerId), not this charge's payer's: an MIT
    // may come with another email or none.
    cardHolder: { email: cardToken.processorCustomerId ?? context.order.payer.email ?? PAYER_WITHOUT_EMAIL },
  };
}

/** A Yape payment's token request (POST /api.yape/v2/yape/transaction/{merchantId}, research §10 step 1: [ts-hook], [yape-rn]). */
export function yapeBody(phone: { subscriber: string }, otp: string, context: ConnectorContext) {
  return {
    channel: 'pasarela',
    captureType: 'manual',
    countable: true,
    order: orderOf(context),
    yape: { phoneNumber: phone.subscriber, otp },
  };
}

/** QR Manager's `validityDate`, ddMMyyyy of Lima's day after the code's expiry: validity counts from 00:00 ([qr-b] quoting the guide). */
export function validityDateOf(expiresAt: Date): string {
  const lima = new Date(expiresAt.getTime() - 5 * 3_600_000 + 86_400_000);
  const dd = String(lima.getUTCDate()).padStart(2, '0');
  const mm = String(lima.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}${mm}${lima.getUTCFullYear()}`;
}

/**
 * A dynamic QR (POST /api.qr.manager/v1/qr/ascii, research §9: [qr-a] production, [qr-b] "QR
 * Manager v1.5"): a `param` list of name/value strings; `idc` is echoed back with the payment: our
 * transaction id.
 */
export function qrBody(merchantId: string, context: ConnectorContext, expiresAt: Date) {
  return {
    enabled: true,
    param: [
      { name: 'merchantId', value: merchantId },
      { name: 'transactionCurrency', value: context.currency },
      { name: 'transactionAmount', value: formatDecimal(context.amount, context.currency as CurrencyCode) },
      { name: 'idc', value: context.transactionId },
    ],
    tagType: 'DYNAMIC',
    validityDate: validityDateOf(expiresAt),
  };
}

function errorWords(answer: Answered): string {
  return (
    mapText(answer.body, 'ACTION_DESCRIPTION') ??
    text(field(answer.body, 'responseMessage')) ??
    text(field(answer.body, 'errorMessage')) ??
    `Niubiz respondió ${answer.status}`
  );
}

/** A card Niubiz would refuse as expired is declined before anything is sent: 101 "Tarjeta vencida" ([PW-PDF] Annex b). */
export function expiredCard(described: Described): AuthorizeResult {
  return decline({ code: '101', description: 'Tarjeta vencida' }, niubizDeclineClass('101'), described);
}

/**
 * A 4xx of Niubiz's: a decline when it carries an action code (the 400 "Not Authorized" envelope,
 * research §4.3, §15), else a request Niubiz could not take (credentials, a field of ours).
 */
export function rejection(answer: Answered, described: Described): AuthorizeResult {
  const code = mapText(answer.body, 'ACTION_CODE') ?? orderText(answer.body, 'actionCode');
  const transactionId = mapText(answer.body, 'TRANSACTION_ID') ?? mapText(answer.body, 'ID_UNICO');
  if (answer.status === 400 && code && !NIUBIZ_APPROVAL_CODES.has(code)) {
    return decline({ code, description: errorWords(answer) }, niubizDeclineClass(code), {
      ...described,
      ...(transactionId ? { processorReference: transactionId } : {}),
    });
  }
  return technicalFailure('processor_error', described.card, described.methodDetails, {
    code: code ?? String(answer.status),
    description: errorWords(answer),
  });
}

/** An authorization's answer (research §4.2 approval 200, §4.3 decline 400), or a lost one (`timeout`: ask for the status). */
export function authorizationResult(answer: ProcessorAnswer, described: Described): AuthorizeResult {
  const { card, methodDetails } = described;
  if (answer.kind === 'refused') return technicalFailure('connection_refused', card, methodDetails);
  // A 5xx may come after the sale was made: only the retrieve can tell.
  if (answer.kind === 'lost' || answer.status >= 500) return technicalFailure('timeout', card, methodDetails);
  const code = mapText(answer.body, 'ACTION_CODE') ?? orderText(answer.body, 'actionCode');
  if (answer.status === 200) {
    const transactionId = orderText(answer.body, 'transactionId') ?? mapText(answer.body, 'TRANSACTION_ID');
    // Approval: ACTION_CODE 000 ([PW-PDF]; plugins test it, research §4.2).
    if (code && NIUBIZ_APPROVAL_CODES.has(code) && transactionId) {
      const authorizationCode = orderText(answer.body, 'authorizationCode') ?? mapText(answer.body, 'AUTHORIZATION_CODE');
      const approved = approval(
        { authorizationCode: authorizationCode || transactionId, brandTransactionId: transactionId },
        { ...described, processorReference: transactionId },
      );
      // A card registered by this sale: its token at the top level (an approval with a kept card,
      // [odoo] demo/auth_sale-Authorized.json: `token: {tokenId, ownerId, expireOn}`).
      const cardToken = text(field(field(answer.body, 'token'), 'tokenId'));
      // The token's owner (the cardholder's email it was registered under) is kept as its
      // processor customer: the card's later charges, and the customer's other cards, name it.
      const ownerId = text(field(field(answer.body, 'token'), 'ownerId'));
      return cardToken && approved.outcome === 'approved'
        ? { ...approved, cardToken: { token: cardToken, processorCustomerId: ownerId ?? null } }
        : approved;
    }
    // A 200 not understood may be a sale made: only its status can tell.
    return technicalFailure('timeout', card, methodDetails);
  }
  if (answer.status < 300) return technicalFailure('timeout', card, methodDetails);
  return rejection(answer, described);
}

/** The antifraud's answer: the token to authorize, or the payment's end. It charges nothing, so a lost call lets the payment move on. */
export function antifraudToken(answer: ProcessorAnswer, described: Described): { tokenId: string } | AuthorizeResult {
  if (answer.kind !== 'answered' || answer.status >= 500) {
    return technicalFailure('connection_refused', described.card, described.methodDetails);
  }
  const tokenId = text(field(field(answer.body, 'token'), 'tokenId'));
  if (answer.status === 200 && tokenId) return { tokenId };
  return answer.status === 200
    ? technicalFailure('processor_error', described.card, described.methodDetails)
    : rejection(answer, described);
}

/** The Yape token request's answer: the token to authorize (`data.YAPE_TRX_TOKEN`), or the payment's end. */
export function yapeToken(answer: ProcessorAnswer, described: Described): { tokenId: string } | AuthorizeResult {
  if (answer.kind === 'refused') return technicalFailure('connection_refused', described.card, described.methodDetails);
  // The request carried the payer's one-time code, which may be spent: no other processor gets it.
  if (answer.kind === 'lost' || answer.status >= 500) {
    return technicalFailure('processor_error', described.card, described.methodDetails);
  }
  const tokenId = text(field(field(answer.body, 'data'), 'YAPE_TRX_TOKEN'));
  if (answer.status === 200 && tokenId) return { tokenId };
  // Errors carry their words in `responseMessage` ([ts-hook]); no code table for Yape was found
  // (research §17.10): an action code when there is one, else Niubiz's status.
  if (answer.status === 400) {
    const code = mapText(answer.body, 'ACTION_CODE') ?? `YAPE-${text(field(answer.body, 'responseCode')) ?? answer.status}`;
    return decline({ code, description: errorWords(answer) }, niubizDeclineClass(code), described);
  }
  return rejection(answer, described);
}

const EMV_PAYLOAD = /^000201[\x20-\x7e]*6304[0-9A-F]{4}$/;

/**
 * The image and, when the answer carries one, the EMVCo payload. Sources use only `tagImg` (a
 * PNG, base64, research §9); whether the payload text is returned, and under which name, is not
 * known (§17.9). So any string of the answer that is an EMVCo payload (`000201` … `6304` CRC) is
 * taken as it; a `tagImg` that is itself a payload is drawn with qrImageOf; otherwise the image's
 * code is read back (payloadOfImage).
 */
async function qrOf(body: unknown): Promise<{ image: string; payload?: string } | null> {
  const tagImg = text(field(body, 'tagImg'));
  const values = body !== null && typeof body === 'object' ? Object.values(body as Record<string, unknown>) : [];
  const payload = values.find((value): value is string => typeof value === 'string' && EMV_PAYLOAD.test(value));
  if (!tagImg) return payload ? { image: await qrImageOf(payload), payload } : null;
  if (EMV_PAYLOAD.test(tagImg)) return { image: await qrImageOf(tagImg), payload: tagImg };
  const image = tagImg.startsWith('data:') ? tagImg : `data:image/png;base64,${tagImg}`;
  // Only the picture: its code is read back, so that the merchant has the payload's text too.
  const read = payload ?? payloadOfImage(image);
  return read !== null && EMV_PAYLOAD.test(read) ? { image, payload: read } : { image };
}

/** QR Manager's answer: the code the payer pays, pending until Niubiz says it was paid. */
export async function qrResult(
  answer: ProcessorAnswer,
  context: ConnectorContext,
  expiresAt: Date,
  methodDetails: Record<string, unknown>,
): Promise<AuthorizeResult> {
  // Nobody holds a code whose answer was lost, so nobody can pay it.
  if (answer.kind !== 'answered' || answer.status >= 500) return technicalFailure('connection_refused', null, methodDetails);
  // `codeResponse` 0 is success, 1 an error; the guide's table calls it `codResponse` ([qr-a], [qr-b]).
  const code = text(field(answer.body, 'codeResponse') ?? field(answer.body, 'codResponse'));
  const tagId = text(field(answer.body, 'tagId'));
  const qr = answer.status === 200 && code === '0' && tagId ? await qrOf(answer.body) : null;
  if (!qr || !tagId) {
    return technicalFailure('processor_error', null, methodDetails, {
      code: code ?? String(answer.status),
      description: text(field(answer.body, 'message')) ?? `Niubiz respondió ${answer.status}`,
    });
  }
  return {
    outcome: 'pending',
    stateReason: STATE_REASONS.qrWaiting,
    processorResponse: {
      qr_image: qr.image,
      qr_id: tagId,
      date: toTimeObject(context.now, 'millis').utc_time,
      ...(qr.payload ? { qr_payload: qr.payload } : {}),
      result_message: { code: '0', description: text(field(answer.body, 'message')) ?? 'QR generado' },
    },
    expiresAt,
    continueUrl: null,
    methodDetails,
    processorReference: tagId,
  };
}

/** The void of a sale not yet settled (PUT …/void/ecommerce/{merchantId}/{signature}, research §6.1: [odoo], [ts-hook]). */
export const VOID_BODY = { annulationReason: 'Anulación solicitada por el comercio' };

/**
 * The confirmation of a held authorization, whole (POST /api.confirmation/v1/confirmation/ecommerce/
 * {merchantId}, research §5: [oracle], [odoo], [woo-nf], [ts-hook]). Accounts are PEN only.
 */
export function confirmationBody(request: { transactionId: string; amount: bigint }, saleId: string) {
  const amount = niubizAmount(request.amount);
  return {
    channel: 'web',
    captureType: 'manual',
    order: {
      purchaseNumber: purchaseNumberOf(request.transactionId),
      amount,
      authorizedAmount: amount,
      currency: 'PEN',
      transactionId: saleId,
    },
  };
}

/** Whether a void's or a confirmation's answer says it was done: `dataMap.STATUS` "Voided" or "Confirmed" ([odoo]). */
export function hasStatus(answer: ProcessorAnswer, status: 'voided' | 'confirmed'): boolean {
  return answer.kind === 'answered' && answer.status === 200 && mapText(answer.body, 'STATUS')?.toLowerCase() === status;
}

/**
 * A void or a confirmation not done, once the sale was read again (`after`): unavailable when
 * either answer was lost (it may yet be done), else refused in Niubiz's words.
 */
export function unsettled(
  answer: ProcessorAnswer,
  after: { kind: string },
): { outcome: 'unavailable' } | { outcome: 'refused'; reason: string } {
  if (answer.kind !== 'answered' || answer.status >= 500 || after.kind === 'unknown') return { outcome: 'unavailable' };
  const words = mapText(answer.body, 'ACTION_DESCRIPTION') ?? text(field(answer.body, 'errorMessage'));
  return { outcome: 'refused', reason: words ?? `Niubiz respondió ${answer.status}` };
}

/**
 * Our refund's reference at Niubiz: `externalReferenceId` takes at most 20 characters ([iub]
 * truncates to 20; research §7), so the first 20 hex digits of our refund's UUID (80 bits).
 */
export function refundReferenceOf(refundId: string): string {
  return refundId.replace(/[^0-9a-fA-F]/g, '').slice(0, 20);
}

/**
 * A refund of part of a sale (POST /api.refund/v1/refund/{merchantId}/{transactionId}, [woo-nf],
 * [iub], [java-q]; research §7). `ruc`, the merchant's RUC, which every source sends, goes when the
 * account has one (whether Niubiz requires it is unconfirmed; docs/processors/niubiz.md).
 */
export function refundBody(request: { refundId: string; refundAmount: bigint }, taxId: string | null) {
  return {
    ...(taxId ? { ruc: taxId } : {}),
    comment: `Devolución ${request.refundId}`.slice(0, 100),
    externalReferenceId: refundReferenceOf(request.refundId),
    amount: niubizAmount(request.refundAmount),
  };
}

/**
 * A refund's answer. Success: 2xx, `errorCode` 0, `data.CODERROR` "100" ([iub]); 945 "Referencia
 * repetida" ([PW-PDF] Annex b; its use for refunds is our inference) means an earlier request under
 * the same reference was registered. Lost or failed: in process, sent again under the same reference.
 */
export function refundResult(
  answer: ProcessorAnswer,
): { outcome: 'resolved' } | { outcome: 'in_process' } | { outcome: 'rejected'; reason: string } {
  if (answer.kind !== 'answered' || answer.status >= 500 || answer.status === 401) return { outcome: 'in_process' };
  const code = text(field(field(answer.body, 'data'), 'CODERROR')) ?? mapText(answer.body, 'ACTION_CODE');
  if (answer.status < 300 && Number(field(answer.body, 'errorCode') ?? 0) === 0 && code === '100') return { outcome: 'resolved' };
  if (code === '945') return { outcome: 'resolved' };
  const words = text(field(field(answer.body, 'data'), 'DSCERROR')) ?? text(field(answer.body, 'errorMessage'));
  return { outcome: 'rejected', reason: words ?? `Niubiz respondió ${answer.status}` };
}
