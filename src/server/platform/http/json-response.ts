import { errorBody, type SuccessType } from '@/server/core/domain/envelope';
import type { AppError } from '@/server/core/domain/errors';
import type { ApiReply } from './api-request';

export function jsonReply(body: unknown, status: number, headers: Record<string, string> = {}): ApiReply {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

export function errorReply(error: AppError, successType: SuccessType, requestId: string): ApiReply {
  return jsonReply(errorBody(error, successType), error.status, { ...error.headers, 'x-request-id': requestId });
}
