import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { AppError } from '@/server/domain/errors';
import { db } from '@/server/db/client';
import { appRouter } from './routers/app-router';
import type { ApiContext } from './context';
import { errorResponse } from './json-response';
import { methodNotAllowed } from './method-not-allowed';
import { parseJsonBody, readBodyText } from './read-json-body';
import { requestIdOf } from './request-id';
import { matchRestRoute } from './rest-routes';
import { toAppError } from './to-app-error';
import { logError } from '@/server/log';

// The REST bridge for integrators: checks that come before any procedure (path, method, body
// size, content type, JSON), then trpc-to-openapi, then the envelope for every failure.
export async function handleRestRequest(request: Request): Promise<Response> {
  const requestId = requestIdOf(request.headers);
  const url = new URL(request.url);
  const route = matchRestRoute(request.method, url.pathname.replace(/^\/api/, ''));
  if (route.kind === 'not_found') return errorResponse(new AppError('NOT_FOUND', 'no such path'), 'boolean', requestId);
  if (route.kind === 'wrong_method') return methodNotAllowed(route.allow.join(', '))(request);
  const context: ApiContext = { headers: request.headers, requestId, prisma: await db() };
  try {
    let forwarded = request;
    if (request.method === 'POST') {
      const text = await readBodyText(request);
      const body = parseJsonBody(text, request.headers.get('content-type'));
      // Refused after the token and scope checks (DESIGN.md 3 order), by the procedure.
      context.bodyIsNotObject = body === null || typeof body !== 'object' || Array.isArray(body);
      forwarded = new Request(request.url, { method: 'POST', headers: request.headers, body: text });
    }
    const response = await createOpenApiFetchHandler({
      endpoint: '/api',
      router: appRouter,
      req: forwarded,
      createContext: () => context,
      onError: ({ error }) => {
        context.failure = error;
      },
    });
    if (response.ok) {
      const headers = new Headers(response.headers);
      headers.set('x-request-id', requestId);
      headers.set('cache-control', 'no-store');
      return new Response(response.body, { status: response.status, headers });
    }
    const failure = toAppError(context.failure ?? new AppError(response.status === 404 ? 'NOT_FOUND' : 'VALIDATION'));
    if (failure.kind === 'INTERNAL') logError('rest request failed', context.failure, { requestId });
    return errorResponse(failure, route.successType, requestId);
  } catch (error) {
    const failure = toAppError(error);
    if (failure.kind === 'INTERNAL') logError('rest request failed', error, { requestId });
    return errorResponse(failure, route.successType, requestId);
  }
}
