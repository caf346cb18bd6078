import { customerPaymentError } from './mercadopago-customers';
import type { SimReply } from '../simulator-http';
import { badRequest, paymentNotFound } from './mercadopago-errors';
import {
  isObject,
  type Account,
  type Identification,
  type JsonObject,
  type MercadoPagoPayer,
  type MercadoPagoPayment,
  type PaymentRecord,
  type SimulatorState,
} from './mercadopago-state';
import {
  PAYMENT_METHOD_IDS,
  approval,
  authorizationCode,
  cardOutcome,
  mpDate,
  paymentTypeOf,
  supportsDeferredCapture,
  yapeOutcome,
  type Outcome,
  type PaymentMethodId,
} from './mercadopago-test-data';
import { tokenStatus } from './mercadopago-tokens';

// POST /v1/payments, GET /v1/payments/{id} and PUT /v1/payments/{id} (research §4, §7.2, §7.3).
// The validation order follows the reference's cause list; the first failing rule answers.

export type PaymentChange = { reply: SimReply; changed?: PaymentRecord };

// The body fields of the reference and of the SDK's PaymentCreateRequest (plus 3DS's
// three_d_secure_mode): anything else is the documented cause 8. payment_type_id is not one of
// them, which integrators report as exactly that error.
const CREATE_FIELDS = new Set([
  'additional_info',
  'application_fee',
  'binary_mode',
  'callback_url',
  'campaign_id',
  'capture',
  'coupon_amount',
  'coupon_code',
  'date_of_expiration',
  'description',
  'differential_pricing_id',
  'external_reference',
  'forward_data',
  'installments',
  'issuer_id',
  'merchant_account_id',
  'metadata',
  'net_amount',
  'notification_url',
  'order',
  'payer',
  'payment_method',
  'payment_method_id',
  'payment_method_option_id',
  'point_of_interaction',
  'processing_mode',
  'sponsor_id',
  'statement_descriptor',
  'taxes',
  'three_d_secure_mode',
  'token',
  'transaction_amount',
  'transaction_details',
]);

const UPDATE_FIELDS = new Set(['status', 'capture', 'transaction_amount']);

/** The payer's e-mail and document are "only returned when the status is approved, refunded or charged_back". */
const PAYER_VISIBLE = new Set(['approved', 'refunded', 'charged_back']);

export function renderPayment(record: PaymentRecord): MercadoPagoPayment {
  const payment = structuredClone(record.payment);
  if (!PAYER_VISIBLE.has(payment.status)) {
    payment.payer.email = null;
    payment.payer.identification = { type: null, number: null };
  }
  return payment;
}

export function unknownFields(body: JsonObject, allowed: ReadonlySet<string>): SimReply | null {
  const wrong = Object.keys(body).filter((key) => !allowed.has(key));
  if (wrong.length === 0) return null;
  return badRequest(8, `The name of the following parameters is wrong : [${wrong.join(', ')}]`);
}

function optionalText(body: JsonObject, field: string): string | null | SimReply {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return badRequest(1, `Params Error: ${field} must be a string`);
  return value;
}

function decimals(amount: number): number {
  const text = String(amount);
  if (text.includes('e')) return 20;
  return text.split('.')[1]?.length ?? 0;
}

/** A valid transaction_amount, or the cause the reference gives for it. */
export function amountError(value: unknown, nullCode: number, numericCode: number): SimReply | null {
  if (value === undefined || value === null) return badRequest(nullCode, "transaction_amount attribute can't be null");
  if (typeof value !== 'number') return badRequest(numericCode, 'transaction_amount attribute must be numeric');
  // PEN has céntimos: more than two decimals is a caller's rounding bug, refused as invalid.
  if (!Number.isFinite(value) || value <= 0 || decimals(value) > 2) return badRequest(4037, 'Invalid transaction_amount');
  return null;
}

