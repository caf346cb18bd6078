import type { SimReply, SimRequest } from '../simulator-http';
import { alphanumeric } from '../simulator-http';
import {
  booleanField,
  copy,
  currencyField,
  emailField,
  errorReply,
  integerField,
  listPage,
  metadataField,
  newId,
  objectField,
  optionalString,
  parameterError,
  queryDate,
  queryInteger,
  resourceError,
  stringField,
  type Body,
  type CulqiAccount,
  type CulqiCardToken,
  type CulqiCharge,
  type CulqiContext,
  type CulqiOutcome,
  type CulqiRefund,
  type CulqiYapeToken,
  type TokenRecord,
} from './culqi-objects';
import {
  APPROVED_OUTCOME,
  brandOf,
  DECLINE_MESSAGES,
  decideCard,
  installmentsAllowed,
  isReviewEmail,
  issuerOf,
  luhnValid,
  maskCard,
  REFUND_REASONS,
  REVIEW_USER_MESSAGE,
  YAPE_DAILY_LIMIT,
  YAPE_LIMIT_MESSAGES,
  type DeclineMessages,
  type RefundReason,
} from './culqi-test-data';
import { ownCard } from './culqi-cards';

// Tokens, charges and refunds (research/culqi.md 2, 3, 5). A card number lives only in the token
// record, only until the token is used or expires: it decides the charge and is never answered,
// logged or copied into a charge.

/** research 8: the parameter_error Culqi documents says ">= 100"; the draft schema's max is 999900. */
export const CHARGE_AMOUNT = { min: 100, max: 999_900 };

const DIGITS = (min: number, max: number) => new RegExp(`^\\d{${min},${max}}$`);

export function createCardToken(ctx: CulqiContext, account: CulqiAccount, body: Body, request: SimRequest): SimReply {
  const cardNumber = body.card_number;
  if (typeof cardNumber !== 'string' || !DIGITS(13, 19).test(cardNumber) || !luhnValid(cardNumber)) {
    parameterError('card_number', 'Debe tener entre 13 y 19 dígitos y ser un número de tarjeta válido.');
  }
  const brand = brandOf(cardNumber);
  if (!brand) parameterError('card_number', 'Solo se aceptan tarjetas Visa, MasterCard, Amex y Diners.');
  if (typeof body.cvv !== 'string' || !DIGITS(3, 4).test(body.cvv)) parameterError('cvv', 'Debe tener 3 o 4 dígitos.');
  const month = Number(body.expiration_month);
  if (!/^\d{1,2}$/.test(String(body.expiration_month)) || month < 1 || month > 12) {
    parameterError('expiration_month', 'Debe ser un mes entre 1 y 12.');
  }
  const year = Number(body.expiration_year);
  const now = new Date();
  if (!/^\d{4}$/.test(String(body.expiration_year)) || year < now.getFullYear()) {
    parameterError('expiration_year', 'Debe ser un año de 4 dígitos no vencido.');
  }
  if (year === now.getFullYear() && month < now.getMonth() + 1) parameterError('expiration_month', 'La tarjeta está vencida.');
  const email = emailField(body, 'email');
  const metadata = metadataField(body);
  const forwarded = request.headers['x-forwarded-for'];
  const token: CulqiCardToken = {
    object: 'token',
    id: newId('tkn', account),
    type: 'card',
    creation_date: Date.now(),
    email,
    card_number: maskCard(cardNumber),
    last_four: cardNumber.slice(-4),
    active: true,
    iin: {
      object: 'iin',
      bin: cardNumber.slice(0, 6),
      card_brand: brand,
      card_type: 'credito',
      card_category: 'Clásica',
      issuer: issuerOf(cardNumber.slice(0, 6)),
      installments_allowed: installmentsAllowed(brand),
    },
    client: {
      ip: typeof forwarded === 'string' ? (forwarded.split(',')[0] ?? '').trim() : '127.0.0.1',
      ip_country: 'Peru',
      ip_country_code: 'PE',
      browser: 'UNKNOWN',
      device_fingerprint: null,
      device_type: 'Escritorio',
    },
    metadata,
  };
  ctx.state.tokens.set(token.id, {
    owner: account.secretKey,
    token,
    cardNumber,
    used: false,
    expiresAt: Date.now() + ctx.tokenTtlMs,
  });
  return { status: 201, body: token };
}

