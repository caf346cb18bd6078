import type { SimReply } from '../simulator-http';
import {
  copy,
  emailField,
  errorReply,
  metadataField,
  newId,
  parameterError,
  resourceError,
  stringField,
  type Body,
  type CardRecord,
  type CulqiAccount,
  type CulqiCard,
  type CulqiContext,
  type CulqiCustomer,
} from './culqi-objects';
import { DECLINE_MESSAGES, decideCard, isReviewEmail, REVIEW_USER_MESSAGE } from './culqi-test-data';

// Customers and saved cards (docs.culqi.com/es/documentacion/pagos-online/recurrencia/one-click/tarjetas/,
// culqi-python culqi/resources/{customer,card}.py and their validation, and the recorded answers
// in culqi-python tests/cassettes/CardTest.*.yaml): a card is made of a customer and an unused
// card token, validated as it is made (a decline is HTTP 400 card_error with the validation's
// charge id; 3-D Secure test cards with review@culqi.com answer REVIEW), and keeps the card's
// number to be charged later (`source_id: crd_…`) until it is deleted.

const COUNTRY = /^[A-Z]{2}$/;

export function createCustomer(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  const firstName = stringField(body, 'first_name', { min: 2, max: 50 });
  const lastName = stringField(body, 'last_name', { min: 2, max: 50 });
  const email = emailField(body, 'email');
  const address = stringField(body, 'address', { min: 5, max: 100 });
  const city = stringField(body, 'address_city', { min: 2, max: 30 });
  const country = stringField(body, 'country_code', { min: 2, max: 2 });
  if (!COUNTRY.test(country)) parameterError('country_code', 'Debe ser un código de país ISO de 2 letras.');
  const phone = stringField(body, 'phone_number', { min: 5, max: 15 });
  if (!/^\d+$/.test(phone)) parameterError('phone_number', 'Debe tener solo dígitos.');
  const customer: CulqiCustomer = {
    object: 'customer',
    id: newId('cus', account),
    creation_date: Date.now(),
    email,
    antifraud_details: {
      first_name: firstName,
      last_name: lastName,
      address,
      address_city: city,
      country_code: country,
      phone: `+51${phone}`,
      object: 'client',
    },
    metadata: metadataField(body),
  };
  ctx.state.customers.set(customer.id, { owner: account.secretKey, value: customer });
  return { status: 201, body: customer };
}

export function createCard(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  const customerId = stringField(body, 'customer_id', { min: 1, max: 64 });
  const tokenId = stringField(body, 'token_id', { min: 1, max: 64 });
  if (!/^cus_(test|live)_/.test(customerId)) parameterError('customer_id', "Debe empezar por 'cus_'.");
  if (!/^tkn_(test|live)_/.test(tokenId)) parameterError('token_id', "Debe empezar por 'tkn_'.");
  const customer = ctx.state.customers.get(customerId);
  if (!customer || customer.owner !== account.secretKey) resourceError(`No se encontró el cliente con ID ${customerId}.`);
  const record = ctx.state.tokens.get(tokenId);
  if (!record || record.owner !== account.secretKey || record.token.type !== 'card') {
    resourceError(`No se encontró el token con ID ${tokenId}.`);
  }
  if (record.used || Date.now() > record.expiresAt || record.cardNumber === null) {
    resourceError(`El token ${tokenId} ya fue utilizado o expiró.`);
  }
  const cardNumber = record.cardNumber;
  const decision = decideCard(cardNumber);
  if (decision.kind === 'three_ds' && isReviewEmail(record.token.email)) {
    return { status: 200, body: { action_code: 'REVIEW', user_message: REVIEW_USER_MESSAGE } };
  }
  record.used = true;
  record.cardNumber = null;
  const declineCode = decision.kind === 'decline' ? decision.declineCode : null;
  if (declineCode) {
    const messages = DECLINE_MESSAGES[declineCode];
    // Recorded as 400, not the 402 of a declined charge (culqi-python CardTest.test_card_create__stolen_card__visa.yaml).
    return {
      ...errorReply('card_error', messages.merchant_message, {
        charge_id: newId('chr', account),
        code: 'card_declined',
        decline_code: declineCode,
        user_message: messages.user_message,
      }),
      status: 400,
    };
  }
  const card: CulqiCard = {
    object: 'card',
    id: newId('crd', account),
    active: true,
    creation_date: Date.now(),
    customer_id: customerId,
    source: copy(record.token),
    metadata: metadataField(body),
  };
  ctx.state.cards.set(card.id, { owner: account.secretKey, card, cardNumber });
  return { status: 201, body: card };
}

/** The account's card, to charge or read; 404 once deleted. */
export function ownCard(ctx: CulqiContext, account: CulqiAccount, id: string): CardRecord {
  const record = ctx.state.cards.get(id);
  if (!record || record.owner !== account.secretKey) resourceError(`No se encontró la tarjeta con ID ${id}.`);
  return record;
}

export const getCard = (ctx: CulqiContext, account: CulqiAccount, id: string): SimReply => ({
  status: 200,
  body: ownCard(ctx, account, id).card,
});

export function deleteCard(ctx: CulqiContext, account: CulqiAccount, id: string): SimReply {
  ownCard(ctx, account, id);
  ctx.state.cards.delete(id);
  return { status: 200, body: { id, deleted: true, merchant_message: `Se eliminó la tarjeta con ID ${id} exitosamente.` } };
}

/** What the simulator holds of cards, for tests: ids and their customers, never a number. */
export function cardsOf(ctx: CulqiContext): CulqiCard[] {
  return [...ctx.state.cards.values()].map(({ card }) => copy(card));
}
