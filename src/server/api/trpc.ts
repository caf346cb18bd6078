import { initTRPC } from '@trpc/server';
import type { ProcedureMeta } from './openapi/procedure-meta';
import { AppError } from '@/server/domain/errors';
import { authenticate, requireScope } from '@/server/auth/principal';
import { env } from '@/env';
import { takeToken } from './rate-limit/rate-limit';
import { toAppError } from './errors/to-app-error';
import { trpcCodeOf } from './errors/trpc-error-code';
import type { ApiContext } from './context';

const t = initTRPC
  .context<ApiContext>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const appError = toAppError(error);
      return {
        ...shape,
        code: trpcCodeOf(appError.kind),
        message: appError.message,
        data: { kind: appError.kind, errors: appError.errors },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

export const SUPPORTED_API_VERSIONS = new Set(['1709847567']);

/** Integrator calls (docs/DESIGN.md 3): ALG-API-VERSION, then the Bearer token, then the scope. */
export function integratorProcedure(scope: 'post:charges' | 'get:charges' | 'delete:charges') {
  return t.procedure.use(async ({ ctx, next }) => {
    const version = ctx.headers.get('alg-api-version');
    if (version === null || !SUPPORTED_API_VERSIONS.has(version.trim())) {
      throw new AppError('API_VERSION', 'ALG-API-VERSION must be 1709847567', {
        errors: [{ field: 'ALG-API-VERSION', code: 'unsupported_version', message: 'must be 1709847567' }],
      });
    }
    const principal = await authenticate(ctx.prisma, ctx.headers.get('authorization'));
    const rate = principal.rateLimitPerSecond ?? env().API_RATE_PER_SECOND;
    await takeToken(`api:${principal.clientId}`, rate, rate * 2);
    requireScope(principal, scope);
    if (ctx.bodyIsNotObject) {
      throw new AppError('VALIDATION', 'the body must be a JSON object', {
        errors: [{ code: 'invalid_type', message: 'the body must be a JSON object' }],
      });
    }
    return next({ ctx: { ...ctx, principal } });
  });
}

/** Platform operators: a PLATFORM_ADMIN console session or the operator CLI (no session at all: 401, as the console's). */
export const operatorProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('UNAUTHENTICATED', 'sign in as a platform operator');
  if (ctx.session.role !== 'PLATFORM_ADMIN') throw new AppError('FORBIDDEN', 'platform operators only');
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/** Console users (docs/DESIGN.md 1): any signed-in role may read; SUPPORT and MERCHANT_VIEWER never act. */
export const consoleReadProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('UNAUTHENTICATED', 'sign in to the console');
  return next({ ctx: { ...ctx, session: ctx.session } });
});

export const consoleActProcedure = consoleReadProcedure.use(({ ctx, next }) => {
  if (ctx.session.role !== 'PLATFORM_ADMIN' && ctx.session.role !== 'MERCHANT_ADMIN') {
    throw new AppError('FORBIDDEN', 'this role is read-only');
  }
  return next();
});
