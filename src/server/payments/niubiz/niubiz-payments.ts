import { payloadOfImage } from '../qr/qr-image-text';
import { describeCard, isExpiryInPast, parseExpiry } from '@/server/core/domain/card';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { CURRENCIES, formatDecimal, type CurrencyCode } from '@/server/core/domain/money';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { addSeconds, toTimeObject } from '@/server/core/domain/time';
import {
  instrumentFor,
  type AuthorizeResult,
  type CardFields,
  type ConnectorContext,
  type PaymentInstrument,
} from '../connector';
import { cardPayment, withoutUndefined } from '../method-details';
import { approval, decline, technicalFailure } from '../outcomes';
import { PAYER_WITHOUT_EMAIL } from '../processor-account';
import type { ProcessorAnswer } from '../processor-http';
import { qrImageOf } from '../qr/emv-qr';
import { yapeWallet } from '../yape-wallet';
import { niubizDeclineClass, NIUBIZ_APPROVAL_CODES } from './niubiz-codes';
import { field, mapText, niubizAmount, orderText, purchaseNumberOf, text, type NiubizClient } from './niubiz-client';

// Card, Yape and QR payments at Niubiz (docs/processors/niubiz.md).
// - CARD, server to server (research §4.4.1): the card goes to the antifraud API only
//   (POST /api.antifraud/v1/antifraud/ecommerce/{merchantId}, observed [K-obs]; [oracle] makes
//   a card payment exactly so), which answers a `tokenId`; the authorization
//   (POST /api.authorization/v3/authorization/ecommerce/{merchantId}, research §4) then charges
//   that token, never the card. A card in the authorization body is in one source only
//   ([ts-hook], research §4.4.2): not used.
// - YAPE (research §10): the payer's phone and one-time code to POST /api.yape/v2/yape/transaction/
//   {merchantId} ([ts-hook], [yape-rn], [flow], [odoo]), whose `data.YAPE_TRX_TOKEN` is authorized
//   as a card token is, with channel `pasarela` ([yape-rn]).
// - QR (research §9): a dynamic code from QR Manager, POST /api.qr.manager/v1/qr/ascii, which the
//   payer pays in Yape, Plin or a bank's app; Niubiz calls the account's URL back (niubiz-notifications.ts).

type Described = { card: CardFields | null; methodDetails: Record<string, unknown> };

function currencyOf(context: ConnectorContext): string {
  return CURRENCIES[context.currency as CurrencyCode].alpha;
}

function errorWords(answer: Extract<ProcessorAnswer, { kind: 'answered' }>): string {
  return (
    mapText(answer.body, 'ACTION_DESCRIPTION') ??
    text(field(answer.body, 'responseMessage')) ??
    text(field(answer.body, 'errorMessage')) ??
    `Niubiz respondió ${answer.status}`
  );
}

/**
 * A 4xx of Niubiz's: a decline when it carries an action code (the 400 "Not Authorized" envelope,
 * research §4.3, §15), else a request Niubiz could not take (credentials, a field of ours).
 */
function rejection(answer: Extract<ProcessorAnswer, { kind: 'answered' }>, described: Described): AuthorizeResult {
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
function authorizationResult(answer: ProcessorAnswer, described: Described): AuthorizeResult {
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
      return approval(
        { authorizationCode: authorizationCode || transactionId, brandTransactionId: transactionId },
        { ...described, processorReference: transactionId },
      );
    }
    // A 200 not understood may be a sale made: only its status can tell.
    return technicalFailure('timeout', card, methodDetails);
  }
  if (answer.status < 300) return technicalFailure('timeout', card, methodDetails);
  return rejection(answer, described);
}

/** The authorization of a token (a card's antifraud token or a Yape token), research §4.1. */
function authorizeToken(client: NiubizClient, context: ConnectorContext, tokenId: string, channel: 'web' | 'pasarela') {
  return client.call('POST', `/api.authorization/v3/authorization/ecommerce/${encodeURIComponent(client.merchantId)}`, {
    body: {
      channel,
      // "Constante, siempre es el valor manual" ([PW-PDF] §7.b.iv).
      captureType: 'manual',
      // true: settled automatically overnight; false: held until confirmed (research §4.1, §5).
      countable: context.capture !== 'manual',
      order: {
        tokenId,
        purchaseNumber: purchaseNumberOf(context.transactionId),
        amount: niubizAmount(context.amount),
        currency: currencyOf(context),
      },
    },
    signal: context.signal,
  });
}

/** The payer's email for the antifraud (Cybersource wants one; research §4.4 observed body). */
function emailOf(context: ConnectorContext): string {
  return context.order.payer.email ?? PAYER_WITHOUT_EMAIL;
}

