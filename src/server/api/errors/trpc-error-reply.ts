import type { AppError } from '@/server/core/domain/errors';
import { jsonReply } from '@/server/platform/http/json-response';
import type { ApiReply } from '@/server/platform/http/api-request';
import { trpcCodeOf } from './trpc-error-code';

/** The error of a failed tRPC call as its clients read it: the console reads `data.kind` and `data.errors`. */
export function trpcErrorShape(error: AppError) {
  return { message: error.message, code: trpcCodeOf(error.kind), data: { kind: error.kind, errors: error.errors } };
}

/**
 * An AppError answered to a tRPC request before tRPC saw it (admission's 503): in tRPC's own
 * envelope, one per call of a batch, so a tRPC client reads the refusal instead of failing to
 * parse the API's envelope.
 */
export function trpcErrorReply(error: AppError, requestId: string, path: string, query: string): ApiReply {
  const calls = path.replace(/^\/api\/trpc\/?/, '').split(',').length;
  const one = { error: trpcErrorShape(error) };
  const body = new URLSearchParams(query).get('batch') === '1' ? Array.from({ length: calls }, () => one) : one;
  return jsonReply(body, error.status, { ...error.headers, 'x-request-id': requestId });
}
