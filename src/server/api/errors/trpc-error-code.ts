import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { ErrorKind } from '@/server/core/domain/errors';

// The tRPC error code of each kind of AppError, so that the JSON-RPC `code` of a tRPC error says
// what its HTTP status says. A procedure's AppError reaches the error formatter wrapped in an
// INTERNAL_SERVER_ERROR, whose code (-32603) a tRPC client reads as a server fault.
export const TRPC_KEY_OF_KIND: Record<ErrorKind, TRPC_ERROR_CODE_KEY> = {
  VALIDATION: 'BAD_REQUEST',
  API_VERSION: 'BAD_REQUEST',
  MALFORMED_BODY: 'PARSE_ERROR',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  INVALID_CLIENT: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_SUPPORTED',
  CONFLICT: 'CONFLICT',
  STATE_CONFLICT: 'CONFLICT',
  METHOD_RULE: 'UNPROCESSABLE_CONTENT',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export function trpcCodeOf(kind: ErrorKind): number {
  return TRPC_ERROR_CODES_BY_KEY[TRPC_KEY_OF_KIND[kind]];
}