export async function authorizeCard(client: NiubizClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { pan, expiry, securityCode, installments, holder } = instrumentFor(instrument, 'CARD');
  const described: Described = cardPayment(describeCard(pan), installments);
  const expiryDate = parseExpiry(expiry);
  // An expired card is declined before anything is sent: 101 "Tarjeta vencida" ([PW-PDF] Annex b).
  if (expiryDate === null || isExpiryInPast(expiry, context.now)) {
    return decline({ code: '101', description: 'Tarjeta vencida' }, niubizDeclineClass('101'), described);
  }
  const { order } = context;
  const antifraud = await client.call('POST', `/api.antifraud/v1/antifraud/ecommerce/${encodeURIComponent(client.merchantId)}`, {
    // The observed request (research §4.4.1, [K-obs]); amounts and purchaseNumber as the authorization's.
    body: {
      channel: 'web',
      cardHolder: {
        firstName: holder?.firstName ?? order.payer.firstName ?? 'Cliente',
        lastName: holder?.lastName ?? order.payer.lastName ?? 'Pagos',
        email: emailOf(context),
      },
      card: {
        cardNumber: pan,
        expirationMonth: String(expiryDate.month).padStart(2, '0'),
        expirationYear: String(expiryDate.year),
        cvv2: securityCode,
      },
      order: {
        purchaseNumber: purchaseNumberOf(context.transactionId),
        amount: niubizAmount(context.amount),
        currency: currencyOf(context),
      },
    },
    signal: context.signal,
  });
  // The antifraud token charges nothing: an antifraud call lost on the way lets the payment move on.
  if (antifraud.kind !== 'answered' || antifraud.status >= 500) {
    return technicalFailure('connection_refused', described.card, described.methodDetails);
  }
  const tokenId = text(field(field(antifraud.body, 'token'), 'tokenId'));
  if (antifraud.status !== 200 || !tokenId) {
    return antifraud.status === 200
      ? technicalFailure('processor_error', described.card, described.methodDetails)
      : rejection(antifraud, described);
  }
  return authorizationResult(await authorizeToken(client, context, tokenId, 'web'), described);
}

export async function authorizeYape(client: NiubizClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { phone, otp } = instrumentFor(instrument, 'YAPE');
  const described = yapeWallet(phone);
  const answer = await client.call('POST', `/api.yape/v2/yape/transaction/${encodeURIComponent(client.merchantId)}`, {
    // research §10 step 1 ([ts-hook], [yape-rn]).
    body: {
      channel: 'pasarela',
      captureType: 'manual',
      countable: true,
      order: {
        purchaseNumber: purchaseNumberOf(context.transactionId),
        amount: niubizAmount(context.amount),
        currency: currencyOf(context),
      },
      yape: { phoneNumber: phone.subscriber, otp },
    },
    signal: context.signal,
  });
  if (answer.kind === 'refused') return technicalFailure('connection_refused', described.card, described.methodDetails);
  // The request carried the payer's one-time code, which may be spent: no other processor gets it.
  if (answer.kind === 'lost' || answer.status >= 500) {
    return technicalFailure('processor_error', described.card, described.methodDetails);
  }
  const token = text(field(field(answer.body, 'data'), 'YAPE_TRX_TOKEN'));
  if (answer.status === 200 && token) {
    return authorizationResult(await authorizeToken(client, context, token, 'pasarela'), described);
  }
  // Errors carry their words in `responseMessage` ([ts-hook]); no code table for Yape was found
  // (research §17.10): an action code when there is one, else Niubiz's status.
  if (answer.status === 400) {
    const code = mapText(answer.body, 'ACTION_CODE') ?? `YAPE-${text(field(answer.body, 'responseCode')) ?? answer.status}`;
    return decline({ code, description: errorWords(answer) }, niubizDeclineClass(code), described);
  }
  return rejection(answer, described);
}

/** QR Manager's `validityDate`, ddMMyyyy of Lima's day after the code's expiry: validity counts from 00:00 ([qr-b] quoting the guide). */
export function validityDateOf(expiresAt: Date): string {
  const lima = new Date(expiresAt.getTime() - 5 * 3_600_000 + 86_400_000);
  const dd = String(lima.getUTCDate()).padStart(2, '0');
  const mm = String(lima.getUTCMonth() + 1).padStart(2, '0');
  return `${dd}${mm}${lima.getUTCFullYear()}`;
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

export async function authorizeQr(client: NiubizClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { callbackUrl } = instrumentFor(instrument, 'QR');
  const methodDetails = withoutUndefined({ callback_url: callbackUrl });
  const expiresAt = addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS.QR);
  const answer = await client.call('POST', '/api.qr.manager/v1/qr/ascii', {
    // research §9 ([qr-a] production, [qr-b] "QR Manager v1.5"): a `param` list of name/value
    // strings; `idc` is echoed back with the payment: our transaction id.
    body: {
      enabled: true,
      param: [
        { name: 'merchantId', value: client.merchantId },
        { name: 'transactionCurrency', value: context.currency },
        { name: 'transactionAmount', value: formatDecimal(context.amount, context.currency as CurrencyCode) },
        { name: 'idc', value: context.transactionId },
      ],
      tagType: 'DYNAMIC',
      validityDate: validityDateOf(expiresAt),
    },
    signal: context.signal,
  });
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
  } satisfies AuthorizeResult;
}
