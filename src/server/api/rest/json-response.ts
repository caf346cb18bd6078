import { errorBody } from '@/server/domain/envelope';
import type { SuccessType } from '../openapi/procedure-meta';
import type { AppError } from '@/server/domain/errors';

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorResponse(error: AppError, successType: SuccessType, requestId: string): Response {
  return jsonResponse(errorBody(error, successType), error.status, { ...error.headers, 'x-request-id': requestId });
}
