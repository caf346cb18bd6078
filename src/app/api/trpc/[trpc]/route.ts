import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { db } from '@/server/db/client';
import { isOperatorToken } from '@/server/auth/operator-token';
import { appRouter } from '@/server/api/routers/app-router';
import { requestIdOf } from '@/server/api/request-id';

export const dynamic = 'force-dynamic';

// tRPC for the console and the operator CLI (console sessions arrive with the console issue).
async function handler(request: Request): Promise<Response> {
  const prisma = await db();
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: () => ({
      headers: request.headers,
      requestId: requestIdOf(request.headers),
      prisma,
      ...(isOperatorToken(request.headers.get('x-operator-token'))
        ? { session: { userId: null, email: 'operator@cli', role: 'PLATFORM_ADMIN' as const, merchantId: null } }
        : {}),
    }),
  });
}

export { handler as GET, handler as POST };
