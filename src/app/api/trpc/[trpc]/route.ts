import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { consoleSessionOfRequest } from '@/server/modules/access/request-session';
import { env } from '@/env';
import { db } from '@/server/platform/db/client';
import { isOperatorToken } from '@/server/modules/access/operator-token';
import { appRouter } from '@/server/api/routers/app-router';
import { requestIdOf } from '@/server/platform/http/request-id';
import { toAppError } from '@/server/api/errors/to-app-error';
import { observed } from '@/server/platform/observability/observe-route';

export const dynamic = 'force-dynamic';

// tRPC for the console (next-auth session cookie) and the operator CLI (operator token).
async function handler(request: Request): Promise<Response> {
  const prisma = await db();
  // A session cookie counts only for requests from the console's own pages (no CSRF).
  const origin = request.headers.get('origin');
  const sameOrigin = origin === null || origin === new URL(request.url).origin || origin === env().origin;
  const requestId = requestIdOf(request.headers);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    // The HTTP status (and headers: Retry-After on a 503) of the one AppError a procedure failed with.
    responseMeta: ({ errors }) => {
      const failure = errors[0] ? toAppError(errors[0]) : undefined;
      return {
        headers: { 'x-request-id': requestId, ...failure?.headers },
        ...(failure ? { status: failure.status } : {}),
      };
    },
    // The session is read here, so that a database fault while reading it is answered as one (503).
    createContext: async () => {
      if (isOperatorToken(request.headers.get('x-operator-token'))) {
        const operator = { userId: null, email: 'operator@cli', role: 'PLATFORM_ADMIN' as const, merchantId: null };
        return { headers: request.headers, requestId, prisma, session: operator };
      }
      const consoleSession = sameOrigin ? await consoleSessionOfRequest(request, prisma) : null;
      return { headers: request.headers, requestId, prisma, ...(consoleSession ? { session: consoleSession } : {}) };
    },
  });
}

const observedHandler = observed('trpc', handler);
// Other methods are answered before Next (src/server/http/next-routes.ts).
export { observedHandler as GET, observedHandler as POST };
