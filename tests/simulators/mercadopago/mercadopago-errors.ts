import { randomUUID } from 'node:crypto';
import type { SimReply } from '../simulator-http';

// Mercado Pago's error body (research §6): {message, error, status, cause[{code, description, data}]}.

export type MercadoPagoCause = { code: number | string; description: string; data: string | null };
export type MercadoPagoError = { message: string; error: string; status: number; cause: MercadoPagoCause[] };

const ERROR_NAMES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  429: 'too_many_requests',
  500: 'internal_server_error',
};

export function mpError(status: number, message: string, causes: MercadoPagoCause[] = [], error?: string): SimReply {
  const body: MercadoPagoError = { message, error: error ?? ERROR_NAMES[status] ?? 'error', status, cause: causes };
  return { status, body };
}

/** A 400 with one documented cause; the message repeats the cause, as Mercado Pago's do. */
export function badRequest(code: number | string, description: string, data: string | null = null): SimReply {
  return mpError(400, description, [{ code, description, data }]);
}

/** The `data` of a 404 cause: "the error date … and a Request ID" (seen as `03-09-2021T12:13:10UTC;<uuid>`). */
function errorData(): string {
  const iso = new Date().toISOString();
  const [date = '', time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  return `${day}-${month}-${year}T${time.slice(0, 8)}UTC;${randomUUID()}`;
}

export function paymentNotFound(): SimReply {
  return mpError(404, 'Payment not found', [{ code: 2000, description: 'Payment not found', data: errorData() }]);
}

export function refundNotFound(): SimReply {
  return mpError(404, 'Refund not found', [{ code: 2032, description: 'Refund not found', data: errorData() }]);
}

export function routeNotFound(): SimReply {
  return mpError(404, 'resource not found', []);
}

/** An unknown access token: the body Mercado Pago answers, with no cause. */
export function invalidToken(): SimReply {
  return mpError(401, 'invalid access token', []);
}

/** No credential at all: the refunds reference's 401 cause 5. */
export function missingToken(): SimReply {
  const description = 'Must provide your access_token to proceed';
  return mpError(401, description, [{ code: 5, description, data: null }]);
}

export function publicKeyNotFound(): SimReply {
  return badRequest(1001, 'public_key not found');
}

export function missingIdempotencyKey(): SimReply {
  return badRequest(4292, "Header X-Idempotency-Key can't be null");
}

export function idempotencyConflict(): SimReply {
  const description = 'The X-Idempotency-Key has already been used with a different request within the last 24 hours';
  return mpError(
    409,
    description,
    [{ code: 'idempotency_key_already_used', description, data: null }],
    'idempotency_key_already_used',
  );
}

export function faultReply(mode: 'errors' | 'rate_limited'): SimReply {
  if (mode === 'rate_limited') {
    return { ...mpError(429, 'Too many requests', []), headers: { 'retry-after': '1' } };
  }
  return mpError(500, 'internal_error', []);
}