export function createYapeToken(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  if (typeof body.number_phone !== 'string' || !/^\d{9}$/.test(body.number_phone)) {
    parameterError('number_phone', 'Debe tener 9 dígitos.');
  }
  if (typeof body.otp !== 'string' || !/^\d{6}$/.test(body.otp)) parameterError('otp', 'Debe tener 6 dígitos.');
  const amount = integerField(body, 'amount', { min: 1, max: Number.MAX_SAFE_INTEGER });
  const token: CulqiYapeToken = {
    object: 'token',
    id: newId('ype', account),
    type: 'yape',
    creation_date: Date.now(),
    amount,
    active: true,
    metadata: metadataField(body),
  };
  ctx.state.tokens.set(token.id, {
    owner: account.secretKey,
    token,
    cardNumber: null,
    used: false,
    expiresAt: Date.now() + ctx.tokenTtlMs,
  });
  return { status: 201, body: token };
}

/** The account's usable token, or the 404 Culqi's docs imply for a token that is gone (used or past its 5 minutes). */
function usableToken(ctx: CulqiContext, account: CulqiAccount, sourceId: string): TokenRecord {
  const record = ctx.state.tokens.get(sourceId);
  if (!record || record.owner !== account.secretKey) resourceError(`No se encontró el token con ID ${sourceId}.`);
  if (record.used) resourceError(`El token ${sourceId} ya fue utilizado. Un token solo puede usarse una vez.`);
  if (Date.now() > record.expiresAt) {
    record.cardNumber = null;
    resourceError(`El token ${sourceId} ha expirado. Un token es válido por 5 minutos.`);
  }
  return record;
}

const fee = (amount: number) => Math.round(amount * 0.0399);

