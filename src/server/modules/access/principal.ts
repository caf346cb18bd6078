import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { RecentReads } from '@/server/platform/cache/recent-reads';
import { AppError } from '@/server/core/domain/errors';
import { IAT_SKEW_SECONDS, verifyAccessToken, type VerifiedToken } from './jwt';
import { tokenSigningKey } from '@/server/platform/security/service-keys';
import { bearerChallenge } from '@/server/platform/http/challenges';

export type Principal = {
  clientId: string;
  /** Requests per second its credential allows, or null for the service default. */
  rateLimitPerSecond: number | null;
  scopes: ReadonlySet<string>;
  merchantCode: string | null;
  facilitatorCode: string | null;
};

type CredentialState = { revoked: boolean; rateLimitPerSecond: number | null };
const credentials = new RecentReads<CredentialState>(5_000);

/** 401 20; `tokenSent` says whether a bearer token came, the only case RFC 6750 3.1 gives an error code. */
function unauthenticated(message: string, tokenSent: boolean): AppError {
  const challenge = bearerChallenge(tokenSent ? { error: 'invalid_token', description: message } : undefined);
  return new AppError('UNAUTHENTICATED', message, { headers: { 'WWW-Authenticate': challenge } });
}

/** Revocation and rate limit of a credential, read at most every 5 s per instance. */
function credentialState(prisma: Db, clientId: string, now: number): Promise<CredentialState> {
  return credentials.get(
    clientId,
    async () => {
      const credential = await prisma.apiCredential.findUnique({
        where: { clientId },
        select: { revokedAt: true, rateLimitPerSecond: true },
      });
      return {
        revoked: !credential || credential.revokedAt !== null,
        rateLimitPerSecond: credential?.rateLimitPerSecond ?? null,
      };
    },
    now,
  );
}

// Tokens whose signature and claims were verified, by their exact text, so a token's ECDSA
// check runs once per instance; the time claims are checked again on every use.
const MAX_VERIFIED_TOKENS = 10_000;
const verifiedTokens = new Map<string, VerifiedToken>();

async function verifiedClaims(token: string, now: Date, verify: () => Promise<VerifiedToken | null>) {
  const seconds = now.getTime() / 1000;
  const known = verifiedTokens.get(token);
  if (known) {
    const timely = known.exp > seconds && (known.nbf ?? 0) <= seconds && known.iat <= seconds + IAT_SKEW_SECONDS;
    if (timely) return known;
    verifiedTokens.delete(token);
    return null;
  }
  const claims = await verify();
  if (claims) {
    if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.delete(verifiedTokens.keys().next().value!);
    verifiedTokens.set(token, claims);
  }
  return claims;
}

/** Bearer token of docs/DESIGN.md 3: missing, malformed, expired, bad signature, wrong aud/iss or revoked: 401. */
export async function authenticate(prisma: Db, authorization: string | null, now = new Date()): Promise<Principal> {
  const sent = authorization?.trim() ?? '';
  // RFC 6750 2.1: the scheme is case-insensitive, the token a b64token.
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(sent);
  if (!match?.[1]) {
    const tokenSent = /^Bearer +\S/i.test(sent);
    throw unauthenticated(tokenSent ? 'token malformed' : 'Authorization: Bearer <token> is required', tokenSent);
  }
  const config = env();
  const claims = await verifiedClaims(match[1], now, async () =>
    verifyAccessToken(match[1]!, await tokenSigningKey(prisma), {
      issuer: config.authUrl,
      audience: `${config.baseUrl}/`,
      now,
    }),
  );
  if (!claims) throw unauthenticated('token invalid or expired', true);
  const credential = await credentialState(prisma, claims.sub, now.getTime());
  if (credential.revoked) throw unauthenticated('credential revoked', true);
  return {
    clientId: claims.sub,
    rateLimitPerSecond: credential.rateLimitPerSecond,
    scopes: new Set(claims.scope.split(' ')),
    merchantCode: claims.merchant_code ?? null,
    facilitatorCode: claims.facilitator_code ?? null,
  };
}

export function requireScope(principal: Principal, scope: string): void {
  if (principal.scopes.has(scope)) return;
  const description = `token lacks the scope ${scope}`;
  throw new AppError('FORBIDDEN', description, {
    headers: { 'WWW-Authenticate': bearerChallenge({ error: 'insufficient_scope', description, scope }) },
  });
}
