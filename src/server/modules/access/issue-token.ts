import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { oauthError } from '@/server/modules/access/oauth-error';
import { successMeta } from '@/server/core/domain/envelope';
import { signAccessToken } from '@/server/modules/access/jwt';
import { clientSecretPeppers } from '@/server/modules/access/credentials';
import { hashClientSecret, verifyClientSecret } from '@/server/platform/security/secrets';
import { tokenSigningKey } from '@/server/platform/security/service-keys';
import { SCOPE_PATTERN, SCOPES, tokenRequest, type TokenResponse } from '@/server/core/interface/token';

// POST {auth_url}/token: OAuth 2.0 client_credentials with the rules of docs/DESIGN.md 5.

/** RFC 8707 `resource`, one or several: each must name the API, with or without its trailing slash. */
function checkResources(resource: string | string[] | undefined, baseUrl: string): void {
  for (const value of resource === undefined ? [] : [resource].flat()) {
    if (value !== baseUrl && value !== `${baseUrl}/`) {
      throw oauthError('invalid_target', `resource must be ${baseUrl}/`, 'resource');
    }
  }
}

export async function issueToken(prisma: Db, body: unknown, now = new Date()): Promise<TokenResponse> {
  const parsed = tokenRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw oauthError('invalid_request', `${field || 'body'}: ${issue?.message ?? 'invalid'}`, field);
  }
  const request = parsed.data;
  const config = env();
  // action and audience are the interface's; a standard OAuth client sends neither, so both
  // default to the only value they may take (docs/DECISIONS.md, "OAuth 2.0 as standard clients").
  if (request.action !== undefined && request.action !== 'authorize') {
    throw oauthError('invalid_request', 'action must be authorize', 'action');
  }
  if (request.grant_type !== 'client_credentials') {
    throw oauthError('unsupported_grant_type', 'grant_type must be client_credentials', 'grant_type');
  }
  const audience = `${config.baseUrl}/`;
  if (request.audience !== undefined && request.audience !== audience) {
    throw oauthError('invalid_request', `audience must be ${audience}`, 'audience');
  }
  checkResources(request.resource, config.baseUrl);
  // The scope's syntax before the client (a bad request is 400 whoever sends it); what the
  // client may have after.
  if (request.scope !== undefined && !SCOPE_PATTERN.test(request.scope)) {
    // The names are not echoed: the answer never repeats what the client sent.
    const names = request.scope.split(' ');
    const description = names.some((name) => name && !(SCOPES as readonly string[]).includes(name))
      ? `scope holds a name that is not one of: ${SCOPES.join(' ')}`
      : request.scope.trim() === ''
        ? 'scope names no scope'
        : 'scopes are separated by single spaces';
    throw oauthError('invalid_scope', description, 'scope');
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
  const peppers = await clientSecretPeppers(prisma);
  const secret = await verifyClientSecret(
    request.client_secret,
    credential?.secretHash ?? hashClientSecret('unknown-client', peppers),
    peppers,
  );
  if (!credential || !secret.valid || credential.revokedAt) {
    throw oauthError('invalid_client', 'client authentication failed');
  }

  // No scope at all asks for the credential's whole set (RFC 6749 3.3 lets the server choose a
  // default). create:token is implied in every request (docs/DESIGN.md 5), so a credential
  // without it gets no token, and the granted scope names it.
  const named = request.scope === undefined ? credential.scopes : [...new Set(request.scope.split(' '))];
  const requested = named.includes('create:token') ? named : ['create:token', ...named];
  const outside = requested.filter((scope) => !credential.scopes.includes(scope));
  if (outside.length > 0) {
    throw oauthError('invalid_scope', `scope not allowed for this client: ${outside.join(' ')}`, 'scope');
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
  // A hash of an older form (scrypt, or a pepper no longer first) is rewritten with the use it
  // records, in the same statement.
  await prisma.apiCredential.update({
    where: { id: credential.id },
    data: { lastUsedAt: now, ...(secret.stale ? { secretHash: hashClientSecret(request.client_secret, peppers) } : {}) },
  });
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
