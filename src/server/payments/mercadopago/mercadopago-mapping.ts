import type { CardDescription } from '@/server/core/domain/card';
import type { AuthorizeResult, CardFields, ConnectorContext } from '../connector';
import { approval, decline, technicalFailure } from '../outcomes';
import { field, text, type ProcessorAnswer } from '../processor-http';
import { PAYER_WITHOUT_EMAIL, type ProcessorAccountConfig } from '../processor-account';
import { errorOf, paymentOf } from './mercadopago-client';
import { MERCADOPAGO_DECLINE_WORDS, mercadoPagoDeclineClass } from './mercadopago-codes';

// Mercado Pago's payments as data (docs/processors/mercadopago.md; research notes
// docs/processors/sources/mercadopago-api.md): the bodies the connector sends and what Mercado
// Pago's answers mean, with no I/O, tested with the documentation's examples
// (mercadopago-mapping.test.ts); mercadopago-payments.ts and the connector send them.
//
// A card or Yape payment at Mercado Pago (Checkout API, Peru): a token of the card (server side,
// as a PCI DSS compliant merchant may: mercadopago.com.br/developers/es/docs/resources-pci-compliant-merchants/receiving-payment-by-card)
// or of the Yape approval code (…/checkout-api/integration-configuration/yape), then
// POST /v1/payments with the attempt's transaction id as its idempotency key and its external
// reference. `binary_mode` asks for a decision now (approved or rejected, never in process), and
// 3-D Secure stays the service's own (`three_d_secure_mode: not_supported`).

export type Described = { card: CardFields | null; methodDetails: Record<string, unknown> };

/** Mercado Pago's ids of the card brands Peru's accounts carry (`payment_method_id`). */
export function paymentMethodOf(card: CardDescription): string | null {
  const debit = card.card_type === 'DEBIT';
  switch (card.brand) {
    case 'VISA':
      return debit ? 'debvisa' : 'visa';
    case 'MASTERCARD':
      return debit ? 'debmaster' : 'master';
    case 'AMEX':
      return 'amex';
    case 'DINERS':
      return 'diners';
    default:
      return null;
  }
}

/** Pesos and céntimos as Mercado Pago takes them: a decimal number of soles (`transaction_amount`). */
export function majorUnits(cents: bigint): number {
  return Number(cents) / 100;
}

/**
 * A token's id, or the result that ends the attempt. A token charges nothing, so nothing needs
 * asking after a lost one; but a Yape token's request carried the payer's one-time code, which
 * may be spent, so only a refused connection lets a Yape payment move on (processor_error stops it).
 */
export function tokenOf(answer: ProcessorAnswer, described: Described): string | AuthorizeResult {
  if (answer.kind === 'refused') return technicalFailure('connection_refused', described.card, described.methodDetails);
  if (answer.kind === 'lost') return technicalFailure('processor_error', described.card, described.methodDetails);
  const id = text(field(answer.body, 'id'));
  if (answer.status < 300 && id) return id;
  return technicalFailure('processor_error', described.card, described.methodDetails, errorOf(answer.body, answer.status));
}

/** A payment's answer: a decision, a failure before one, or a lost answer (`timeout`: ask for the status). */
export function paymentResult(answer: ProcessorAnswer, described: Described): AuthorizeResult {
  if (answer.kind !== 'answered' || answer.status >= 500) {
    return answer.kind === 'refused'
      ? technicalFailure('connection_refused', described.card, described.methodDetails)
      : technicalFailure('timeout', described.card, described.methodDetails);
  }
  const payment = paymentOf(answer.body);
  // A success not understood, or a request already under this key (409, 423): a payment may exist, so only its status can tell.
  if ((answer.status < 300 && !payment) || answer.status === 409 || answer.status === 423) {
    return technicalFailure('timeout', described.card, described.methodDetails);
  }
  if (answer.status >= 300 || !payment) {
    return technicalFailure('processor_error', described.card, described.methodDetails, errorOf(answer.body, answer.status));
  }
  const processorReference = String(payment.id);
  // `authorized`: approved and reserved, to be captured later (`capture: false`).
  if (payment.status === 'approved' || payment.status === 'authorized') {
    return approval(
      { authorizationCode: payment.authorization_code ?? processorReference, brandTransactionId: processorReference },
      { ...described, processorReference },
    );
  }
  if (payment.status === 'rejected') {
    const code = payment.status_detail ?? 'rejected';
    const words = MERCADOPAGO_DECLINE_WORDS[code] ?? `Rechazado por Mercado Pago (${code})`;
    return decline({ code, description: words }, mercadoPagoDeclineClass(code), { ...described, processorReference });
  }
  // In process or pending despite binary mode: undecided, so the status sync and the processor's
  // notification settle it.
  return { ...technicalFailure('timeout', described.card, described.methodDetails), processorReference };
}

