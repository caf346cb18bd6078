import { describeCard, type CardDescription } from '@/server/core/domain/card';
import { CURRENCIES, type CurrencyCode } from '@/server/core/domain/money';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import type { AuthorizeResult, CardFields, ConnectorContext } from '../connector';
import { approval, decline, technicalFailure } from '../outcomes';
import { PAYER_WITHOUT_EMAIL } from '../processor-account';
import type { ProcessorAnswer } from '../processor-http';
import { culqiDeclineClass } from './culqi-codes';
import { culqiError, errorWords, isObject, type CulqiCharge, type CulqiOrder, type CulqiToken } from './culqi-client';

// Culqi's payments as data (docs/processors/culqi.md; research notes docs/processors/sources/culqi-api.md):
// the bodies the connector sends and what Culqi's answers mean, with no I/O, tested with the
// documentation's examples (culqi-mapping.test.ts); culqi-payments.ts sends them.
//
// A card or Yape payment at Culqi: a token of the card (or of the Yape approval code), then a
// charge of the token (docs.culqi.com/es/documentacion/pagos-online/cargo-unico/tokens,
// .../tokens-yape, .../cargos). Culqi keeps no idempotency key: a charge is never sent twice for
// one attempt, and a lost one is found again by its metadata (culqi-records.ts). Every charge
// carries our transaction id in its metadata for that.

/** The token fields a `parameter_error` may name as the card's fault (a decline); any other is ours (technical). */
const CARD_FIELDS = new Set(['card_number', 'cvv', 'expiration_month', 'expiration_year', 'number_phone', 'otp']);

export type Described = { card: CardFields | null; methodDetails: Record<string, unknown> };

/** Culqi's brand words and card types as the interface shows them; the BIN table fills in what Culqi leaves out. */
export function cardOf(pan: string, token: CulqiToken): CardDescription {
  const described = describeCard(pan);
  const type = { credito: 'CREDIT', debito: 'DEBIT', prepagada: 'PREPAID' }[token.iin?.card_type ?? ''] as
    CardDescription['card_type'] | undefined;
  return {
    ...described,
    card_type: type ?? described.card_type,
    card_country: token.iin?.issuer?.country_code ?? described.card_country,
    issuer: token.iin?.issuer?.name ?? described.issuer,
  };
}

export function currencyOf(code: string): string {
  return CURRENCIES[code as CurrencyCode].alpha;
}

/**
 * A token's answer: the token, or the result that ends the attempt. A token charges nothing, so a
 * card token lost on the way lets the payment move on; a Yape token's request carried the
 * payer's one-time code, which may be spent, so it does not.
 */
export function tokenOf(answer: ProcessorAnswer, described: Described, yape: boolean): CulqiToken | AuthorizeResult {
  const { card, methodDetails } = described;
  if (answer.kind === 'refused') return technicalFailure('connection_refused', card, methodDetails);
  if (answer.kind === 'lost' || answer.status >= 500) {
    return technicalFailure(yape ? 'processor_error' : 'connection_refused', card, methodDetails);
  }
  if (answer.status === 201 && isObject<CulqiToken>(answer.body, 'token')) return answer.body;
  const error = culqiError(answer.body);
  // A card or Yape code Culqi refuses to tokenize is declined as Culqi words it; anything else is
  // a request Culqi could not take (keys, limits, a field of ours): a failure before any decision.
  const cardsFault = error?.type === 'card_error' || (error?.type === 'parameter_error' && CARD_FIELDS.has(error.param ?? ''));
  if (error && cardsFault) {
    const code = error.decline_code ?? error.code ?? error.type;
    return decline({ code, description: errorWords(error) }, culqiDeclineClass(code), described);
  }
  return technicalFailure('processor_error', card, methodDetails, {
    code: error?.code ?? String(answer.status),
    description: error ? errorWords(error) : `Culqi respondió ${answer.status}`,
  });
}

export function isToken(value: CulqiToken | AuthorizeResult): value is CulqiToken {
  return 'id' in value;
}