export function createCharge(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  const amount = integerField(body, 'amount', CHARGE_AMOUNT);
  const currency = currencyField(body);
  const email = emailField(body, 'email');
  const sourceId = stringField(body, 'source_id', { min: 1, max: 64 });
  if (!/^(tkn|ype|crd)_(test|live)_/.test(sourceId)) parameterError('source_id', "Debe empezar por 'tkn_', 'ype_' o 'crd_'.");
  const capture = booleanField(body, 'capture', true);
  const description = optionalString(body, 'description', { min: 5, max: 80 });
  const requestedInstallments =
    body.installments === undefined || body.installments === null ? 0 : integerField(body, 'installments', { min: 0, max: 48 });
  const metadata = metadataField(body);
  const antifraud = objectField(body, 'antifraud_details');
  const authenticated = objectField(body, 'authentication_3DS') !== null;

  // A saved card is charged as often as asked, its number kept with it (culqi-cards.ts).
  const saved = sourceId.startsWith('crd_') ? ownCard(ctx, account, sourceId) : null;
  const record: TokenRecord = saved
    ? { owner: saved.owner, token: saved.card.source, cardNumber: saved.cardNumber, used: false, expiresAt: Infinity }
    : usableToken(ctx, account, sourceId);
  const { token } = record;
  if (token.type === 'card') {
    const allowed = token.iin.installments_allowed;
    if (requestedInstallments > 1 && !allowed.includes(requestedInstallments)) {
      parameterError('installments', `La tarjeta admite estas cuotas: [${allowed.join(', ')}].`);
    }
  } else {
    if (currency !== 'PEN') parameterError('currency_code', "Yape solo admite 'PEN'.");
    if (amount !== token.amount) parameterError('amount', `Debe ser igual al monto del token Yape (${token.amount}).`);
    if (requestedInstallments > 1) parameterError('installments', 'Yape no admite cuotas.');
  }

  let decline: { code: string; messages: DeclineMessages } | null = null;
  if (token.type === 'yape') {
    if (amount > YAPE_DAILY_LIMIT) decline = { code: 'insufficient_funds', messages: YAPE_LIMIT_MESSAGES };
  } else {
    const decision = decideCard(record.cardNumber ?? '');
    if (decision.kind === 'three_ds' && !authenticated && isReviewEmail(email)) {
      // Culqi asks for 3-D Secure: nothing is charged or kept, and the token stays usable for the retry.
      return { status: 200, body: { action_code: 'REVIEW', user_message: REVIEW_USER_MESSAGE } };
    }
    const declineCode =
      decision.kind === 'decline'
        ? decision.declineCode
        : decision.kind === 'three_ds' && authenticated
          ? decision.failure
          : null;
    if (declineCode) decline = { code: declineCode, messages: DECLINE_MESSAGES[declineCode] };
  }

  // A decided charge uses the token up, declined or not, and the card number goes with it.
  if (!saved) {
    record.used = true;
    record.cardNumber = null;
  }
  const installments = Math.max(1, requestedInstallments);
  const outcome: CulqiOutcome = decline
    ? { type: 'venta_denegada', code: 'card_declined', decline_code: decline.code, ...decline.messages }
    : { ...APPROVED_OUTCOME };
  const variableFee = decline ? null : fee(amount);
  const taxes = variableFee === null ? null : Math.round(variableFee * 0.18);
  const charge: CulqiCharge = {
    duplicated: false,
    object: 'charge',
    id: newId('chr', account),
    creation_date: Date.now(),
    amount,
    amount_refunded: 0,
    current_amount: decline ? 0 : amount,
    installments,
    installments_amount: Math.round(amount / installments),
    currency_code: currency,
    email,
    description,
    source: saved ? copy(saved.card) : copy(token),
    outcome,
    fraud_score: decline?.code === 'fraudulent' ? 95 : 62,
    dispute: false,
    capture,
    reference_code: decline ? null : alphanumeric(10),
    authorization_code: decline ? null : alphanumeric(6),
    metadata,
    total_fee: variableFee === null || taxes === null ? null : variableFee + taxes,
    fee_details:
      variableFee === null
        ? null
        : { fixed_fee: {}, variable_fee: { currency_code: currency, commision: 0.0399, total: variableFee } },
    total_fee_taxes: taxes,
    transfer_amount: variableFee === null || taxes === null ? null : amount - variableFee - taxes,
    paid: false,
    statement_descriptor: 'CULQI*',
    transfer_id: null,
    capture_date: null,
    ...(antifraud ? { antifraud_details: antifraud } : {}),
  };
  ctx.state.charges.set(charge.id, { owner: account.secretKey, value: charge });
  if (!decline) return { status: 201, body: charge };
  return errorReply('card_error', decline.messages.merchant_message, {
    charge_id: charge.id,
    code: 'card_declined',
    decline_code: decline.code,
    user_message: decline.messages.user_message,
  });
}

function ownCharge(ctx: CulqiContext, account: CulqiAccount, id: string): CulqiCharge {
  const record = ctx.state.charges.get(id);
  if (!record || record.owner !== account.secretKey) resourceError(`No se encontró el cargo con ID ${id}.`);
  return record.value;
}

/** GET and capture answer the charge with `operations` (recorded as [] in every capture). */
const withOperations = (charge: CulqiCharge) => ({ ...charge, operations: [] });

export const getCharge = (ctx: CulqiContext, account: CulqiAccount, id: string): SimReply => ({
  status: 200,
  body: withOperations(ownCharge(ctx, account, id)),
});

const CAPTURE_WINDOW_MS = 4 * 24 * 3600 * 1000;

export function captureCharge(ctx: CulqiContext, account: CulqiAccount, id: string): SimReply {
  const charge = ownCharge(ctx, account, id);
  if (charge.outcome.type !== 'venta_exitosa') resourceError(`El cargo ${id} fue denegado y no puede capturarse.`);
  if (charge.capture) resourceError(`El cargo ${id} ya fue capturado.`);
  if (Date.now() - charge.creation_date > CAPTURE_WINDOW_MS)
    resourceError(`El cargo ${id} expiró: solo puede capturarse hasta 4 días después de creado.`);
  charge.capture = true;
  return { status: 201, body: withOperations(charge) };
}

