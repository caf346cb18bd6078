import { randomInt } from 'node:crypto';
import type { SimReply } from '../simulator-http';
import { badRequest, mpError } from './mercadopago-errors';
import {
  isObject,
  type Account,
  type CustomerRecord,
  type SavedCardRecord,
  type SimulatorState,
  type TokenRecord,
} from './mercadopago-state';
import { cardTokenBody, tokenStatus } from './mercadopago-tokens';
import { hexId, mpDate } from './mercadopago-test-data';

// Customers and their cards ("Gestión de tarjetas y clientes": …/create-customer-and-card,
// …/receive-payments-with-saved-cards; API reference "Customers", "Cards"): a customer per email
// (a second one is refused), a card saved from an unused card token (the token is spent), a
// payment of a saved card a new token made of the card's id and its security code (without it:
// 3031, "security_code_id cant be null", as answered to an integrator: the docs say the code must
// be captured again), and a card deleted. Nothing here holds a card number: a card keeps what its
// token showed (first six, last four, expiry, cardholder), which is what decides a payment here.

const notFound = (what: string) =>
  mpError(404, `${what} not found`, [{ code: 2002, description: `${what} not found`, data: null }]);

function customerBody(customer: CustomerRecord) {
  return {
    id: customer.id,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
    date_registered: mpDate(customer.createdAt),
    date_created: mpDate(customer.createdAt),
    live_mode: false,
    cards: [...customer.cards.values()].map(cardBody),
  };
}

function cardBody(card: SavedCardRecord) {
  return {
    id: card.id,
    customer_id: card.customerId,
    expiration_month: card.expirationMonth,
    expiration_year: card.expirationYear,
    first_six_digits: card.firstSix,
    last_four_digits: card.lastFour,
    payment_method: { id: card.methods[0] ?? null },
    security_code: { length: card.securityCodeLength, card_location: 'back' },
    cardholder: card.cardholder,
    date_created: mpDate(card.createdAt),
    live_mode: false,
  };
}

function ownCustomer(state: SimulatorState, account: Account, id: string): CustomerRecord | null {
  const customer = state.customers.get(id);
  return customer && customer.owner === account.accessToken ? customer : null;
}

export function createCustomer(state: SimulatorState, account: Account, body: unknown): SimReply {
  if (!isObject(body)) return badRequest(1, 'Params Error');
  const email = body.email;
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return badRequest(100, 'the email is invalid');
  const taken = [...state.customers.values()].some(
    (each) => each.owner === account.accessToken && each.email.toLowerCase() === email.toLowerCase(),
  );
  if (taken) return badRequest(101, 'the customer already exist');
  const customer: CustomerRecord = {
    id: `${account.userId}-${hexId(7).slice(0, 14)}`,
    owner: account.accessToken,
    email,
    firstName: typeof body.first_name === 'string' ? body.first_name : null,
    lastName: typeof body.last_name === 'string' ? body.last_name : null,
    createdAt: Date.now(),
    cards: new Map(),
  };
  state.customers.set(customer.id, customer);
  return { status: 201, body: customerBody(customer) };
}

export function searchCustomers(state: SimulatorState, account: Account, query: URLSearchParams): SimReply {
  const email = query.get('email')?.toLowerCase();
  const results = [...state.customers.values()]
    .filter((each) => each.owner === account.accessToken && (!email || each.email.toLowerCase() === email))
    .map(customerBody);
  return { status: 200, body: { paging: { limit: 10, offset: 0, total: results.length }, results } };
}

export function saveCard(state: SimulatorState, account: Account, customerId: string, body: unknown): SimReply {
  const customer = ownCustomer(state, account, customerId);
  if (!customer) return notFound('Customer');
  if (!isObject(body) || typeof body.token !== 'string') return badRequest(4000, "token attribute can't be null");
  const token = state.tokens.get(body.token);
  if (!token || token.owner !== account.accessToken || token.kind !== 'card') return badRequest(2006, 'Card Token not found');
  if (tokenStatus(token) !== 'active') return badRequest(3003, 'Invalid card_token_id');
  token.usedAt = Date.now();
  const card: SavedCardRecord = {
    id: String(randomInt(1_000_000_000, 9_999_999_999)) + String(randomInt(100, 999)),
    customerId,
    owner: account.accessToken,
    methods: token.methods,
    firstSix: token.firstSix,
    lastFour: token.lastFour,
    numberLength: token.numberLength,
    securityCodeLength: token.securityCodeLength,
    expirationMonth: token.expirationMonth,
    expirationYear: token.expirationYear,
    cardholder: token.cardholder,
    createdAt: Date.now(),
  };
  customer.cards.set(card.id, card);
  return { status: 201, body: cardBody(card) };
}

export function deleteCard(state: SimulatorState, account: Account, customerId: string, cardId: string): SimReply {
  const customer = ownCustomer(state, account, customerId);
  const card = customer?.cards.get(cardId);
  if (!customer || !card) return notFound('Card');
  customer.cards.delete(cardId);
  return { status: 200, body: cardBody(card) };
}

/** POST /v1/card_tokens with `card_id`: a token of a saved card, with its security code captured again. */
export function savedCardToken(state: SimulatorState, account: Account, body: Record<string, unknown>): SimReply {
  const card = [...state.customers.values()]
    .filter((each) => each.owner === account.accessToken)
    .map((each) => each.cards.get(String(body.card_id)))
    .find((each) => each !== undefined);
  if (!card) return badRequest(3026, 'invalid card_id for payment_method_id');
  const code = body.security_code;
  if (code === undefined || code === null || code === '') return badRequest(3031, 'security_code_id cant be null');
  if (typeof code !== 'string' || !/^\d+$/.test(code) || code.length !== card.securityCodeLength)
    return badRequest(3032, 'Invalid security_code_length');
  const createdAt = Date.now();
  const token: TokenRecord = {
    ...card,
    id: hexId(),
    kind: 'card',
    phoneNumber: null,
    publicKey: null,
    createdAt,
    dueAt: createdAt + 7 * 86_400_000,
    usedAt: null,
    cardId: card.id,
  };
  state.tokens.set(token.id, token);
  return { status: 201, body: cardTokenBody(token) };
}

/** A payment naming a customer as its payer: the customer must be the account's, and a saved card's token its card. */
export function customerPaymentError(
  state: SimulatorState,
  account: Account,
  payer: { type: string | null; id: string | null },
  token: TokenRecord,
): SimReply | null {
  if (payer.type !== 'customer') return null;
  const customer = payer.id ? ownCustomer(state, account, payer.id) : null;
  if (!customer) return badRequest(2002, 'Customer not found');
  if (token.cardId !== null && !customer.cards.has(token.cardId)) return badRequest(2062, 'Invalid card token');
  return null;
}