/** The longest `notification_url` the payments reference allows ("… is 248 characters"). */
const NOTIFICATION_URL_MAX = 248;

/** Whether a host is one Mercado Pago cannot reach: localhost, or a loopback, private, link-local or unspecified address. */
function isLocalHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  if (!host.includes(':')) return false;
  if (host === '::' || host === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)) return true;
  // An IPv4-mapped IPv6 address as the URL parser writes it (::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!mapped) return false;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return isLocalHost(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
}

/**
 * The account's notification URL when Mercado Pago takes it as a payment's `notification_url`:
 * https, a host it can reach (not localhost, a loopback or a private address) and at most 248
 * characters. Otherwise null, and the payment carries none: its notifications then go to the
 * URL set in the application's Webhooks (Your integrations > Webhooks), which the merchant
 * points at this same URL. Mercado Pago refuses an invalid one with cause 4020 and the whole
 * payment with it (payments reference; "O Mercado Pago só aceita URLs com https … não colocar IP
 * ou localhost"; mercadopago.com.pe/developers/en/docs/your-integrations/notifications/webhooks).
 */
export function mercadoPagoNotificationUrl(url: string): string | null {
  if (url.length > NOTIFICATION_URL_MAX) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'https:' && !isLocalHost(parsed.hostname) ? url : null;
}

export function paymentBody(account: ProcessorAccountConfig, context: ConnectorContext, extra: Record<string, unknown>) {
  const notificationUrl = mercadoPagoNotificationUrl(account.notificationUrl);
  const { payer, merchantOperationNumber, description } = context.order;
  return {
    transaction_amount: majorUnits(context.amount),
    description,
    payer: {
      email: payer.email ?? PAYER_WITHOUT_EMAIL,
      ...(payer.firstName ? { first_name: payer.firstName } : {}),
      ...(payer.lastName ? { last_name: payer.lastName } : {}),
    },
    external_reference: context.transactionId,
    ...(notificationUrl === null ? {} : { notification_url: notificationUrl }),
    binary_mode: true,
    // `false` reserves the amount to capture later (PUT /v1/payments/{id}, research §7.3).
    capture: context.capture !== 'manual',
    metadata: { transaction_id: context.transactionId, merchant_operation_number: merchantOperationNumber },
    ...extra,
  };
}

/** A card's token (POST /v1/card_tokens): strings, as the official SDK types them (sdk-nodejs src/clients/cardToken/create/types.ts). */
export function cardTokenBody(
  pan: string,
  expiry: { month: number; year: number },
  securityCode: string | undefined,
  holder: string,
) {
  return {
    card_number: pan,
    expiration_month: String(expiry.month).padStart(2, '0'),
    expiration_year: String(expiry.year),
    security_code: securityCode,
    cardholder: { name: holder || 'Cliente' },
  };
}

/** What a refund's answer says: made, in process, refused, or unknown (asked again later). */
export type Refunded =
  { kind: 'refunded' | 'in_process'; code: string } | { kind: 'refused'; reason: string } | { kind: 'unavailable' };

/** A refund's answer (POST /v1/payments/{id}/refunds); `id` names the payment when the answer names no refund. */
export function refundAnswer(answer: ProcessorAnswer, id: string): Refunded {
  if (answer.kind !== 'answered' || underWay(answer)) return { kind: 'unavailable' };
  if (answer.status < 300) {
    const status = text(field(answer.body, 'status'));
    const code = text(field(answer.body, 'id')) ?? id;
    if (status === 'approved') return { kind: 'refunded', code };
    if (status === 'in_process' || status === 'authorized') return { kind: 'in_process', code };
    return { kind: 'refused', reason: `Mercado Pago rechazó la devolución (${status ?? 'sin estado'})` };
  }
  return { kind: 'refused', reason: errorOf(answer.body, answer.status).description };
}

/**
 * An answer that decides nothing yet: a 5xx, a request under the same idempotency key under way or
 * made (409, 423: it is read on the next ask), or too many requests (429).
 */
export function underWay(answer: Extract<ProcessorAnswer, { kind: 'answered' }>): boolean {
  return answer.status >= 500 || [409, 423, 429].includes(answer.status);
}

/** A reserve cancelled (PUT /v1/payments/{id}, research §7.3). */
export const CANCEL_BODY = { status: 'cancelled' };

/** A reserve captured for `amount` soles, at most what was reserved (PUT /v1/payments/{id}, research §7.3). */
export const captureBody = (amount: number) => ({ capture: true, transaction_amount: amount });

/** A refund of part of a payment (POST /v1/payments/{id}/refunds with an amount; an empty body refunds it whole). */
export const refundAmountBody = (cents: bigint) => ({ amount: majorUnits(cents) });
