import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';
import { verifyAccessToken } from './jwt';
import { tokenSigningKey } from './service-keys';

export type Principal = {
  clientId: string;
  scopes: ReadonlySet<string>;
  merchantCode: string | null;
  facilitatorCode: string | null;
};

const REVOCATION_CACHE_MS = 5_000;
const revocations = new Map<string, { revoked: boolean; checkedAt: number }>();

function unauthenticated(message: string): AppError {
  return new AppError('UNAUTHENTICATED', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
}

async function isRevoked(prisma: Db, clientId: string, now: number): Promise<boolean> {
  const cached = revocations.get(clientId);
  if (cached && now - cached.checkedAt < REVOCATION_CACHE_MS) return cached.revoked;
  const credential = await prisma.apiCredential.findUnique({ where: { clientId }, select: { revokedAt: true } });
  const revoked = !credential || credential.revokedAt !== null;
  revocations.set(clientId, { revoked, checkedAt: now });
  return revoked;
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
  if (await isRevoked(prisma, claims.sub, now.getTime())) throw unauthenticated('credential revoked');
  return {
    clientId: claims.sub,
    scopes: new Set(claims.scope.split(' ')),
    merchantCode: claims.merchant_code ?? null,
    facilitatorCode: claims.facilitator_code ?? null,
  };
}

export function requireScope(principal: Principal, scope: string): void {
  if (!principal.scopes.has(scope)) throw new AppError('FORBIDDEN', `token lacks the scope ${scope}`);
}
