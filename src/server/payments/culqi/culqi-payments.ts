import { describeCard, isExpiryInPast, parseExpiry, type CardDescription } from '@/server/core/domain/card';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { CURRENCIES, type CurrencyCode } from '@/server/core/domain/money';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';
import { addSeconds } from '@/server/core/domain/time';
import {
  instrumentFor,
  type PaymentInstrument,
  type AuthorizeResult,
  type CardFields,
  type ConnectorContext,
} from '../connector';
import { cardPayment, withoutUndefined } from '../method-details';
import { approval, decline, technicalFailure } from '../outcomes';
import { PAYER_WITHOUT_EMAIL } from '../processor-account';
import type { ProcessorAnswer } from '../processor-http';
import { yapeWallet } from '../yape-wallet';
import { culqiDeclineClass } from './culqi-codes';
import {
  culqiError,
  errorWords,
  isObject,
  type CulqiCharge,
  type CulqiClient,
  type CulqiOrder,
  type CulqiToken,
} from './culqi-client';

// Payments at Culqi, as the other account connectors' <processor>-payments.ts: every method's
// authorization.
//
// A card or Yape payment at Culqi: a token of the card (or of the Yape approval code), then a
// charge of the token (docs.culqi.com/es/documentacion/pagos-online/cargo-unico/tokens,
// .../tokens-yape, .../cargos). Culqi keeps no idempotency key: a charge is never sent twice for
// one attempt, and a lost one is found again by its metadata (culqi-records.ts). Every charge
// carries our transaction id in its metadata for that.

/** The token fields a `parameter_error` may name as the card's fault (a decline); any other is ours (technical). */
const CARD_FIELDS = new Set(['card_number', 'cvv', 'expiration_month', 'expiration_year', 'number_phone', 'otp']);

type Described = { card: CardFields | null; methodDetails: Record<string, unknown> };