function payerOf(value: unknown): MercadoPagoPayer | SimReply {
  if (!isObject(value)) return badRequest(4006, 'payer attribute is malformed');
  const email = value.email;
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    return badRequest(4050, 'payer.email must be a valid email');
  if (email.length > 254) return badRequest(4051, 'payer.email must be shorter than 254 characters');
  let identification: Identification = { type: null, number: null };
  if (value.identification !== undefined && value.identification !== null) {
    if (!isObject(value.identification)) return badRequest(4006, 'payer attribute is malformed');
    const { type, number } = value.identification;
    if ((type !== undefined && typeof type !== 'string') || (number !== undefined && typeof number !== 'string')) {
      return badRequest(4006, 'payer attribute is malformed');
    }
    identification = { type: type ?? null, number: number ?? null };
  }
  const text = (field: string): string | null => {
    const entry = value[field];
    return typeof entry === 'string' ? entry : null;
  };
  return {
    type: text('type'),
    id: text('id'),
    email,
    identification,
    first_name: text('first_name'),
    last_name: text('last_name'),
    entity_type: text('entity_type'),
  };
}

/** A host Mercado Pago cannot reach: localhost, or a loopback, private, link-local or unspecified address. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
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
  // IPv6: unspecified, loopback, unique local (fc00::/7), link-local (fe80::/10), or an IPv4-mapped one.
  if (host === '::' || host === '::1') return true;
  if (/^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)) return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = parseInt(mapped[1]!, 16);
    const low = parseInt(mapped[2]!, 16);
    return isLocalHost(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return false;
}

/**
 * `notification_url` as Mercado Pago takes it: an https URL of a host it can reach. Mercado
 * Pago answers an invalid URL with cause 4020 "notificaction_url attribute must be url valid"
 * (sic; payments reference, research §4.1, §6); it documents no other cause for an http:// or
 * localhost URL, so those get 4020 too ("O Mercado Pago só aceita URLs com https … não colocar
 * IP ou localhost", Mercado Pago's FAQ; "The use of the protocol (https) in the URL is
 * mandatory", preferences reference, devsite-docs PR #2497). 4021 at 500 characters.
 */
export function notificationUrlError(value: unknown): SimReply | null {
  if (value === undefined || value === null) return null;
  const invalid = badRequest(4020, 'notificaction_url attribute must be url valid');
  if (typeof value !== 'string') return invalid;
  if (value.length >= 500) return badRequest(4021, 'notification_url attribute must be shorter than 500 characters');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return invalid;
  }
  return url.protocol === 'https:' && !isLocalHost(url.hostname) ? null : invalid;
}

