import type { APIRequestContext, APIResponse } from '@playwright/test';
import type { CancelReply, ChargeReply, QueryReply, RefundList, RefundObject, RefundReply, Reply } from './api-types';
import { API_VERSION, ORIGIN } from './service';

// The suites' one client of the merchant API (docs/interface.md 4): request bodies, the calls,
// and their answers typed by the service's response schemas (./api-types). A call answers the
// raw response (`charge`, `refund`: for header and envelope checks) or a Reply, read whole.

export const ALL_SCOPES =
  'create:token post:charges get:charges delete:charges get:events post:customers get:customers delete:customers';

/** A merchant's or a facilitator's credential (its code is not part of a token request). */
export type Credential = { clientId: string; clientSecret: string };

export function headers(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { Authorization: `Bearer ${token}`, 'ALG-API-VERSION': API_VERSION, ...extra };
}

const person = {
  first_name: 'Ana',
  last_name: 'Quispe',
  email: 'ana.quispe@example.pe',
  phone: { country_code: '+51', subscriber: '987654321' },
  location: { line_1: 'Av. Larco 123', line_2: 'Dpto 4', city: 'Lima', state: 'Lima', country: 'PE' },
};

export const METHOD_DETAILS = {
  CARD: {
    pan: '4111111111111111',
    expiry_date: '1230',
    security_code: '123',
    card_holder: {
      first_name: 'Ana',
      last_name: 'Quispe',
      email: 'ana.quispe@example.pe',
      phone: { prefix: '+51', number: '987654321' },
    },
    installments: { plan: 'NONE', number: '1' },
  },
  YAPE: {
    callback_url: 'https://merchant.example/callbacks',
    phone: { country_code: '+51', subscriber: '987654321' },
    otp: '123456',
  },
  BANK_TRANSFER: { redirect_url: 'https://merchant.example/return', callback_url: 'https://merchant.example/callbacks' },
  CUOTEALO: { redirect_url: 'https://merchant.example/return', callback_url: 'https://merchant.example/callbacks' },
  PAGOEFECTIVO: { redirect_url: 'https://merchant.example/return', callback_url: 'https://merchant.example/callbacks' },
  QR: { callback_url: 'https://merchant.example/callbacks' },
} as const;

export type MethodName = keyof typeof METHOD_DETAILS;
export const METHODS = Object.keys(METHOD_DETAILS) as MethodName[];

export function chargeBody(
  merchantCode: string,
  merchantOperationNumber: string,
  method: MethodName,
  options: { amount?: string; currency?: string; details?: Record<string, unknown>; customer?: Record<string, unknown> } = {},
) {
  return {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: merchantCode,
    merchant_operation_number: merchantOperationNumber,
    payment_method: { method_name: method, method_details: { ...METHOD_DETAILS[method], ...options.details } },
    payment_details: {
      amount: options.amount ?? '15000',
      currency: options.currency ?? '604',
      billing: person,
      shipping: person,
      customer: { ...person, ...options.customer },
      product_details: [{ sku: 'SKU-1', name: 'Polo', quantity: '1', unit_amount: '15000' }],
    },
  };
}

