import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';
import { verifyAccessToken } from './jwt';
import { tokenSigningKey } from './service-keys';

export type Principal = {
  clientId: string;
  /** Requests per second its credential allows, or null for the service default. */
  rateLimitPerSecond: number | null;
  scopes: ReadonlySet<string>;
  merchantCode: string | null;
  facilitatorCode: string | null;
};

const CREDENTIAL_CACHE_MS = 5_000;
type CredentialState = { revoked: boolean; rateLimitPerSecond: number | null; checkedAt: number };
const credentials = new Map<string, CredentialState>();

function unauthenticated(message: string): AppError {
  return new AppError('UNAUTHENTICATED', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
}

/** Revocation and rate limit of a credential, read at most every 5 s per instance. */
async function credentialState(prisma: Db, clientId: string, now: number): Promise<CredentialState> {
  const cached = credentials.get(clientId);
  if (cached && now - cached.checkedAt < CREDENTIAL_CACHE_MS) return cached;
  const credential = await prisma.apiCredential.findUnique({
    where: { clientId },
    select: { revokedAt: true, rateLimitPerSecond: true },
  });
  const state = {
    revoked: !credential || credential.revokedAt !== null,
    rateLimitPerSecond: credential?.rateLimitPerSecond ?? null,
    checkedAt: now,
  };
  credentials.set(clientId, state);
  return state;
}

/** Bearer token of DESIGN.md 3: missing, malformed, expired, bad signature, wrong aud/iss or revoked: 401. */
export async function authenticate(prisma: Db, authorization: string | null, now = new Date()): Promise<Principal> {
  const match = /^Bearer ([A-Za-z0-9_.-]+)$/.exec(authorization?.trim() ?? '');
  if (!match?.[1]) throw unauthenticated('Authorization: Bearer <token> is required');
  const config = env();
  const claims = await verifyAccessToken(match[1], await tokenSigningKey(prisma), {
    issuer: config.authUrl,
    audience: `${config.baseUrl}/`,
    now,
  });
  if (!claims) throw unauthenticated('token invalid or expired');
  const credential = await credentialState(prisma, claims.sub, now.getTime());
  if (credential.revoked) throw unauthenticated('credential revoked');
  return {
    clientId: claims.sub,
    rateLimitPerSecond: credential.rateLimitPerSecond,
    scopes: new Set(claims.scope.split(' ')),
    merchantCode: claims.merchant_code ?? null,
    facilitatorCode: claims.facilitator_code ?? null,
  };
}

export function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.has(scope)) throw new AppError('FORBIDDEN', `token lacks the scope ${scope}`);
}