/** Culqi's brand words and card types as the interface shows them; the BIN table fills in what Culqi leaves out. */
function cardOf(pan: string, token: CulqiToken): CardDescription {
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

function currencyOf(code: string): string {
  return CURRENCIES[code as CurrencyCode].alpha;
}

/**
 * A token's answer: the token, or the result that ends the attempt. A token charges nothing, so a
 * card token lost on the way lets the payment move on; a Yape token's request carried the
 * payer's one-time code, which may be spent, so it does not.
 */
function tokenOf(answer: ProcessorAnswer, described: Described, yape: boolean): CulqiToken | AuthorizeResult {
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

function isToken(value: CulqiToken | AuthorizeResult): value is CulqiToken {
  return 'id' in value;
}

/** A charge's answer (201 charge, 200 REVIEW, 402 decline, other errors), or a lost one (`timeout`: ask for the status). */
function chargeResult(answer: ProcessorAnswer, described: Described): AuthorizeResult {
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
function emailOf(context: ConnectorContext): string {
  const email = context.order.payer.email;
  return email && email.length >= 5 && email.length <= 50 ? email : PAYER_WITHOUT_EMAIL;
}

function chargeBody(context: ConnectorContext, sourceId: string, installments: number) {
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

export async function authorizeCard(client: CulqiClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { pan, expiry, securityCode, installments } = instrumentFor(instrument, 'CARD');
  const described: Described = cardPayment(describeCard(pan), installments);
  // Culqi refuses to tokenize an expired card; the interface declines it (docs/DESIGN.md 7).
  const expiryDate = parseExpiry(expiry);
  if (expiryDate === null || isExpiryInPast(expiry, context.now)) {
    return decline({ code: 'expired_card', description: 'Tarjeta vencida' }, 'hard', described);
  }
  const token = tokenOf(
    await client.post(
      '/tokens',
      {
        card_number: pan,
        cvv: securityCode,
        expiration_month: String(expiryDate.month).padStart(2, '0'),
        expiration_year: String(expiryDate.year),
        email: emailOf(context),
        metadata: { transaction_id: context.transactionId },
      },
      { key: 'public', secure: true, signal: context.signal },
    ),
    described,
    false,
  );
  if (!isToken(token)) return token;
  const withCard: Described = cardPayment(cardOf(pan, token), installments);
  const count = Number(installments?.number ?? '1');
  const answer = await client.post('/charges', chargeBody(context, token.id, count > 1 ? count : 0), {
    key: 'secret',
    signal: context.signal,
  });
  return chargeResult(answer, withCard);
}

export async function authorizeYape(client: CulqiClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { phone, otp } = instrumentFor(instrument, 'YAPE');
  const described = yapeWallet(phone);
  const token = tokenOf(
    await client.post(
      '/tokens/yape',
      {
        number_phone: phone.subscriber,
        otp,
        amount: Number(context.amount),
        metadata: { transaction_id: context.transactionId },
      },
      { key: 'public', secure: true, signal: context.signal },
    ),
    described,
    true,
  );
  if (!isToken(token)) return token;
  const answer = await client.post('/charges', chargeBody(context, token.id, 0), { key: 'secret', signal: context.signal });
  return chargeResult(answer, described);
}

// PagoEfectivo and Cuotéalo at Culqi are payment orders (docs.culqi.com/es/documentacion/pagos-online/ordenes-de-pago/ordenes):
// an order for the amount, confirmed for its payment type, which the payer pays later: by the
// CIP (`payment_code`) at a bank or agent, or on Cuotéalo's page. Culqi tells the service by
// the webhook `order.status.changed` (culqi-notifications.ts). The order's number is our
// transaction id, unique per account, and its metadata carries it too, so a lost answer can be
// found again.

type OrderMethod = 'PAGOEFECTIVO' | 'CUOTEALO';

function orderBody(context: ConnectorContext, expiresAt: Date, confirm: boolean) {
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
function failureOf(answer: ProcessorAnswer, methodDetails: Record<string, unknown>): AuthorizeResult {
  if (answer.kind === 'refused') return technicalFailure('connection_refused', null, methodDetails);
  if (answer.kind === 'lost' || answer.status >= 500) return technicalFailure('timeout', null, methodDetails);
  const error = culqiError(answer.body);
  return technicalFailure('processor_error', null, methodDetails, {
    code: error?.code ?? error?.type ?? String(answer.status),
    description: error ? errorWords(error) : `Culqi respondió ${answer.status}`,
  });
}

export async function authorizeOrder(
  client: CulqiClient,
  method: OrderMethod,
  instrument: PaymentInstrument,
  context: ConnectorContext,
): Promise<AuthorizeResult> {
  const { returnUrl, callbackUrl } = instrumentFor(instrument, method);
  const methodDetails =
    method === 'CUOTEALO'
      ? withoutUndefined({ redirect_url: returnUrl, callback_url: callbackUrl })
      : withoutUndefined({ callback_url: callbackUrl });
  const expiresAt = addSeconds(context.now, context.expirySeconds ?? DEFAULT_EXPIRY_SECONDS[method]);
  // A PagoEfectivo order is confirmed as it is made, which gives its CIP; a Cuotéalo order is
  // confirmed for that type only (culqi-python culqi/resources/order.py `confirmtype`).
  const created = await client.post('/orders', orderBody(context, expiresAt, method === 'PAGOEFECTIVO'), {
    key: 'secret',
    signal: context.signal,
  });
  if (created.kind !== 'answered' || created.status !== 201 || !isObject<CulqiOrder>(created.body, 'order')) {
    // A success not understood may be an order made: only its status can tell.
    const understood = created.kind === 'answered' && created.status >= 300;
    return understood || created.kind === 'refused'
      ? failureOf(created, methodDetails)
      : technicalFailure('timeout', null, methodDetails);
  }
  let order = created.body;
  if (method === 'CUOTEALO') {
    const confirmed = await client.post(
      '/orders/confirm',
      { order_id: order.id, order_types: ['cuotealo'] },
      { key: 'public', signal: context.signal },
    );
    if (confirmed.kind !== 'answered' || confirmed.status !== 201 || !isObject<CulqiOrder>(confirmed.body, 'order')) {
      // The order exists unconfirmed (nobody can pay it): the attempt failed before any payment.
      const failure = failureOf(confirmed, methodDetails);
      return failure.outcome === 'technical_failure' && failure.reason === 'timeout'
        ? { ...failure, processorReference: order.id }
        : failure;
    }
    order = confirmed.body;
  }
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