export function listCharges(ctx: CulqiContext, account: CulqiAccount, query: URLSearchParams): SimReply {
  const exact = (name: string) => queryInteger(query, name);
  const [amount, minAmount, maxAmount] = [exact('amount'), exact('min_amount'), exact('max_amount')];
  const [installments, minInstallments, maxInstallments] = [
    exact('installments'),
    exact('min_installments'),
    exact('max_installments'),
  ];
  const from = queryDate(query, 'creation_date_from', 'from');
  const to = queryDate(query, 'creation_date_to', 'to');
  const currency = query.get('currency_code');
  const email = query.get('email')?.toLowerCase();
  const outside = (value: number, exactly?: number, min?: number, max?: number) =>
    (exactly !== undefined && value !== exactly) || (min !== undefined && value < min) || (max !== undefined && value > max);
  const items = [...ctx.state.charges.values()]
    .filter(({ owner }) => owner === account.secretKey)
    .map(({ value }) => value)
    .filter(
      (charge) =>
        !outside(charge.amount, amount, minAmount, maxAmount) &&
        !outside(charge.installments, installments, minInstallments, maxInstallments) &&
        !outside(charge.creation_date, undefined, from, to) &&
        (!currency || charge.currency_code === currency) &&
        (!email || charge.email.toLowerCase() === email),
    )
    .reverse();
  return listPage(items, query, `${ctx.origin}/v2/charges`);
}

export function createRefund(ctx: CulqiContext, account: CulqiAccount, body: Body): SimReply {
  const amount = integerField(body, 'amount', { min: 1, max: Number.MAX_SAFE_INTEGER });
  const chargeId = stringField(body, 'charge_id', { min: 1, max: 64 });
  const reason = body.reason;
  if (typeof reason !== 'string' || !(reason in REFUND_REASONS)) {
    parameterError('reason', "Debe ser 'duplicado', 'fraudulento' o 'solicitud_comprador'.");
  }
  const metadata = metadataField(body);
  const charge = ownCharge(ctx, account, chargeId);
  if (charge.outcome.type !== 'venta_exitosa') parameterError('amount', 'El cargo fue denegado: no hay monto que devolver.');
  if (amount > charge.current_amount) {
    parameterError('amount', `El valor debe ser menor o igual que el monto por devolver del cargo ('${charge.current_amount}').`);
  }
  charge.amount_refunded += amount;
  charge.current_amount -= amount;
  const refund: CulqiRefund = {
    object: 'refund',
    id: newId('ref', account),
    charge_id: charge.id,
    creation_date: Date.now(),
    amount,
    reason: REFUND_REASONS[reason as RefundReason],
    metadata,
  };
  ctx.state.refunds.set(refund.id, { owner: account.secretKey, value: refund });
  return { status: 201, body: refund };
}

/** GET /v2/refunds: the account's refunds, newest first, by creation date (apidocs "Listar devoluciones"). */
export function listRefunds(ctx: CulqiContext, account: CulqiAccount, query: URLSearchParams): SimReply {
  const from = queryDate(query, 'creation_date_from', 'from');
  const to = queryDate(query, 'creation_date_to', 'to');
  const items = [...ctx.state.refunds.values()]
    .filter(({ owner }) => owner === account.secretKey)
    .map(({ value }) => value)
    .filter((refund) => (from === undefined || refund.creation_date >= from) && (to === undefined || refund.creation_date <= to))
    .reverse();
  return listPage(items, query, `${ctx.origin}/v2/refunds`);
}

export function getRefund(ctx: CulqiContext, account: CulqiAccount, id: string): SimReply {
  const record = ctx.state.refunds.get(id);
  if (!record || record.owner !== account.secretKey) resourceError(`No se encontró la devolución con ID ${id}.`);
  return { status: 200, body: record.value };
}

/** Forgets the card numbers of expired tokens (Culqi discards card data after 5 minutes). */
export function sweepTokens(ctx: CulqiContext): void {
  const now = Date.now();
  for (const [id, record] of ctx.state.tokens) {
    if (now > record.expiresAt) {
      record.cardNumber = null;
      // Kept a while so a late charge still gets "expired" rather than "not found".
      if (now > record.expiresAt + 3600_000) ctx.state.tokens.delete(id);
    }
  }
}