/** A charge's answer (201 charge, 200 REVIEW, 402 decline, other errors), or a lost one (`timeout`: ask for the status). */
export function chargeResult(answer: ProcessorAnswer, described: Described): AuthorizeResult {
  const { card, methodDetails } = described;
  if (answer.kind === 'refused') return technicalFailure('connection_refused', card, methodDetails);
  // A 5xx may come after the charge was made: only the charge's status can tell.
  if (answer.kind === 'lost' || answer.status >= 500) return technicalFailure('timeout', card, methodDetails);
  const { status, body } = answer;
  if (status === 201 && isObject<CulqiCharge>(body, 'charge')) {
    return approval(
      { authorizationCode: body.authorization_code ?? body.id, brandTransactionId: body.reference_code ?? body.id },
      { ...described, processorReference: body.id },
    );
  }
  // Culqi's antifraud wants the payer authenticated first (docs.culqi.com/es/documentacion/culqi-3ds/flujo-con-3ds).
  if (status === 200 && (body as { action_code?: unknown } | null)?.action_code === 'REVIEW') {
    const words = (body as { user_message?: string }).user_message ?? 'Culqi requiere autenticación 3-D Secure';
    return decline({ code: 'REVIEW', description: words }, 'sca_required', described);
  }
  // Any other success is not understood: the charge may exist, so only its status can tell.
  if (status < 300) return technicalFailure('timeout', card, methodDetails);
  const error = culqiError(body);
  if (status === 402 && error?.type === 'card_error') {
    const code = error.decline_code ?? error.code ?? 'card_declined';
    return decline({ code, description: errorWords(error) }, culqiDeclineClass(code), {
      ...described,
      ...(error.charge_id ? { processorReference: error.charge_id } : {}),
    });
  }
  return technicalFailure('processor_error', card, methodDetails, {
    code: error?.code ?? error?.type ?? String(status),
    description: error ? errorWords(error) : `Culqi respondió ${status}`,
  });
}

/** The payer's email as Culqi takes it (5 to 50 characters), or the stand-in when it has none that fits. */
export function emailOf(context: ConnectorContext): string {
  const email = context.order.payer.email;
  return email && email.length >= 5 && email.length <= 50 ? email : PAYER_WITHOUT_EMAIL;
}

export function chargeBody(context: ConnectorContext, sourceId: string, installments: number) {
  const { order, authentication } = context;
  return {
    amount: Number(context.amount),
    currency_code: currencyOf(context.currency),
    email: emailOf(context),
    source_id: sourceId,
    // `false` holds the charge as an authorization, captured later (POST /v2/charges/{id}/capture).
    capture: context.capture !== 'manual',
    description: order.description.padEnd(5, '.'),
    installments,
    metadata: { transaction_id: context.transactionId, merchant_operation_number: order.merchantOperationNumber },
    antifraud_details: {
      ...(order.payer.firstName ? { first_name: order.payer.firstName } : {}),
      ...(order.payer.lastName ? { last_name: order.payer.lastName } : {}),
      ...(order.payer.phone ? { phone_number: order.payer.phone } : {}),
    },
    // The payer passed 3-D Secure with the service's directory server; Culqi takes the result
    // as its own flow's (docs.culqi.com/es/documentacion/culqi-3ds/v1/uso-libreria).
    ...(authentication
      ? {
          authentication_3DS: {
            eci: authentication.eci,
            cavv: authentication.authenticationValue,
            xid: context.transactionId,
            protocolVersion: authentication.version,
            directoryServerTransactionId: context.transactionId,
          },
        }
      : {}),
  };
}

/** A card's token (POST /v2/tokens on the secure host, docs.culqi.com …/cargo-unico/tokens), our transaction id in its metadata. */
export function cardTokenBody(
  pan: string,
  expiry: { month: number; year: number },
  /** Absent from a saved card's charge without it: the body leaves `cvv` out. */
  securityCode: string | undefined,
  context: ConnectorContext,
) {
  return {
    card_number: pan,
    cvv: securityCode,
    expiration_month: String(expiry.month).padStart(2, '0'),
    expiration_year: String(expiry.year),
    email: emailOf(context),
    metadata: { transaction_id: context.transactionId },
  };
}

