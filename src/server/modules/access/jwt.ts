import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { SigningKey } from '@/server/platform/security/service-keys';

export type TokenClaims = {
  sub: string;
  scope: string;
  merchant_code?: string;
  facilitator_code?: string;
};

export type VerifiedToken = TokenClaims & { jti: string; exp: number; iat: number; nbf?: number };

export async function signAccessToken(
  key: SigningKey,
  claims: TokenClaims,
  options: { issuer: string; audience: string; ttlSeconds: number; now: Date },
): Promise<string> {
  const iat = Math.floor(options.now.getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + options.ttlSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

/** Clock skew allowed between instances for `iat`: a token issued later than that is forged. */
export const IAT_SKEW_SECONDS = 60;

/** Verifies signature (ES256 only: no `none`, no HMAC confusion), kid, iss, aud, exp, nbf and iat. */
export async function verifyAccessToken(
  token: string,
  key: SigningKey,
  options: { issuer: string; audience: string; now: Date },
): Promise<VerifiedToken | null> {
  try {
    const { payload, protectedHeader } = await jwtVerify(token, key.publicKey, {
      algorithms: ['ES256'],
      issuer: options.issuer,
      audience: options.audience,
      currentDate: options.now,
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'scope'],
    });
    if (protectedHeader.kid !== key.kid) return null;
    if (typeof payload.iat !== 'number' || payload.iat > options.now.getTime() / 1000 + IAT_SKEW_SECONDS) return null;
    if (typeof payload.scope !== 'string' || typeof payload.sub !== 'string') return null;
    return payload as unknown as VerifiedToken;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