/** POST /v1/payments after the idempotency check: validates, decides, stores. */
export function createPayment(state: SimulatorState, account: Account, body: unknown): PaymentChange {
  const fail = (reply: SimReply): PaymentChange => ({ reply });
  if (!isObject(body)) return fail(badRequest(1, 'Params Error'));
  const wrong = unknownFields(body, CREATE_FIELDS);
  if (wrong) return fail(wrong);

  const amountProblem = amountError(body.transaction_amount, 4002, 4003);
  if (amountProblem) return fail(amountProblem);
  const amount = body.transaction_amount as number;
  if (body.installments === undefined || body.installments === null)
    return fail(badRequest(4004, "installments attribute can't be null"));
  if (typeof body.installments !== 'number') return fail(badRequest(4005, 'installments attribute must be numeric'));
  const installments = body.installments;
  if (!Number.isInteger(installments) || installments < 1) return fail(badRequest(4033, 'Invalid installments'));
  if (typeof body.token !== 'string' || body.token === '') return fail(badRequest(4000, "token attribute can't be null"));
  const payer = payerOf(body.payer);
  if ('status' in payer) return fail(payer);

  const token = state.tokens.get(body.token);
  if (!token || token.owner !== account.accessToken) return fail(badRequest(2006, 'Card Token not found'));
  // "make sure the card_token_id … has not been used before" is 3003's advice in the reference.
  if (tokenStatus(token) !== 'active') return fail(badRequest(3003, 'Invalid card_token_id'));
  const customerProblem = customerPaymentError(state, account, payer, token);
  if (customerProblem) return fail(customerProblem);

  let method: PaymentMethodId;
  if (body.payment_method_id === undefined || body.payment_method_id === null) {
    const inferred = token.methods[0];
    if (!inferred) return fail(badRequest(2131, 'Cannot infer Payment Method'));
    method = inferred;
  } else {
    const given = body.payment_method_id;
    const known = PAYMENT_METHOD_IDS.find((id) => id === given);
    if (!known || !token.methods.includes(known)) return fail(badRequest(3028, 'Invalid payment_method_id'));
    method = known;
  }
  const type = paymentTypeOf(method);
  // Debit and Yape take one installment (research §3.2, §9); Peru's credit maximum is not
  // documented, so credit takes any count (the INST cardholder tests a refused one).
  if (type === 'debit_card' && installments !== 1) return fail(badRequest(4033, 'Invalid installments'));

  const urlProblem = notificationUrlError(body.notification_url);
  if (urlProblem) return fail(urlProblem);
  if (body.metadata !== undefined && body.metadata !== null && !isObject(body.metadata)) {
    return fail(badRequest(4022, 'metadata attribute must be a valid JSON'));
  }
  if (body.additional_info !== undefined && body.additional_info !== null && !isObject(body.additional_info)) {
    return fail(badRequest(1, 'Params Error: additional_info must be an object'));
  }
  if (body.binary_mode !== undefined && typeof body.binary_mode !== 'boolean') {
    return fail(badRequest(1, 'Params Error: binary_mode must be a boolean'));
  }
  if (body.capture !== undefined && typeof body.capture !== 'boolean')
    return fail(badRequest(2078, 'Capture attribute must be boolean'));
  const capture = body.capture !== false;
  if (!capture && !supportsDeferredCapture(method)) return fail(badRequest(2077, 'Deferred capture not supported'));
  const threeDs = body.three_d_secure_mode ?? 'not_supported';
  if (threeDs !== 'not_supported' && threeDs !== 'optional') {
    return fail(badRequest(1, 'Params Error: three_d_secure_mode must be optional or not_supported'));
  }
  let expiration: string | null = null;
  if (body.date_of_expiration !== undefined && body.date_of_expiration !== null) {
    const value = body.date_of_expiration;
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(value) || Number.isNaN(Date.parse(value))) {
      return fail(
        badRequest(23, "The following parameters must be valid date and format (yyyy-MM-dd'T'HH:mm:ssz) date_of_expiration"),
      );
    }
    expiration = value;
  }
  const texts: Record<string, string | null> = {};
  for (const field of ['description', 'external_reference', 'statement_descriptor', 'callback_url']) {
    const value = optionalText(body, field);
    if (value !== null && typeof value !== 'string') return fail(value);
    texts[field] = value;
  }

  const binaryMode = body.binary_mode === true;
  const outcome: Outcome =
    token.kind === 'yape' ? yapeOutcome(token.phoneNumber ?? '') : cardOutcome(token.cardholder.name, { binaryMode, capture });
  const now = Date.now();
  token.usedAt = now;
  const issuer =
    method === 'yape'
      ? '12759'
      : typeof body.issuer_id === 'string' || typeof body.issuer_id === 'number'
        ? String(body.issuer_id)
        : null;
  const authorized = outcome.status === 'approved' || outcome.status === 'authorized';
  const payment: MercadoPagoPayment = {
    id: state.nextPaymentId(),
    date_created: mpDate(now),
    date_approved: outcome.status === 'approved' ? mpDate(now) : null,
    date_last_updated: mpDate(now),
    date_of_expiration: expiration,
    money_release_date: null,
    money_release_status: null,
    operation_type: 'regular_payment',
    issuer_id: issuer,
    payment_method_id: method,
    payment_type_id: type,
    payment_method: { id: method, type, issuer_id: issuer },
    status: outcome.status,
    status_detail: outcome.statusDetail,
    currency_id: 'PEN',
    description: texts.description ?? null,
    live_mode: false,
    sponsor_id: null,
    authorization_code: authorized ? authorizationCode() : null,
    collector_id: account.userId,
    payer,
    metadata: isObject(body.metadata) ? body.metadata : {},
    additional_info: isObject(body.additional_info) ? body.additional_info : null,
    external_reference: texts.external_reference ?? null,
    transaction_amount: amount,
    transaction_amount_refunded: 0,
    coupon_amount: 0,
    installments,
    transaction_details: {
      net_received_amount: outcome.status === 'approved' ? amount : 0,
      total_paid_amount: amount,
      overpaid_amount: 0,
      external_resource_url: null,
      installment_amount: Math.round((amount / installments) * 100) / 100,
      financial_institution: null,
      payment_method_reference_id: null,
    },
    fee_details: [],
    captured: outcome.status !== 'authorized' && capture,
    binary_mode: binaryMode,
    call_for_authorize_id: null,
    statement_descriptor: texts.statement_descriptor ?? null,
    three_d_secure_mode: threeDs,
    three_ds_info: null,
    card: {
      id: null,
      first_six_digits: token.firstSix,
      last_four_digits: token.lastFour,
      expiration_month: token.expirationMonth,
      expiration_year: token.expirationYear,
      date_created: mpDate(now),
      date_last_updated: mpDate(now),
      cardholder: structuredClone(token.cardholder),
    },
    notification_url: typeof body.notification_url === 'string' ? body.notification_url : null,
    callback_url: texts.callback_url ?? null,
    refunds: [],
    processing_mode: 'aggregator',
    merchant_account_id: null,
    acquirer_reconciliation: [],
  };
  const record: PaymentRecord = {
    owner: account.accessToken,
    payment,
    createdAt: now,
    approvedAt: outcome.status === 'approved' ? now : null,
  };
  state.payments.set(payment.id, record);
  return { reply: { status: 201, body: renderPayment(record) }, changed: record };
}

