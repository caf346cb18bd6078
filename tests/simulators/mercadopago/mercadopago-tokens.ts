import type { SimReply } from '../simulator-http';
import { badRequest, mpError } from './mercadopago-errors';
import { isObject, type Account, type SimulatorState, type TokenRecord } from './mercadopago-state';
import { brandOf, cardLengthsOf, hexId, luhnValid, methodsForCard, mpDate, securityCodeLengthOf } from './mercadopago-test-data';

// Card tokens (POST /v1/card_tokens, research §2.1) and Yape tokens (POST
// /platforms/pci/yape/v1/payment, research §3.1). The card number and the security code live
// only in this function's arguments: the record keeps what Mercado Pago's answer shows.

const DAY_MS = 86_400_000;
/** "Card tokens are single-use and expire in 7 days" (research §2.1). */
const CARD_TOKEN_DAYS = 7;

/** A number or a string of digits as an integer, else null (expiry fields arrive both ways). */
function integerOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,4}$/.test(value)) return Number(value);
  return null;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export function tokenStatus(token: TokenRecord, now = Date.now()): 'active' | 'used' | 'expired' {
  if (token.usedAt !== null) return 'used';
  return now > token.dueAt ? 'expired' : 'active';
}

/** The card token answer of the PCI page's example, with the SDK's `require_esc`. */
export function cardTokenBody(token: TokenRecord): Record<string, unknown> {
  return {
    id: token.id,
    public_key: token.publicKey,
    card_id: token.cardId,
    luhn_validation: true,
    status: tokenStatus(token),
    date_used: token.usedAt === null ? null : mpDate(token.usedAt),
    card_number_length: token.numberLength,
    date_created: mpDate(token.createdAt),
    first_six_digits: token.firstSix,
    last_four_digits: token.lastFour,
    security_code_length: token.securityCodeLength,
    expiration_month: token.expirationMonth,
    expiration_year: token.expirationYear,
    date_last_updated: mpDate(token.usedAt ?? token.createdAt),
    date_due: mpDate(token.dueAt),
    live_mode: false,
    require_esc: false,
    cardholder: token.cardholder,
  };
}

export function createCardToken(state: SimulatorState, account: Account, viaPublicKey: boolean, body: unknown): SimReply {
  if (!isObject(body)) return badRequest(1, 'Params Error');
  const cardNumber = body.card_number;
  if (typeof cardNumber !== 'string' || !/^\d+$/.test(cardNumber)) return badRequest(3016, 'Invalid parameter card_number');
  const brand = brandOf(cardNumber);
  if (!cardLengthsOf(brand).includes(cardNumber.length)) return badRequest(3015, 'Invalid parameter card_number_length');
  if (!luhnValid(cardNumber)) return badRequest(3016, 'Invalid parameter card_number');

  if (body.expiration_month === undefined || body.expiration_month === null || body.expiration_month === '') {
    return badRequest(3018, 'The parameter expiration_month can not be null or empty');
  }
  const month = integerOf(body.expiration_month);
  if (month === null || month < 1 || month > 12) return badRequest(3029, 'Invalid card expiration month');
  if (body.expiration_year === undefined || body.expiration_year === null || body.expiration_year === '') {
    return badRequest(3019, 'The parameter expiration_year can not be null or empty');
  }
  const year = integerOf(body.expiration_year);
  if (year === null || year < 1000) return badRequest(3030, 'Invalid card expiration year');
  const now = new Date();
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return badRequest(7523, 'Invalid expiration date');

  const securityCode = body.security_code;
  if (securityCode === undefined || securityCode === null || securityCode === '') {
    return badRequest(3013, 'The parameter security_code is a required field can not be null or empty');
  }
  if (
    typeof securityCode !== 'string' ||
    !/^\d+$/.test(securityCode) ||
    !securityCodeLengthOf(brand).includes(securityCode.length)
  ) {
    return badRequest(3032, 'Invalid security_code_length');
  }

  const cardholder = isObject(body.cardholder) ? body.cardholder : {};
  const name = textOf(cardholder.name);
  if (name === null) return badRequest(3020, 'The parameter cardholder.name can not be null or empty');
  let identification: TokenRecord['cardholder']['identification'] = { type: null, number: null };
  if (cardholder.identification !== undefined && cardholder.identification !== null) {
    const document = isObject(cardholder.identification) ? cardholder.identification : {};
    const number = textOf(document.number);
    const type = textOf(document.type);
    if (number === null) return badRequest(3021, 'The parameter cardholder.document.number can not be null or empty');
    if (type === null) return badRequest(3022, 'The parameter cardholder.document.type can not be null or empty');
    identification = { type, number };
  }

  const createdAt = Date.now();
  const token: TokenRecord = {
    id: hexId(),
    owner: account.accessToken,
    kind: 'card',
    methods: methodsForCard(cardNumber),
    firstSix: cardNumber.slice(0, 6),
    lastFour: cardNumber.slice(-4),
    numberLength: cardNumber.length,
    securityCodeLength: securityCode.length,
    expirationMonth: month,
    expirationYear: year,
    cardholder: { name, identification },
    phoneNumber: null,
    publicKey: viaPublicKey ? account.publicKey : null,
    createdAt,
    dueAt: createdAt + CARD_TOKEN_DAYS * DAY_MS,
    usedAt: null,
    cardId: null,
  };
  state.tokens.set(token.id, token);
  return { status: 201, body: cardTokenBody(token) };
}

