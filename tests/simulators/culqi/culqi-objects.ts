import { randomInt } from 'node:crypto';
import { alphanumeric, type SimReply } from '../simulator-http';
import type { CardBrand, CulqiIssuer } from './culqi-test-data';

// The simulator's state and Culqi's object shapes (research/culqi.md 2-7), the error bodies of
// research 4.1-4.2, the field checks every POST shares and the list paging of research 3.4.

export type CulqiEnvironment = 'test' | 'live';
export type CulqiWebhook = { url: string; username?: string; password?: string };
export type CulqiAccount = {
  publicKey: string;
  secretKey: string;
  environment: CulqiEnvironment;
  webhook: CulqiWebhook | null;
};

export type MetadataValue = string | number | boolean | null;
export type Metadata = Record<string, MetadataValue>;

export type CulqiIin = {
  object: 'iin';
  bin: string;
  card_brand: CardBrand;
  card_type: 'credito';
  card_category: string;
  issuer: CulqiIssuer;
  installments_allowed: number[];
};

export type CulqiClient = {
  ip: string;
  ip_country: string;
  ip_country_code: string;
  browser: string;
  device_fingerprint: null;
  device_type: string;
};

export type CulqiCardToken = {
  object: 'token';
  id: string;
  type: 'card';
  creation_date: number;
  email: string;
  card_number: string;
  last_four: string;
  active: boolean;
  iin: CulqiIin;
  client: CulqiClient;
  metadata: Metadata;
};

/** Culqi publishes only `object: "token"` and the `ype_` prefix of a Yape token; the rest is ours. */
export type CulqiYapeToken = {
  object: 'token';
  id: string;
  type: 'yape';
  creation_date: number;
  amount: number;
  active: boolean;
  metadata: Metadata;
};

export type CulqiToken = CulqiCardToken | CulqiYapeToken;

export type CulqiOutcome = {
  type: 'venta_exitosa' | 'venta_denegada';
  code: string;
  decline_code?: string;
  merchant_message: string;
  user_message: string;
};

export type CulqiFeeDetails = {
  fixed_fee: Record<string, never>;
  variable_fee: { currency_code: string; commision: number; total: number };
};

export type CulqiCharge = {
  duplicated: false;
  object: 'charge';
  id: string;
  creation_date: number;
  amount: number;
  amount_refunded: number;
  current_amount: number;
  installments: number;
  installments_amount: number;
  currency_code: string;
  email: string;
  description: string | null;
  source: CulqiToken | CulqiCard;
  outcome: CulqiOutcome;
  fraud_score: number;
  dispute: false;
  capture: boolean;
  reference_code: string | null;
  authorization_code: string | null;
  metadata: Metadata;
  total_fee: number | null;
  fee_details: CulqiFeeDetails | null;
  total_fee_taxes: number | null;
  transfer_amount: number | null;
  paid: false;
  statement_descriptor: string;
  transfer_id: null;
  capture_date: null;
  antifraud_details?: Record<string, unknown>;
};

export type CulqiRefund = {
  object: 'refund';
  id: string;
  charge_id: string;
  creation_date: number;
  amount: number;
  reason: string;
  metadata: Metadata;
};

/** A customer (recorded: culqi-python tests/cassettes/CardTest.test_card_create__successful__visa.yaml). */
export type CulqiCustomer = {
  object: 'customer';
  id: string;
  creation_date: number;
  email: string;
  antifraud_details: {
    first_name: string;
    last_name: string;
    address: string;
    address_city: string;
    country_code: string;
    phone: string;
    object: 'client';
  };
  metadata: Metadata;
};

/** A saved card: its customer and the token it was made of (the same recording). */
export type CulqiCard = {
  object: 'card';
  id: string;
  active: boolean;
  creation_date: number;
  customer_id: string;
  source: CulqiCardToken;
  metadata: Metadata;
};

/** A card as Culqi keeps it: its number stays with the card, to charge it later, until deleted. */
export type CardRecord = { owner: string; card: CulqiCard; cardNumber: string };

export type CulqiOrderState = 'created' | 'pending' | 'paid' | 'expired' | 'deleted';