export function operationNumber(prefix = 'op'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export type RefundFields = { canal: string; reason: string; description: string };

export type RefundItem = {
  type: string;
  merchant_operation_number: string;
  transaction_id: string | null;
  refund_amount: string;
  additional_fields: RefundFields;
};

export function refundItem(number: string, transactionId: string | null, amount = '15000', overrides: Partial<RefundItem> = {}) {
  return {
    type: 'TOTAL',
    merchant_operation_number: number,
    transaction_id: transactionId,
    refund_amount: amount,
    additional_fields: { canal: 'web', reason: 'customer request', description: `refund of ${number}` },
    ...overrides,
  } satisfies RefundItem;
}

export function refundBody(merchantCode: string, items: RefundItem[]) {
  return { merchant_code: merchantCode, operations: items };
}

/** Asserts nothing; returns status and parsed body for exact expectations. */
export async function read<T = Record<string, unknown>>(response: APIResponse): Promise<{ status: number; body: T }> {
  return { status: response.status(), body: (await response.json()) as T };
}

/** Asserts nothing but that the body is JSON (the error says what came instead). */
export async function reply<T>(response: APIResponse): Promise<Reply<T>> {
  const text = await response.text();
  try {
    return { status: response.status(), body: JSON.parse(text) as T, text };
  } catch {
    throw new Error(`not JSON (HTTP ${response.status()}): ${text.slice(0, 500)}`);
  }
}

/**
 * The merchant API of the service at `origin` (the API suite's by default; the asynchronous
 * and browser suites' at ASYNC_ORIGIN). Arrow functions: callers take them out of the object.
 */
export function apiClient(origin: string) {
  const api = `${origin}/api`;
  const path = (...segments: string[]) => segments.map(encodeURIComponent).join('/');

  /** A token for the credential with `scope`; throws unless the service issues one. */
  const tokenFor = async (request: APIRequestContext, credential: Credential, scope = ALL_SCOPES): Promise<string> => {
    const response = await request.post(`${origin}/oauth/token`, {
      headers: { 'ALG-API-VERSION': API_VERSION },
      data: {
        action: 'authorize',
        grant_type: 'client_credentials',
        audience: `${api}/`,
        client_id: credential.clientId,
        client_secret: credential.clientSecret,
        scope,
      },
    });
    if (response.status() !== 200) throw new Error(`token: ${response.status()} ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  const charge = (request: APIRequestContext, token: string, body: object, extraHeaders: Record<string, string> = {}) =>
    request.post(`${api}/charges`, { headers: headers(token, extraHeaders), data: body });

  const refund = (request: APIRequestContext, token: string, body: unknown, extraHeaders: Record<string, string> = {}) =>
    request.post(`${api}/refund`, { headers: headers(token, extraHeaders), data: body as object });

  const postRefund = async <T = RefundReply>(request: APIRequestContext, token: string, body: unknown): Promise<Reply<T>> =>
    reply<T>(await refund(request, token, body));

  return {
    tokenFor,
    charge,
    refund,
    postRefund,

    postCharge: async <T = ChargeReply>(request: APIRequestContext, token: string, body: object): Promise<Reply<T>> =>
      reply<T>(await charge(request, token, body)),

    /** GET /charges/{merchant_code}/{merchant_operation_number}/{transaction_id}. */
    getTransaction: async <T = QueryReply>(
      request: APIRequestContext,
      token: string,
      merchantCode: string,
      number: string,
      transactionId: string,
    ): Promise<Reply<T>> =>
      reply<T>(await request.get(`${api}/charges/${path(merchantCode, number, transactionId)}`, { headers: headers(token) })),

    /** DELETE /charges/{merchant_code}/{merchant_operation_number}. */
    cancel: async <T = CancelReply>(
      request: APIRequestContext,
      token: string,
      merchantCode: string,
      number: string,
    ): Promise<Reply<T>> =>
      reply<T>(await request.delete(`${api}/charges/${path(merchantCode, number)}`, { headers: headers(token) })),

    /** GET /refund/{merchant_code}/{merchant_operation_number}. */
    listRefunds: async <T = RefundList>(
      request: APIRequestContext,
      token: string,
      merchantCode: string,
      number: string,
    ): Promise<Reply<T>> =>
      reply<T>(await request.get(`${api}/refund/${path(merchantCode, number)}`, { headers: headers(token) })),

    /** A TOTAL refund of an operation's settled transaction that must be registered; its refund object. */
    requestRefund: async (
      request: APIRequestContext,
      token: string,
      merchantCode: string,
      number: string,
      amount: string,
      fields: RefundFields,
    ): Promise<RefundObject> => {
      const { status, body, text } = await postRefund(
        request,
        token,
        refundBody(merchantCode, [refundItem(number, null, amount, { additional_fields: fields })]),
      );
      if (status !== 200) throw new Error(`refund: ${status} ${text}`);
      return body.operations[0]!;
    },
  };
}

/** The API suite's service (the console suite's too). */
export const { tokenFor, charge, refund, postCharge, getTransaction, cancel, postRefund, listRefunds, requestRefund } =
  apiClient(ORIGIN);

/** The payer pays on the hosted page of a redirect payment (a form post, as the page's button sends). */
export async function payOnPayerPage(request: APIRequestContext, continueUrl: string): Promise<void> {
  const response = await request.post(`${continueUrl}/pay`, { form: {}, maxRedirects: 0 });
  if (response.status() !== 303) throw new Error(`pay: ${response.status()}`);
}
