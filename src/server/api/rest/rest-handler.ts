import { AppError } from '@/server/domain/errors';
import { db } from '@/server/db/client';
import { logError } from '@/server/log';
import type { ApiContext } from '../context';
import { toAppError } from '../errors/to-app-error';
import type { ApiRequest, ApiReply } from './api-request';
import { errorReply } from './json-response';
import { methodNotAllowed } from './method-not-allowed';
import { callOpenApiProcedure } from './openapi-bridge';
import { parseJsonBody, readBodyText } from './read-json-body';
import { requestIdOf } from './request-id';
import { matchRestRoute } from './rest-routes';

// The REST bridge for integrators: checks that come before any procedure (path, method, body
// size, content type, JSON), then trpc-to-openapi, then the envelope for every failure.
export async function handleRestRequest(request: ApiRequest): Promise<ApiReply> {
  const requestId = requestIdOf(request.headers);
  const route = matchRestRoute(request.method, request.path.slice('/api'.length));
  if (route.kind === 'not_found') return errorReply(new AppError('NOT_FOUND', 'no such path'), 'boolean', requestId);
  if (route.kind === 'wrong_method') return methodNotAllowed(route.allow)(request);
  const context: ApiContext = { headers: request.headers, requestId, prisma: await db() };
  try {
    let body: unknown;
    if (request.method === 'POST') {
      body = parseJsonBody(await readBodyText(request), request.headers.get('content-type'));
      // Refused after the token and scope checks (docs/DESIGN.md 3 order), by the procedure.
      context.bodyIsNotObject = body === null || typeof body !== 'object' || Array.isArray(body);
    }
    const reply = await callOpenApiProcedure(request, context, body);
    if (reply.status >= 200 && reply.status < 300) {
      reply.headers['x-request-id'] = requestId;
      reply.headers['cache-control'] = 'no-store';
      return reply;
    }
    const failure = toAppError(context.failure ?? new AppError(reply.status === 404 ? 'NOT_FOUND' : 'VALIDATION'));
    if (failure.kind === 'INTERNAL') logError('rest request failed', context.failure, { requestId });
    return errorReply(failure, route.successType, requestId);
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind === 'INTERNAL') logError('rest request failed', error, { requestId });
    return errorReply(failure, route.successType, requestId);
  }
}