export type CulqiOrder = {
  object: 'order';
  id: string;
  amount: number;
  payment_code: string | null;
  currency_code: string;
  description: string;
  order_number: string;
  state: CulqiOrderState;
  total_fee: null;
  net_amount: null;
  fee_details: null;
  creation_date: number;
  expiration_date: number;
  updated_at: null;
  paid_at: null;
  available_on: null;
  metadata: Metadata;
  cuotealo?: string;
};

export type CulqiEvent = {
  object: 'event';
  id: string;
  type: 'order.status.changed';
  creation_date: number;
  /** The order as a JSON string, as Culqi's webhooks carry it (research 7.2). */
  data: string;
};

export type CulqiDelivery = { event_id: string; type: string; url: string; status: number; attempt: number; at: number };

/** A token as kept: the card number only until the token is used or expires (never logged). */
export type TokenRecord = { owner: string; token: CulqiToken; cardNumber: string | null; used: boolean; expiresAt: number };
export type Owned<T> = { owner: string; value: T };

export type CulqiState = {
  accounts: Map<string, CulqiAccount>;
  /** public key → secret key */
  publicKeys: Map<string, string>;
  tokens: Map<string, TokenRecord>;
  customers: Map<string, Owned<CulqiCustomer>>;
  cards: Map<string, CardRecord>;
  charges: Map<string, Owned<CulqiCharge>>;
  refunds: Map<string, Owned<CulqiRefund>>;
  orders: Map<string, Owned<CulqiOrder>>;
  events: Map<string, Owned<CulqiEvent>>;
  deliveries: CulqiDelivery[];
  /** Pending webhook retries, cancelled on reset and close. */
  timers: Set<NodeJS.Timeout>;
};

export type CulqiContext = {
  state: CulqiState;
  /** The simulator's origin, known once it listens (for Cuotéalo links and list paging). */
  origin: string;
  tokenTtlMs: number;
  retryDelayMs: number;
};

export function emptyState(): CulqiState {
  return {
    accounts: new Map(),
    publicKeys: new Map(),
    tokens: new Map(),
    customers: new Map(),
    cards: new Map(),
    charges: new Map(),
    refunds: new Map(),
    orders: new Map(),
    events: new Map(),
    deliveries: [],
    timers: new Set(),
  };
}

export const newId = (prefix: string, account: CulqiAccount): string => `${prefix}_${account.environment}_${alphanumeric(16)}`;

export const digits = (length: number): string => Array.from({ length }, () => String(randomInt(10))).join('');

/** Plain copies for the control API, so a test cannot change the stored objects. */
export const copy = <T>(value: T): T => structuredClone(value);

// ---- errors (research 4.1, 4.2) ----------------------------------------------------------------

type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'card_error'
  | 'resource_error'
  | 'parameter_error'
  | 'limit_api_error'
  | 'api_error';

const STATUS: Record<ErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  card_error: 402,
  resource_error: 404,
  parameter_error: 422,
  limit_api_error: 429,
  api_error: 500,
};

export function errorReply(type: ErrorType, merchantMessage: string, extra: Record<string, string> = {}): SimReply {
  return { status: STATUS[type], body: { object: 'error', type, ...extra, merchant_message: merchantMessage } };
}

/** Thrown by a handler to answer an error; the router turns it into the reply. */
export class CulqiReplyError extends Error {
  constructor(readonly reply: SimReply) {
    super('culqi error reply');
  }
}

export function parameterError(param: string, detail: string): never {
  throw new CulqiReplyError(
    errorReply('parameter_error', `El campo '${param}' es inválido. ${detail}`, {
      code: `invalid_${param.replace(/\W/g, '_')}`,
      param,
    }),
  );
}

export function resourceError(message: string): never {
  throw new CulqiReplyError(errorReply('resource_error', message));
}

export const INVALID_JSON =
  'Petición invalida, verifica que el Content-Type sea application/json (formato JSON) y el cuerpo un JSON válido.';

// ---- field checks --------------------------------------------------------------------------------

export type Body = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An integer, or a string of digits (Culqi's docs send amounts both ways). */
export function integerField(body: Body, name: string, range: { min: number; max: number }, param = name): number {
  const raw = body[name];
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) parameterError(param, 'Debe ser un número entero.');
  if (value < range.min) parameterError(param, `El valor debe ser mayor o igual que '${range.min}'.`);
  if (value > range.max) parameterError(param, `El valor debe ser menor o igual que '${range.max}'.`);
  return value;
}

