import { parseExpiry } from '@/server/core/domain/card';
import type { ConnectorContext, DeleteTokenResult, InstrumentFor, ProcessorCardToken, ProvisionTokenResult } from '../connector';
import { field } from '../processor-http';
import { isObject, type CulqiClient, type CulqiToken } from './culqi-client';
import { cardTokenBody, emailOf } from './culqi-mapping';

// Culqi's saved cards ("Tarjetas", docs.culqi.com/es/documentacion/pagos-online/recurrencia/one-click/tarjetas/):
// a card (`crd_`) is made of a Culqi customer (`cus_`, POST /v2/customers) and a fresh card token
// (POST /v2/cards {customer_id, token_id}); Culqi validates the card as it makes it, and a charge
// names it as its source (`source_id: crd_…`, which POST /v2/charges takes beside tkn_ and ype_:
// culqi-python culqi/utils/validation/charge_validation.py) without the payer or the security
// code. DELETE /v2/cards/{id} deletes it (recorded answer: 200 `{id, deleted: true}`,
// culqi-python tests/cassettes/CardTest.test_card_delete.yaml). Culqi documents no network
// transaction id nor stored-credential flags: an MIT reaches Culqi only through its own card.

/** Culqi's customer object wants these (culqi-python culqi/utils/validation/customer_validation.py). */
function customerBody(context: ConnectorContext) {
  const { payer } = context.order;
  if (!payer.firstName || !payer.lastName || !payer.address || !payer.phone) return null;
  const country = payer.address.country?.trim().toUpperCase();
  return {
    first_name: payer.firstName,
    last_name: payer.lastName,
    email: emailOf(context),
    address: payer.address.line,
    address_city: payer.address.city,
    // The accounts are Peruvian: a country not given as its ISO code is Peru.
    country_code: country && /^[A-Z]{2}$/.test(country) ? country : 'PE',
    phone_number: phoneNumber(payer.phone),
    metadata: { merchant_operation_number: context.order.merchantOperationNumber },
  };
}

/**
 * Culqi's customer phone: 5 to 15 digits; a Peruvian number as its nine national digits, as in
 * Culqi's examples, any other with its country code.
 */
function phoneNumber(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return phone.startsWith('+51') ? digits.slice(2) : digits;
}

/**
 * The card a customer-initiated charge approved at Culqi leaves there: its customer (the one the
 * customer has there already, else a new one), a new token of the card (a token is spent by the
 * charge that used it) and the card made of both. `unavailable` where Culqi cannot make one: no
 * security code (a token needs it), a payer without the fields a Culqi customer wants, or any
 * refusal or lost answer on the way.
 */
export async function provisionCard(
  client: CulqiClient,
  card: InstrumentFor<'CARD'>,
  context: ConnectorContext,
): Promise<ProvisionTokenResult> {
  const unavailable = { outcome: 'unavailable' } as const;
  const { signal } = context;
  const expiry = parseExpiry(card.expiry);
  if (!card.securityCode || !expiry) return unavailable;
  let customerId = card.storedCredential?.processorCustomerId ?? null;
  if (!customerId) {
    const body = customerBody(context);
    if (!body) return unavailable;
    const made = await client.post('/customers', body, { key: 'secret', signal });
    if (made.kind !== 'answered' || made.status !== 201 || !isObject<{ id: string }>(made.body, 'customer')) return unavailable;
    customerId = made.body.id;
  }
  const token = await client.post('/tokens', cardTokenBody(card.pan, expiry, card.securityCode, context), {
    key: 'public',
    secure: true,
    signal,
  });
  if (token.kind !== 'answered' || token.status !== 201 || !isObject<CulqiToken>(token.body, 'token')) return unavailable;
  const saved = await client.post('/cards', { customer_id: customerId, token_id: token.body.id }, { key: 'secret', signal });
  if (saved.kind !== 'answered' || saved.status !== 201 || !isObject<{ id: string }>(saved.body, 'card')) return unavailable;
  return { outcome: 'provisioned', token: { token: saved.body.id, processorCustomerId: customerId } };
}

/** DELETE /v2/cards/{id}: deleted, or already gone (404); anything else is asked again later. */
export async function deleteCard(client: CulqiClient, token: ProcessorCardToken): Promise<DeleteTokenResult> {
  const answer = await client.delete(`/cards/${encodeURIComponent(token.token)}`);
  if (answer.kind !== 'answered') return { outcome: 'unavailable' };
  if (answer.status === 200 && field(answer.body, 'deleted') === true) return { outcome: 'deleted' };
  if (answer.status === 404) return { outcome: 'deleted' };
  return { outcome: 'unavailable' };
}