/** A Yape approval code's token (POST /v2/tokens/yape, docs.culqi.com …/cargo-unico/tokens-yape), for the charge's amount. */
export function yapeTokenBody(phone: { subscriber: string }, otp: string, context: ConnectorContext) {
  return {
    number_phone: phone.subscriber,
    otp,
    amount: Number(context.amount),
    metadata: { transaction_id: context.transactionId },
  };
}

// PagoEfectivo and Cuotéalo at Culqi are payment orders (docs.culqi.com/es/documentacion/pagos-online/ordenes-de-pago/ordenes):
// an order for the amount, confirmed for its payment type, which the payer pays later: by the
// CIP (`payment_code`) at a bank or agent, or on Cuotéalo's page. Culqi tells the service by
// the webhook `order.status.changed` (culqi-notifications.ts). The order's number is our
// transaction id, unique per account, and its metadata carries it too, so a lost answer can be
// found again.

export type OrderMethod = 'PAGOEFECTIVO' | 'CUOTEALO';

export function orderBody(context: ConnectorContext, expiresAt: Date, confirm: boolean) {
  const { order } = context;
  return {
    amount: Number(context.amount),
    currency_code: CURRENCIES[context.currency as CurrencyCode].alpha,
    description: order.description.padEnd(5, '.'),
    order_number: context.transactionId,
    // Culqi requires the payer's details on every order; a payer the merchant did not describe
    // is named generically (docs/processors/culqi.md).
    client_details: {
      first_name: order.payer.firstName ?? 'Cliente',
      last_name: order.payer.lastName ?? 'Pagos',
      email: emailOf(context),
      phone_number: order.payer.phone ?? '+51900000000',
    },
    expiration_date: Math.floor(expiresAt.getTime() / 1000),
    confirm,
    metadata: { transaction_id: context.transactionId, merchant_operation_number: order.merchantOperationNumber },
  };
}

/** What ends an order's creation other than an order: nothing was made when refused; a lost answer is asked about. */
export function failureOf(answer: ProcessorAnswer, methodDetails: Record<string, unknown>): AuthorizeResult {
  if (answer.kind === 'refused') return technicalFailure('connection_refused', null, methodDetails);
  if (answer.kind === 'lost' || answer.status >= 500) return technicalFailure('timeout', null, methodDetails);
  const error = culqiError(answer.body);
  return technicalFailure('processor_error', null, methodDetails, {
    code: error?.code ?? error?.type ?? String(answer.status),
    description: error ? errorWords(error) : `Culqi respondió ${answer.status}`,
  });
}

/** A payment order made (and confirmed): pending until its payer pays the CIP, or chooses the instalments on Cuotéalo's page. */
export function orderResult(
  order: CulqiOrder,
  method: OrderMethod,
  context: ConnectorContext,
  expiresAt: Date,
  methodDetails: Record<string, unknown>,
): AuthorizeResult {
  if (method === 'PAGOEFECTIVO') {
    return {
      outcome: 'pending',
      stateReason: STATE_REASONS.cipWaiting,
      processorResponse: {
        cip: order.payment_code ?? '',
        cip_url: context.payerPageUrl,
        result_message: { code: '100', description: 'CIP generado' },
      },
      expiresAt,
      continueUrl: null,
      methodDetails,
      processorReference: order.id,
    };
  }
  return {
    outcome: 'pending',
    stateReason: STATE_REASONS.instalmentsWaiting,
    processorResponse: null,
    expiresAt,
    // Culqi's own Cuotéalo page, where the payer chooses the instalments.
    continueUrl: order.cuotealo ?? context.payerPageUrl,
    methodDetails,
    processorReference: order.id,
  };
}

/**
 * A refund of `amount` céntimos of a charge (POST /v2/refunds, docs.culqi.com apidocs "Crear
 * devolución"); `metadata` names our refund, so a refund asked again is looked for before it is made.
 */
export function refundBody(amount: number, chargeId: string, metadata?: Record<string, string>) {
  return { amount, charge_id: chargeId, reason: 'solicitud_comprador', ...(metadata ? { metadata } : {}) };
}

/** Why Culqi refused a request, in its words (its error object), or its status. */
export function refusalWords(answer: Extract<ProcessorAnswer, { kind: 'answered' }>): string {
  const error = culqiError(answer.body);
  return error ? errorWords(error) : `Culqi respondió ${answer.status}`;
}