export function stringField(body: Body, name: string, range: { min: number; max: number }, param = name): string {
  const value = body[name];
  if (typeof value !== 'string') parameterError(param, 'Es obligatorio y debe ser texto.');
  if (value.length < range.min || value.length > range.max) {
    parameterError(param, `Debe tener entre ${range.min} y ${range.max} caracteres.`);
  }
  return value;
}

export function optionalString(body: Body, name: string, range: { min: number; max: number }): string | null {
  return body[name] === undefined || body[name] === null ? null : stringField(body, name, range);
}

export function emailField(body: Body, name: string, param = name): string {
  const value = stringField(body, name, { min: 5, max: 50 }, param);
  if (!EMAIL.test(value)) parameterError(param, 'No es un correo electrónico válido.');
  return value;
}

export function currencyField(body: Body): 'PEN' | 'USD' {
  const value = body.currency_code;
  if (value !== 'PEN' && value !== 'USD') parameterError('currency_code', "Debe ser 'PEN' o 'USD'.");
  return value;
}

export function objectField(body: Body, name: string): Body | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) parameterError(name, 'Debe ser un objeto.');
  return value as Body;
}

/** At most 20 keys of up to 30 characters, values of up to 200 (research 8). */
export function metadataField(body: Body): Metadata {
  const value = objectField(body, 'metadata') ?? {};
  const entries = Object.entries(value);
  if (entries.length > 20) parameterError('metadata', 'Admite como máximo 20 pares llave-valor.');
  for (const [key, item] of entries) {
    if (key.length === 0 || key.length > 30) parameterError('metadata', 'Cada llave debe tener entre 1 y 30 caracteres.');
    if (item !== null && typeof item === 'object') parameterError('metadata', 'Cada valor debe ser texto, número o booleano.');
    if (String(item).length > 200) parameterError('metadata', 'Cada valor debe tener como máximo 200 caracteres.');
  }
  return value as Metadata;
}

export function booleanField(body: Body, name: string, fallback: boolean): boolean {
  const value = body[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') parameterError(name, 'Debe ser true o false.');
  return value;
}

// ---- lists (research 3.4) -----------------------------------------------------------------------

export function queryInteger(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) parameterError(name, 'Debe ser un número entero.');
  return Number(raw);
}

/** creation_date filters: a value under 1e12 is taken as seconds (the docs' examples), else milliseconds. */
export function queryDate(query: URLSearchParams, name: string, edge: 'from' | 'to'): number | undefined {
  const value = queryInteger(query, name);
  if (value === undefined) return undefined;
  if (value >= 1e12) return value;
  return edge === 'from' ? value * 1000 : value * 1000 + 999;
}

/**
 * One page of `items` (newest first): `after` an id gives the items after it (older), `before`
 * the ones before it (newer, the closest page to it); `before` wins when both are given.
 */
export function listPage<T extends { id: string }>(items: T[], query: URLSearchParams, listUrl: string): SimReply {
  const limit = queryInteger(query, 'limit') ?? 50;
  if (limit < 1 || limit > 100) parameterError('limit', "El valor debe estar entre '1' y '100'.");
  const before = query.get('before');
  const after = query.get('after');
  let start = 0;
  let end = items.length;
  if (before) {
    end = items.findIndex((item) => item.id === before);
    if (end < 0) parameterError('before', 'No corresponde a ningún objeto de la lista.');
    start = Math.max(0, end - limit);
  } else if (after) {
    const index = items.findIndex((item) => item.id === after);
    if (index < 0) parameterError('after', 'No corresponde a ningún objeto de la lista.');
    start = index + 1;
  }
  end = Math.min(end, start + limit);
  const data = items.slice(start, end);
  const first = data[0]?.id ?? null;
  const last = data[data.length - 1]?.id ?? null;
  const link = (cursor: 'before' | 'after', id: string) => {
    const params = new URLSearchParams(query);
    params.delete('before');
    params.delete('after');
    params.set('limit', String(limit));
    params.set(cursor, id);
    return `${listUrl}?${params.toString()}`;
  };
  return {
    status: 200,
    body: {
      data,
      paging: {
        previous: first !== null && start > 0 ? link('before', first) : null,
        next: last !== null && end < items.length ? link('after', last) : null,
        cursors: { before: first, after: last },
        remaining_items: before ? start : items.length - end,
      },
    },
  };
}
