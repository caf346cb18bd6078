import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ERROR_KINDS, type ErrorKind } from '@/server/core/domain/errors';

// Every kind's tRPC key is one tRPC knows (checked here, where tRPC's types are in reach).
ERROR_KINDS satisfies Record<ErrorKind, { trpc: TRPC_ERROR_CODE_KEY }>;

export function trpcCodeOf(kind: ErrorKind): number {
  return TRPC_ERROR_CODES_BY_KEY[ERROR_KINDS[kind].trpc];
}
