import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { consoleSessionOfRequest } from '@/server/auth/request-session';
import { env } from '@/env';
import { db } from '@/server/db/client';
import { isOperatorToken } from '@/server/auth/operator-token';
import { appRouter } from '@/server/api/routers/app-router';
import { requestIdOf } from '@/server/api/rest/request-id';
import { toAppError } from '@/server/api/errors/to-app-error';
import { observed } from '@/server/observability/observe-route';

export const dynamic = 'force-dynamic';

// tRPC for the console (next-auth session cookie) and the operator CLI (operator token).
async function handler(request: Request): Promise<Response> {
  const prisma = await db();
  // A session cookie counts only for requests from the console's own pages (no CSRF).
  const origin = request.headers.get('origin');
  const sameOrigin = origin === null || origin === new URL(request.url).origin || origin === env().origin;
  const consoleSession = sameOrigin ? await consoleSessionOfRequest(request, prisma) : null;
  const requestId = requestIdOf(request.headers);
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    // The HTTP status of the one AppError a procedure failed with (401, 403, 404, 409, ...).
    responseMeta: ({ errors }) => ({
      headers: { 'x-request-id': requestId },
      ...(errors[0] ? { status: toAppError(errors[0]).status } : {}),
    }),
    createContext: () => ({
      headers: request.headers,
      requestId,
      prisma,
      ...(isOperatorToken(request.headers.get('x-operator-token'))
        ? { session: { userId: null, email: 'operator@cli', role: 'PLATFORM_ADMIN' as const, merchantId: null } }
        : consoleSession
          ? { session: consoleSession }
          : {}),
    }),
  });
}

const observedHandler = observed('trpc', handler);
// Other methods are answered before Next (src/server/http/next-routes.ts).
export { observedHandler as GET, observedHandler as POST };
