import { bearer, field, processorApi, text, type ProcessorAnswer } from '../processor-http';
import type { ProcessorAccountConfig, ProcessorEndpoints } from '../processor-account';

// Mercado Pago's API as one account calls it (docs/processors/mercadopago.md): api.mercadopago.com
// with `Authorization: Bearer <access token>`; every POST and PUT carries an `X-Idempotency-Key`
// (required on payments and refunds: mercadopago.com.pe/developers/es/reference/payments/_payments/post;
// the official SDK sets it the same way, github.com/mercadopago/sdk-nodejs src/utils/restClient),
// so a request sent again after a lost answer is answered with the first one's result.

export type MercadoPagoPayment = {
  id: number | string;
  status: string;
  status_detail?: string;
  external_reference?: string | null;
  authorization_code?: string | null;
  transaction_amount?: number;
  transaction_amount_refunded?: number;
  /** false while a payment made with `capture: false` is an authorization not captured yet. */
  captured?: boolean;
};

export type MercadoPagoRefund = { id: number | string; status?: string };

export type MercadoPagoClient = {
  post(path: string, body: unknown, idempotencyKey: string, signal?: AbortSignal): Promise<ProcessorAnswer>;
  /** PUT /v1/payments/{id}: a capture or a cancellation, under a key of its own. */
  put(path: string, body: unknown, idempotencyKey: string): Promise<ProcessorAnswer>;
  get(path: string, query?: Record<string, string>, signal?: AbortSignal): Promise<ProcessorAnswer>;
  delete(path: string): Promise<ProcessorAnswer>;
  /** The Yape token: public key in the query, no access token (…/checkout-api/integration-configuration/yape). */
  yapeToken(body: unknown, signal?: AbortSignal): Promise<ProcessorAnswer>;
};

export function mercadoPagoClient(account: ProcessorAccountConfig, endpoints: ProcessorEndpoints): MercadoPagoClient {
  const api = processorApi(endpoints.mercadoPagoApi, endpoints.timeoutMs);
  const accessToken = bearer(account.secretKey);
  return {
    post: (path, body, idempotencyKey, signal) =>
      api('POST', path, { headers: { ...accessToken, 'x-idempotency-key': idempotencyKey }, body, signal }),
    put: (path, body, idempotencyKey) =>
      api('PUT', path, { headers: { ...accessToken, 'x-idempotency-key': idempotencyKey }, body }),
    get: (path, query, signal) => api('GET', path, { query, headers: accessToken, signal }),
    delete: (path) => api('DELETE', path, { headers: accessToken }),
    yapeToken: (body, signal) =>
      api('POST', '/platforms/pci/yape/v1/payment', { query: { public_key: account.publicKey }, body, signal }),
  };
}

/** A payment object in an answer, when the answer is one. */
export function paymentOf(body: unknown): MercadoPagoPayment | null {
  const id = field(body, 'id');
  return (typeof id === 'number' || typeof id === 'string') && typeof field(body, 'status') === 'string'
    ? (body as MercadoPagoPayment)
    : null;
}

/** The words of Mercado Pago's error body (`{message, error, status, cause: [{code, description}]}`). */
export function errorOf(body: unknown, status: number): { code: string; description: string } {
  const cause = field(body, 'cause');
  const first: unknown = Array.isArray(cause) ? cause[0] : undefined;
  const code = text(field(first, 'code')) ?? text(field(body, 'error')) ?? String(status);
  const description = text(field(first, 'description')) ?? text(field(body, 'message')) ?? `Mercado Pago respondió ${status}`;
  return { code, description };
}