/** The account's payment by path id; another account's is as unknown as a missing one. */
export function findPayment(state: SimulatorState, account: Account, rawId: string): PaymentRecord | null {
  if (!/^\d{1,19}$/.test(rawId)) return null;
  const record = state.payments.get(Number(rawId));
  return record && record.owner === account.accessToken ? record : null;
}

export function getPayment(state: SimulatorState, account: Account, rawId: string): SimReply {
  const record = findPayment(state, account, rawId);
  return record ? { status: 200, body: renderPayment(record) } : paymentNotFound();
}

const CANCELLABLE = new Set(['pending', 'in_process', 'authorized']);

function invalidState(): SimReply {
  return badRequest(2018, 'The action requested is not valid for the current payment state');
}

/** PUT /v1/payments/{id}: cancel (`status: cancelled`) or capture (`capture: true`). */
export function updatePayment(state: SimulatorState, account: Account, rawId: string, body: unknown): PaymentChange {
  const record = findPayment(state, account, rawId);
  if (!record) return { reply: paymentNotFound() };
  if (!isObject(body)) return { reply: badRequest(1, 'Params Error') };
  const wrong = unknownFields(body, UPDATE_FIELDS);
  if (wrong) return { reply: wrong };
  const payment = record.payment;
  const now = Date.now();

  if (body.status !== undefined) {
    if (body.capture !== undefined || body.transaction_amount !== undefined) return { reply: badRequest(1, 'Params Error') };
    if (body.status !== 'cancelled' || !CANCELLABLE.has(payment.status)) return { reply: invalidState() };
    payment.status = 'cancelled';
    payment.status_detail = 'by_collector';
    payment.captured = false;
    payment.date_last_updated = mpDate(now);
    return { reply: { status: 200, body: renderPayment(record) }, changed: record };
  }

  if (body.capture === undefined) return { reply: badRequest(1, 'Params Error') };
  if (typeof body.capture !== 'boolean') return { reply: badRequest(2078, 'Capture attribute must be boolean') };
  if (!body.capture) return { reply: badRequest(2079, 'Invalid value for capture attribute') };
  if (payment.status !== 'authorized') return { reply: invalidState() };
  let amount = payment.transaction_amount;
  if (body.transaction_amount !== undefined) {
    const problem = amountError(body.transaction_amount, 4023, 4024);
    if (problem) return { reply: problem };
    // A partial capture takes less than the reserve; more is not a capture of it.
    if ((body.transaction_amount as number) > payment.transaction_amount)
      return { reply: badRequest(4037, 'Invalid transaction_amount') };
    amount = body.transaction_amount as number;
  }
  const outcome = approval(true);
  payment.status = outcome.status;
  payment.status_detail = outcome.statusDetail;
  payment.captured = true;
  payment.transaction_amount = amount;
  payment.transaction_details.total_paid_amount = amount;
  payment.transaction_details.net_received_amount = amount;
  payment.transaction_details.installment_amount = Math.round((amount / payment.installments) * 100) / 100;
  payment.date_approved = mpDate(now);
  payment.date_last_updated = mpDate(now);
  record.approvedAt = now;
  return { reply: { status: 200, body: renderPayment(record) }, changed: record };
}
