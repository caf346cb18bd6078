import type { Scope } from '@/server/core/domain/scopes';
import { initTRPC } from '@trpc/server';
import type { z } from 'zod';
import type { ProcedureMeta } from './openapi/procedure-meta';
import { AppError } from '@/server/core/domain/errors';
import { authenticate, requireScope } from '@/server/modules/access/principal';
import { actingMerchantOf, type ActingMerchant } from '@/server/modules/access/acting-merchant';
import { can, type Capability } from '@/server/modules/access/policy';
import { scopeOf } from '@/server/modules/access/merchant-scope';
import { env } from '@/env';
import { takeToken } from '@/server/platform/rate-limit/rate-limit';
import { toAppError } from './errors/to-app-error';
import { trpcErrorShape } from './errors/trpc-error-reply';
import type { ApiContext } from './context';

const t = initTRPC
  .context<ApiContext>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter: ({ error }) => trpcErrorShape(toAppError(error)),
  });

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/** The interface's documented default (docs/interface.md 9): what a request without the header gets. */
export const DEFAULT_API_VERSION = '1709847567';
export const SUPPORTED_API_VERSIONS = new Set([DEFAULT_API_VERSION]);

/**
 * The version a request asks for (docs/DESIGN.md 3): without ALG-API-VERSION the default, so stock
 * OAuth and generated clients work unmodified; a value that is sent must be a supported one.
 */
export function requestedApiVersion(header: string | null): string {
  if (header === null) return DEFAULT_API_VERSION;
  const version = header.trim();
  if (!SUPPORTED_API_VERSIONS.has(version)) {
    throw new AppError('API_VERSION', `ALG-API-VERSION must be ${DEFAULT_API_VERSION}`, {
      errors: [{ field: 'ALG-API-VERSION', code: 'unsupported_version', message: `must be ${DEFAULT_API_VERSION}` }],
    });
  }
  return version;
}

type IntegratorScope = Exclude<Scope, 'create:token'>;

/** Integrator calls (docs/DESIGN.md 3): ALG-API-VERSION, then the Bearer token, then the scope. */
function integratorProcedure(scope: IntegratorScope) {
  return t.procedure.use(async ({ ctx, next }) => {
    requestedApiVersion(ctx.headers.get('alg-api-version'));
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

/** A merchant_code the input may leave out leaves a facilitator acting for all its merchants (null). */
type MerchantOf<I> = I extends { merchant_code: string } ? ActingMerchant : ActingMerchant | null;

/**
 * Integrator calls for a merchant: the integrator checks, the input, then ctx.merchant, the
 * merchant the input's merchant_code and the payment-facilitator-code header name (docs/DESIGN.md 3).
 */
export function merchantProcedure<I extends { merchant_code?: string }>(scope: IntegratorScope, input: z.ZodType<I>) {
  return integratorProcedure(scope)
    .input(input)
    .use(async ({ ctx, input: parsed, next }) => {
      const merchant = await actingMerchantOf(
        ctx.prisma,
        ctx.principal,
        (parsed as { merchant_code?: string }).merchant_code,
        ctx.headers.get('payment-facilitator-code'),
      );
      return next({ ctx: { merchant: merchant as MerchantOf<I> } });
    });
}

/** Console users (docs/DESIGN.md 1): any signed-in role may read, within ctx.scope, the merchants it sees. */
export const consoleProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new AppError('UNAUTHENTICATED', 'sign in to the console');
  return next({ ctx: { ...ctx, session: ctx.session, scope: scopeOf(ctx.session) } });
});

function requiring<P extends typeof consoleProcedure>(procedure: P, capability: Capability, refusal: string): P {
  return procedure.use(({ ctx, next }) => {
    if (!can(ctx.session.role, capability)) throw new AppError('FORBIDDEN', refusal);
    return next();
  }) as P;
}

/** Console changes for a merchant: SUPPORT and MERCHANT_VIEWER never act. */
export const consoleActProcedure = requiring(consoleProcedure, 'merchant:act', 'this role is read-only');

/** The platform pages' reads: platform staff only. */
export const platformProcedure = requiring(consoleProcedure, 'platform:read', 'platform staff only');

/** Platform changes, from the console or the operator CLI (a platform admin's session). */
export const platformActProcedure = requiring(consoleActProcedure, 'platform:act', 'platform admins only');
