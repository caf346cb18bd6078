import { env } from '@/env';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/domain/errors';
import { successMeta } from '@/server/domain/envelope';
import { signAccessToken } from '@/server/auth/jwt';
import { hashSecret, verifySecret } from '@/server/auth/secrets';
import { tokenSigningKey } from '@/server/auth/service-keys';
import { tokenRequest, type TokenResponse } from '@/server/schemas/token';

// POST {auth_url}/token: OAuth 2.0 client_credentials with the rules of docs/DESIGN.md 5.
let unknownClientHashValue: Promise<string> | undefined;
const unknownClientHash = () => (unknownClientHashValue ??= hashSecret('unknown-client'));

function oauthError(kind: 'VALIDATION' | 'INVALID_CLIENT', error: string, description: string, field?: string) {
  return new AppError(kind, description, {
    extras: { error, error_description: description },
    errors: [{ ...(field ? { field } : {}), code: error, message: description }],
    headers: kind === 'INVALID_CLIENT' ? { 'WWW-Authenticate': 'Bearer' } : {},
  });
}

export async function issueToken(prisma: Db, body: unknown, now = new Date()): Promise<TokenResponse> {
  const parsed = tokenRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw oauthError('VALIDATION', 'invalid_request', `${field || 'body'}: ${issue?.message ?? 'invalid'}`, field);
  }
  const request = parsed.data;
  const config = env();
  if (request.action !== 'authorize') throw oauthError('VALIDATION', 'invalid_request', 'action must be authorize', 'action');
  if (request.grant_type !== 'client_credentials') {
    throw oauthError('VALIDATION', 'unsupported_grant_type', 'grant_type must be client_credentials', 'grant_type');
  }
  const audience = `${config.baseUrl}/`;
  if (request.audience !== audience) {
    throw oauthError('VALIDATION', 'invalid_request', `audience must be ${audience}`, 'audience');
  }

  const credential = await prisma.apiCredential.findUnique({
    where: { clientId: request.client_id },
    select: {
      id: true,
      secretHash: true,
      scopes: true,
      tokenTtlSeconds: true,
      revokedAt: true,
      merchant: { select: { code: true } },
      facilitator: { select: { code: true } },
    },
  });
  // An unknown client id costs the same hash as a known one: no timing oracle for ids.
  const secretMatches = await verifySecret(request.client_secret, credential?.secretHash ?? (await unknownClientHash()));
  if (!credential || !secretMatches || credential.revokedAt) {
    throw oauthError('INVALID_CLIENT', 'invalid_client', 'client authentication failed');
  }

  const requested = [...new Set((request.scope ?? '').split(' ').filter(Boolean))];
  if (!requested.includes('create:token')) {
    throw oauthError('VALIDATION', 'invalid_scope', 'scope must include create:token', 'scope');
  }
  const outside = requested.filter((scope) => !credential.scopes.includes(scope));
  if (outside.length > 0) {
    throw oauthError('VALIDATION', 'invalid_scope', `scope not allowed for this client: ${outside.join(' ')}`, 'scope');
  }

  const scope = requested.join(' ');
  const ttlSeconds = credential.tokenTtlSeconds ?? config.TOKEN_TTL_SECONDS;
  const accessToken = await signAccessToken(
    await tokenSigningKey(prisma),
    {
      sub: request.client_id,
      scope,
      ...(credential.merchant ? { merchant_code: credential.merchant.code } : {}),
      ...(credential.facilitator ? { facilitator_code: credential.facilitator.code } : {}),
    },
    { issuer: config.authUrl, audience, ttlSeconds, now },
  );
  await prisma.apiCredential.update({ where: { id: credential.id }, data: { lastUsedAt: now } });
  return {
    action: 'authorize',
    success: true,
    access_token: accessToken,
    scope,
    expires_in: ttlSeconds,
    token_type: 'Bearer',
    authorization: { meta: successMeta() },
  };
}
