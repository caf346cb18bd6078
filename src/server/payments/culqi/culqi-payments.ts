import { describeCard, isExpiryInPast, parseExpiry } from '@/server/core/domain/card';
import { DEFAULT_EXPIRY_SECONDS } from '@/server/core/domain/expiry';
import { addSeconds } from '@/server/core/domain/time';
import {
  instrumentFor,
  type AuthorizeResult,
  type ConnectorContext,
  type HoldCardResult,
  type InstrumentFor,
  type PaymentInstrument,
} from '../connector';
import { cardPayment, withoutUndefined } from '../method-details';
import { decline, technicalFailure } from '../outcomes';
import { yapeWallet } from '../yape-wallet';
import { isObject, type CulqiClient, type CulqiOrder } from './culqi-client';
import {
  cardOf,
  cardTokenBody,
  chargeBody,
  chargeResult,
  failureOf,
  isToken,
  orderBody,
  orderResult,
  tokenOf,
  yapeTokenBody,
  type Described,
  type OrderMethod,
} from './culqi-mapping';

// Every method's authorization at Culqi, as the calls it takes (what each carries and means:
// culqi-mapping.ts): a card or Yape payment is a token, then a charge of the token; PagoEfectivo
// and Cuotéalo are payment orders, a Cuotéalo order confirmed for its type.

export async function authorizeCard(
  client: CulqiClient,
  instrument: PaymentInstrument,
  context: ConnectorContext,
): Promise<AuthorizeResult> {
  const card = instrumentFor(instrument, 'CARD');
  const { pan, installments, storedCredential } = card;
  const described: Described = cardPayment(describeCard(pan), installments);
  const count = Number(installments?.number ?? '1');
  const held = storedCredential?.processorToken;
  if (held) {
    // A saved card Culqi holds: charged as its card, no token, no payer needed (culqi-cards.ts).
    const answer = await client.post('/charges', chargeBody(context, held.token, count > 1 ? count : 0), {
      key: 'secret',
      signal: context.signal,
    });
    return chargeResult(answer, described);
  }
  if (card.heldToken) {
    // The token made before the 3-D Secure challenge (holdCard), charged with its result: Culqi's
    // own 3-D Secure flow charges the payer's token again once authenticated (culqi.md).
    const answer = await client.post('/charges', chargeBody(context, card.heldToken, count > 1 ? count : 0), {
      key: 'secret',
      signal: context.signal,
    });
    return chargeResult(answer, described);
  }
  const token = await cardToken(client, card, context, described);
  if (!isToken(token)) return token;
  const withCard: Described = cardPayment(cardOf(pan, token), installments);
  const answer = await client.post('/charges', chargeBody(context, token.id, count > 1 ? count : 0), {
    key: 'secret',
    signal: context.signal,
  });
  return chargeResult(answer, withCard);
}

/** A token of the card (`POST /v2/tokens`, with its cvv), or how the card was refused. */
async function cardToken(client: CulqiClient, card: InstrumentFor<'CARD'>, context: ConnectorContext, described: Described) {
  // Culqi refuses to tokenize an expired card; the interface declines it (docs/DESIGN.md 7).
  const expiryDate = parseExpiry(card.expiry);
  if (expiryDate === null || isExpiryInPast(card.expiry, context.now)) {
    return decline({ code: 'expired_card', description: 'Tarjeta vencida' }, 'hard', described);
  }
  const answer = await client.post('/tokens', cardTokenBody(card.pan, expiryDate, card.securityCode, context), {
    key: 'public',
    secure: true,
    signal: context.signal,
  });
  return tokenOf(answer, described, false);
}

/** A token lives 5 minutes and is charged once (docs.culqi.com/es/documentacion/pagos-online/cargo-unico/tokens). */
const TOKEN_LIFETIME_MS = 5 * 60_000;

/**
 * The card of a payment about to wait for its 3-D Secure challenge, as a token made now with its
 * cvv: the charge after the challenge has no cvv (none is kept) and charges this token instead.
 */
export async function holdCard(
  client: CulqiClient,
  card: InstrumentFor<'CARD'>,
  context: ConnectorContext,
): Promise<HoldCardResult> {
  const token = await cardToken(client, card, context, cardPayment(describeCard(card.pan), card.installments));
  if (!isToken(token)) return { outcome: 'unavailable' };
  return { outcome: 'held', token: token.id, expiresAt: new Date(context.now.getTime() + TOKEN_LIFETIME_MS) };
}

export async function authorizeYape(client: CulqiClient, instrument: PaymentInstrument, context: ConnectorContext) {
  const { phone, otp } = instrumentFor(instrument, 'YAPE');
  const described = yapeWallet(phone);
  const token = tokenOf(
    await client.post('/tokens/yape', yapeTokenBody(phone, otp, context), {
      key: 'public',
      secure: true,
      signal: context.signal,
    }),
    described,
    true,
  );
  if (!isToken(token)) return token;
  const answer = await client.post('/charges', chargeBody(context, token.id, 0), { key: 'secret', signal: context.signal });
  return chargeResult(answer, described);
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
  return orderResult(order, method, context, expiresAt, methodDetails);
}
