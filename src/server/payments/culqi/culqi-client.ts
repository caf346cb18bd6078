import { bearer, field, processorApi, text, type ProcessorAnswer } from '../processor-http';
import type { ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';

// Culqi API v2 as one account calls it (docs/processors/culqi.md): card and Yape tokens on
// secure.culqi.com with the public key, everything else on api.culqi.com with the secret key,
// `Authorization: Bearer <key>` (docs.culqi.com/es/documentacion/pagos-online/cargo-unico/tokens,
// .../cargo-unico/cargos; the official libraries' culqi/utils/urls.py). Order confirmation takes
// the public key too (culqi-python culqi/resources/order.py).

export type CulqiError = {
  type: string;
  code?: string;
  decline_code?: string;
  charge_id?: string;
  merchant_message?: string;
  user_message?: string;
  param?: string;
};

export type CulqiToken = {
  id: string;
  iin?: { bin?: string; card_brand?: string; card_type?: string; issuer?: { name?: string; country_code?: string } };
};

export type CulqiCharge = {
  id: string;
  amount: number;
  amount_refunded?: number;
  /** false while a charge made with `capture: false` is held, not captured yet. */
  capture?: boolean;
  authorization_code?: string | null;
  reference_code?: string | null;
  outcome?: { type?: string; code?: string; decline_code?: string; merchant_message?: string; user_message?: string };
  metadata?: Record<string, unknown>;
};

export type CulqiOrder = {
  id: string;
  amount: number;
  payment_code: string | null;
  order_number?: string;
  state: string;
  expiration_date?: number;
  metadata?: Record<string, unknown>;
  cuotealo?: string;
};

export type CulqiRefund = { id: string; charge_id: string; amount: number; metadata?: Record<string, unknown> };

export type CulqiList<T> = { data: T[] };

type Key = 'public' | 'secret';

export type CulqiClient = {
  post(path: string, body: unknown, options: { key: Key; secure?: boolean; signal?: AbortSignal }): Promise<ProcessorAnswer>;
  get(path: string, query?: Record<string, string>, signal?: AbortSignal): Promise<ProcessorAnswer>;
  delete(path: string, signal?: AbortSignal): Promise<ProcessorAnswer>;
};

export function culqiClient(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): CulqiClient {
  const api = processorApi(`${endpoints.culqiApi}/v2`, endpoints.timeoutMs);
  const secureApi = processorApi(`${endpoints.culqiSecure}/v2`, endpoints.timeoutMs);
  // The headers Culqi's official libraries send with every request (culqi-python
  // culqi/client.py, culqi-java Config): the environment the key belongs to and the API version.
  const library = { 'x-culqi-env': account.secretKey.startsWith('sk_live_') ? 'live' : 'test', 'x-api-version': '2' };
  const secretKey = { ...bearer(account.secretKey), ...library };
  return {
    post: (path, body, { key, secure = false, signal }) =>
      (secure ? secureApi : api)('POST', path, {
        headers: key === 'public' ? { ...bearer(account.publicKey), ...library } : secretKey,
        body,
        signal,
      }),
    get: (path, query, signal) => api('GET', path, { query, headers: secretKey, signal }),
    delete: (path, signal) => api('DELETE', path, { headers: secretKey, signal }),
  };
}

/** Culqi's error object (`object: "error"`), when the answer is one. */
export function culqiError(body: unknown): CulqiError | null {
  if (field(body, 'object') !== 'error') return null;
  const type = text(field(body, 'type'));
  if (type === undefined) return null;
  return body as CulqiError;
}

/** The words a user sees for a Culqi error: its merchant message, else its type. */
export function errorWords(error: CulqiError): string {
  return error.merchant_message ?? error.user_message ?? `Culqi: ${error.type}`;
}

export function isObject<T>(body: unknown, object: string): body is T {
  return field(body, 'object') === object && typeof field(body, 'id') === 'string';
}

/** Our refund as a Culqi refund's metadata names it. */
export function refundOf(body: { metadata?: Record<string, unknown> }): string | null {
  return text(body.metadata?.refund_id) ?? null;
}

/** Our transaction as a Culqi object's metadata names it. */
export function transactionOf(body: { metadata?: Record<string, unknown> }): string | null {
  return text(body.metadata?.transaction_id) ?? null;
}
