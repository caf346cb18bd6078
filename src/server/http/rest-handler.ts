import { AppError } from '@/server/core/domain/errors';
import { db } from '@/server/platform/db/client';
import { logError } from '@/server/platform/log';
import type { ApiContext } from '@/server/api/context';
import { toAppError } from '@/server/api/errors/to-app-error';
import type { ApiRequest, ApiReply, HeaderReader } from '@/server/platform/http/api-request';
import { errorReply } from '@/server/platform/http/json-response';
import { methodNotAllowed } from '@/server/platform/http/method-not-allowed';
import { callOpenApiProcedure } from './openapi-bridge';
import { parseJsonBody, readBodyText } from '@/server/platform/http/read-json-body';
import { requestIdOf } from '@/server/platform/http/request-id';
import type { RestPath } from '@/server/api/rest-routes';
import { READ_RETRY_DELAYS_MS } from '@/server/platform/db/transient-faults';

// The REST bridge for integrators: checks that come before any procedure (path, method, body
// size, content type, JSON), then trpc-to-openapi, then the envelope for every failure. The
// route table (api-routes.ts) matched the path and hands its documented methods over.
export async function handleRestRequest(sent: ApiRequest, restPath: RestPath | null): Promise<ApiReply> {
  let request = sent;
  const requestId = requestIdOf(request.headers);
  if (!restPath) return errorReply(new AppError('NOT_FOUND', 'no such path'), 'boolean', requestId);
  const route = restPath.get(request.method);
  if (!route) return methodNotAllowed([...restPath.keys()])(request);
  const { successType } = route;
  let body: unknown;
  let bodyIsNotObject = false;
  try {
    if (request.method === 'POST') {
      const text = await readBodyText(request);
      if (route.bodyOptional && text === '') {
        // No body where none is needed: read as `{}`, for the bridge too (it wants JSON's type).
        body = {};
        request = { ...request, headers: asJson(request.headers) };
      } else {
        body = parseJsonBody(text, request.headers.get('content-type'));
      }
      // Refused after the token and scope checks (docs/DESIGN.md 3 order), by the procedure.
      bodyIsNotObject = body === null || typeof body !== 'object' || Array.isArray(body);
    }
  } catch (error) {
    return errorReply(toAppError(error), successType, requestId);
  }
  // A read that meets a transient database fault runs again (it changes nothing); a write is
  // answered 503 and the client retries it with its Idempotency-Key (docs/DECISIONS.md).
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await runProcedure(request, requestId, body, bodyIsNotObject);
    if ('reply' in outcome) return outcome.reply;
    const failure = toAppError(outcome.error);
    const retry = request.method === 'GET' && failure.kind === 'UNAVAILABLE' ? READ_RETRY_DELAYS_MS[attempt] : undefined;
    if (retry !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, retry));
      continue;
    }
    if (failure.kind === 'INTERNAL' || failure.kind === 'UNAVAILABLE') {
      logError('rest request failed', outcome.error, { requestId, kind: failure.kind });
    }
    return errorReply(failure, successType, requestId);
  }
}

/** One run of the procedure: its 2xx reply, or what it failed with. */
async function runProcedure(
  request: ApiRequest,
  requestId: string,
  body: unknown,
  bodyIsNotObject: boolean,
): Promise<{ reply: ApiReply } | { error: unknown }> {
  try {
    const context: ApiContext = { headers: request.headers, requestId, prisma: await db(), bodyIsNotObject };
    const reply = await callOpenApiProcedure(request, context, body);
    if (reply.status >= 200 && reply.status < 300) {
      reply.headers['x-request-id'] = requestId;
      reply.headers['cache-control'] = 'no-store';
      return { reply };
    }
    return { error: context.failure ?? new AppError(reply.status === 404 ? 'NOT_FOUND' : 'VALIDATION') };
  } catch (error) {
    return { error };
  }
}

/** The request's headers, its Content-Type JSON's. */
function asJson(headers: HeaderReader): HeaderReader {
  return { get: (name) => (name.toLowerCase() === 'content-type' ? 'application/json' : headers.get(name)) };
}
