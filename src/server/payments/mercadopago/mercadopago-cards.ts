import { parseExpiry } from '@/server/core/domain/card';
import type { ConnectorContext, DeleteTokenResult, InstrumentFor, ProcessorCardToken, ProvisionTokenResult } from '../connector';
import { PAYER_WITHOUT_EMAIL } from '../processor-account';
import { field, text } from '../processor-http';
import type { MercadoPagoClient } from './mercadopago-client';
import { cardTokenBody } from './mercadopago-mapping';

// Mercado Pago's saved cards ("Gestión de tarjetas y clientes",
// mercadopago.com.pe/developers/es/docs/checkout-api/cards-and-customers-management/create-customer-and-card
// and …/receive-payments-with-saved-cards): a customer (POST /v1/customers {email}), a card saved
// from a card token (POST /v1/customers/{id}/cards {token}); a payment of it is a new card token
// made of the card's id and its security code captured again ("se requiere una nueva captura del
// código de seguridad… Mercado Pago no puede almacenar estos datos"), paid with `payer: {type:
// "customer", id}`. So its token carries a one-click charge that comes with its security code,
// never an MIT (`tokenWithoutCode: false`), and Mercado Pago documents no network transaction id
// or zero-amount verification for this API. DELETE /v1/customers/{id}/cards/{card_id} deletes it.

/** The payer's Mercado Pago customer: found by email (GET /v1/customers/search), else made. Null when neither answers. */
async function customerOf(client: MercadoPagoClient, context: ConnectorContext): Promise<string | null> {
  const email = context.order.payer.email ?? PAYER_WITHOUT_EMAIL;
  const found = await client.get('/v1/customers/search', { email }, context.signal);
  const results = found.kind === 'answered' && found.status === 200 ? field(found.body, 'results') : null;
  const first: unknown = Array.isArray(results) ? results[0] : undefined;
  const existing = text(field(first, 'id'));
  if (existing) return existing;
  const { firstName, lastName } = context.order.payer;
  const made = await client.post(
    '/v1/customers',
    { email, ...(firstName ? { first_name: firstName } : {}), ...(lastName ? { last_name: lastName } : {}) },
    `${context.transactionId}:customer`,
    context.signal,
  );
  return made.kind === 'answered' && made.status < 300 ? (text(field(made.body, 'id')) ?? null) : null;
}

/** The name on the card: the card holder's as sent, else the payer's. */
export function holderName({ holder }: InstrumentFor<'CARD'>, { order: { payer } }: ConnectorContext): string {
  const names = holder ? [holder.firstName, holder.lastName] : [payer.firstName, payer.lastName];
  return names.filter(Boolean).join(' ');
}

/**
 * The card a customer-initiated approval leaves at Mercado Pago: a new card token (the payment
 * spent its own), saved to the payer's customer (the one the customer has there already, else
 * found by email or made). `unavailable` when anything on the way is refused or lost.
 */
export async function provisionCard(
  client: MercadoPagoClient,
  card: InstrumentFor<'CARD'>,
  context: ConnectorContext,
): Promise<ProvisionTokenResult> {
  const unavailable = { outcome: 'unavailable' } as const;
  const { signal, transactionId } = context;
  const expiry = parseExpiry(card.expiry);
  if (!card.securityCode || !expiry) return unavailable;
  const customerId = card.storedCredential?.processorCustomerId ?? (await customerOf(client, context));
  if (!customerId) return unavailable;
  const tokened = await client.post(
    '/v1/card_tokens',
    cardTokenBody(card.pan, expiry, card.securityCode, holderName(card, context)),
    `${transactionId}:card-save-token`,
    signal,
  );
  const token = tokened.kind === 'answered' && tokened.status < 300 ? text(field(tokened.body, 'id')) : undefined;
  if (!token) return unavailable;
  const saved = await client.post(
    `/v1/customers/${encodeURIComponent(customerId)}/cards`,
    { token },
    `${transactionId}:card-save`,
    signal,
  );
  const id = saved.kind === 'answered' && saved.status < 300 ? text(field(saved.body, 'id')) : undefined;
  return id ? { outcome: 'provisioned', token: { token: id, processorCustomerId: customerId } } : unavailable;
}

/** A card token of a saved card and its security code captured again (the card id, as the docs' saved-card payment). */
export function savedCardTokenBody(cardId: string, securityCode: string) {
  return { card_id: cardId, security_code: securityCode };
}

/** DELETE /v1/customers/{id}/cards/{card_id}: deleted, or already gone (404); anything else is asked again later. */
export async function deleteCard(client: MercadoPagoClient, token: ProcessorCardToken): Promise<DeleteTokenResult> {
  if (!token.processorCustomerId) return { outcome: 'deleted' };
  const answer = await client.delete(
    `/v1/customers/${encodeURIComponent(token.processorCustomerId)}/cards/${encodeURIComponent(token.token)}`,
  );
  if (answer.kind !== 'answered') return { outcome: 'unavailable' };
  return answer.status < 300 || answer.status === 404 ? { outcome: 'deleted' } : { outcome: 'unavailable' };
}
