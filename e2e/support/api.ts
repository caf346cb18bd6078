import type { APIRequestContext, APIResponse } from '@playwright/test';
import { API_VERSION, ORIGIN, type TestMerchant } from './service';

export const ALL_SCOPES = 'create:token post:charges get:charges delete:charges';

export async function tokenFor(
  request: APIRequestContext,
  merchant: TestMerchant,
  scope = ALL_SCOPES,
  origin = ORIGIN,
): Promise<string> {
  const response = await request.post(`${origin}/oauth/token`, {
    headers: { 'ALG-API-VERSION': API_VERSION },
    data: {
      action: 'authorize',
      grant_type: 'client_credentials',
      audience: `${origin}/api/`,
      client_id: merchant.clientId,
      client_secret: merchant.clientSecret,
      scope,
    },
  });
  if (response.status() !== 200) throw new Error(`token: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

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

export async function charge(
  request: APIRequestContext,
  token: string,
  body: object,
  extraHeaders: Record<string, string> = {},
  origin = ORIGIN,
): Promise<APIResponse> {
  return request.post(`${origin}/api/charges`, { headers: headers(token, extraHeaders), data: body });
}

export type Envelope = {
  success: string | boolean;
  meta: { status: { code: string; message_ilgn: { locale: string; value: string }[] } };
  errors: { field?: string; code: string; message: string }[];
};

/** Asserts nothing; returns status and parsed body for exact expectations. */
export async function read<T = Record<string, unknown>>(response: APIResponse): Promise<{ status: number; body: T }> {
  return { status: response.status(), body: (await response.json()) as T };
}

export type RefundFields = { canal: string; reason: string; description: string };

/** A TOTAL refund of an operation's settled transaction through POST /refund; its refund object. */
export async function requestRefund(
  request: APIRequestContext,
  token: string,
  merchantCode: string,
  merchantOperationNumber: string,
  amount: string,
  fields: RefundFields,
): Promise<{ refund_id: string; state: string; lifecycle: { state: string; date: { utc_time: string } }[] }> {
  const response = await request.post(`${ORIGIN}/api/refund`, {
    headers: headers(token),
    data: {
      merchant_code: merchantCode,
      operations: [
        {
          type: 'TOTAL',
          merchant_operation_number: merchantOperationNumber,
          transaction_id: null,
          refund_amount: amount,
          additional_fields: fields,
        },
      ],
    },
  });
  if (response.status() !== 200) throw new Error(`refund: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { operations: [Awaited<ReturnType<typeof requestRefund>>] }).operations[0];
}

/** The payer pays on the hosted page of a redirect payment (a form post, as the page's button sends). */
export async function payOnPayerPage(request: APIRequestContext, continueUrl: string): Promise<void> {
  const response = await request.post(`${continueUrl}/pay`, { form: {}, maxRedirects: 0 });
  if (response.status() !== 303) throw new Error(`pay: ${response.status()}`);
}