/** GET /v1/card_tokens/{id} (the SDK's CardToken.get): the account's own tokens only. */
export function getCardToken(state: SimulatorState, account: Account, id: string): SimReply {
  const token = state.tokens.get(id);
  if (!token || token.owner !== account.accessToken || token.kind !== 'card') {
    return mpError(404, 'Card Token not found', [{ code: 2006, description: 'Card Token not found', data: null }]);
  }
  return { status: 200, body: cardTokenBody(token) };
}

// Yape's token endpoint documents neither its status nor its errors: 200 as the brief of the
// connector expects, and the standard error body with cause 1 (Params Error) naming the field.
export function createYapeToken(state: SimulatorState, account: Account, body: unknown): SimReply {
  if (!isObject(body)) return badRequest(1, 'Params Error');
  const phone = typeof body.phoneNumber === 'number' ? String(body.phoneNumber) : body.phoneNumber;
  if (typeof phone !== 'string' || !/^\d{9,15}$/.test(phone))
    return badRequest(1, 'phoneNumber must be a phone number of 9 to 15 digits');
  const otp = typeof body.otp === 'number' ? String(body.otp) : body.otp;
  if (typeof otp !== 'string' || !/^\d{6}$/.test(otp)) return badRequest(1, 'otp must be the 6 digits code of the Yape app');
  if (textOf(body.requestId) === null) return badRequest(1, 'requestId is required');

  const createdAt = Date.now();
  const now = new Date(createdAt);
  const token: TokenRecord = {
    id: hexId(),
    owner: account.accessToken,
    kind: 'yape',
    methods: ['yape'],
    firstSix: '111111',
    lastFour: phone.slice(-4),
    numberLength: phone.length,
    securityCodeLength: 6,
    expirationMonth: now.getUTCMonth() + 1,
    expirationYear: now.getUTCFullYear(),
    cardholder: { name: 'yape', identification: { type: null, number: null } },
    phoneNumber: phone,
    publicKey: account.publicKey,
    createdAt,
    dueAt: createdAt + CARD_TOKEN_DAYS * DAY_MS,
    usedAt: null,
    cardId: null,
  };
  state.tokens.set(token.id, token);
  return {
    status: 200,
    body: {
      live_mode: false,
      luhn_validation: null,
      require_esc: null,
      cloned: false,
      cardholder: { identification: { number: null, type: null, subtype: null }, name: 'yape' },
      security_code_id: null,
      security_code_length: 6,
      card_number_length: phone.length,
      expiration_month: token.expirationMonth,
      expiration_year: token.expirationYear,
      card_present_id: null,
      card_id: null,
      client_id: account.userId,
      present: null,
      id: token.id,
      card_number_id: null,
      creation_date: null,
      due_date: null,
      last_modified_date: null,
      product_id: null,
      trust_level: 'unknown',
      public_key: account.publicKey,
      site_id: 'MPE',
      status: 'active',
      transaction_id: null,
      trunc_card_number: null,
      used_date: null,
      bin: '111111',
      version: 0,
      client_header: null,
      first_six_digits: '111111',
      last_four_digits: token.lastFour,
    },
  };
}
