import { expect, test } from '../support/contract';
import { UUID } from '../support/patterns';
import { createRemoteJWKSet, importJWK, jwtVerify } from 'jose';
import { API_VERSION, AUTH_URL, BASE_URL, createMerchant, operator } from '../support/service';
import {
  AUDIENCE,
  ISSUER,
  createFacilitator,
  expectError,
  expectMeta,
  jwtParts,
  postToken,
  serverJwks,
  tokenRequestBody,
  basicAuthorization,
  challengeOf,
  type TokenAnswer,
  type TokenError,
} from './auth-helpers';
import { ALL_SCOPES } from '../support/api-client';

// POST {auth_url}/token (docs/interface.md 4.1, docs/DESIGN.md 4-5, RFC 6749 and 8707).

const BASIC_CHALLENGE = { scheme: 'Basic', realm: 'pay', charset: 'UTF-8', error: 'invalid_client' };

async function expectOauthError(
  response: Awaited<ReturnType<typeof postToken>>,
  status: number,
  code: string,
  error: string,
): Promise<TokenError> {
  const body = await expectError<TokenError>(response, status, code, 'boolean');
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  expect(body.error_description.length).toBeGreaterThan(0);
  expect(body).not.toHaveProperty('access_token');
  return body;
}

test.describe('token issuance', () => {
  test('a JSON request gets a signed ES256 token with the documented body and claims', async ({ request }) => {
    const merchant = await createMerchant('TOK');
    const before = Math.floor(Date.now() / 1000);
    const response = await postToken(request, tokenRequestBody(merchant));
    const after = Math.ceil(Date.now() / 1000);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(response.headers()['cache-control']).toContain('no-store');
    const body = (await response.json()) as TokenAnswer;
    expect(Object.keys(body).sort()).toEqual(
      ['access_token', 'action', 'authorization', 'expires_in', 'scope', 'success', 'token_type'].sort(),
    );
    expect(body.action).toBe('authorize');
    expect(body.success).toBe(true);
    expect(body.scope).toBe(ALL_SCOPES);
    expect(body.expires_in).toBe(600);
    expect(body.token_type).toBe('Bearer');
    expectMeta(body.authorization.meta, '00');

    const parts = body.access_token.split('.');
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    const { header, payload } = jwtParts(body.access_token);
    expect(header.alg).toBe('ES256');
    expect(typeof header.kid).toBe('string');
    expect((header.kid as string).length).toBeGreaterThan(0);

    expect(payload.iss).toBe(ISSUER);
    expect(payload.iss).toBe(AUTH_URL);
    expect(payload.aud).toBe(AUDIENCE);
    expect(payload.aud).toBe(`${BASE_URL}/`);
    expect(payload.sub).toBe(merchant.clientId);
    expect(payload.merchant_code).toBe(merchant.code);
    expect(payload).not.toHaveProperty('facilitator_code');
    expect(payload.scope).toBe(ALL_SCOPES);
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(payload.iat).toBeLessThanOrEqual(after);
    expect(payload.exp).toBe(payload.iat! + body.expires_in);
    expect(payload.jti).toMatch(UUID);
    // The secret never travels back.
    expect(JSON.stringify(body)).not.toContain(merchant.clientSecret);

    // The published key set verifies it (remote JWKS and the single key imported by hand).
    const jwks = createRemoteJWKSet(new URL(`${AUTH_URL}/.well-known/jwks.json`));
    const verified = await jwtVerify(body.access_token, jwks, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256'] });
    expect(verified.payload.sub).toBe(merchant.clientId);
    const keys = await serverJwks(request);
    const published = keys.find((key) => key.kid === header.kid);
    expect(published?.kty).toBe('EC');
    expect(published?.crv).toBe('P-256');
    expect(published).not.toHaveProperty('d');
    const imported = await importJWK(published!, 'ES256');
    const again = await jwtVerify(body.access_token, imported, { issuer: ISSUER, audience: AUDIENCE });
    expect(again.payload.jti).toBe(payload.jti);
  });

  test('an application/x-www-form-urlencoded request gets the same answer', async ({ request }) => {
    const merchant = await createMerchant('TOKF');
    const response = await postToken(request, tokenRequestBody(merchant, { scope: 'create:token get:charges' }), { form: true });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as TokenAnswer;
    expect(body.action).toBe('authorize');
    expect(body.success).toBe(true);
    expect(body.scope).toBe('create:token get:charges');
    expect(body.expires_in).toBe(600);
    expect(body.token_type).toBe('Bearer');
    expectMeta(body.authorization.meta, '00');
    const { header, payload } = jwtParts(body.access_token);
    expect(header.alg).toBe('ES256');
    expect(payload.sub).toBe(merchant.clientId);
    expect(payload.merchant_code).toBe(merchant.code);
    expect(payload.scope).toBe('create:token get:charges');
    expect(payload.exp).toBe(payload.iat! + 600);
    const jwks = createRemoteJWKSet(new URL(`${AUTH_URL}/.well-known/jwks.json`));
    await jwtVerify(body.access_token, jwks, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256'] });
  });

  test('the granted scope is exactly the requested subset and each token has its own jti', async ({ request }) => {
    const merchant = await createMerchant('TOKS');
    const first = (await (
      await postToken(request, tokenRequestBody(merchant, { scope: 'create:token delete:charges' }))
    ).json()) as TokenAnswer;
    const second = (await (
      await postToken(request, tokenRequestBody(merchant, { scope: 'create:token' }))
    ).json()) as TokenAnswer;
    expect(first.scope).toBe('create:token delete:charges');
    expect(jwtParts(first.access_token).payload.scope).toBe('create:token delete:charges');
    expect(second.scope).toBe('create:token');
    expect(jwtParts(second.access_token).payload.scope).toBe('create:token');
    expect(jwtParts(first.access_token).payload.jti).not.toBe(jwtParts(second.access_token).payload.jti);
  });

  test('HTTP Basic client authentication (client_secret_basic) gets the same token', async ({ request }) => {
    const merchant = await createMerchant('TOKB');
    const { client_id: _id, client_secret: _secret, ...rest } = tokenRequestBody(merchant);
    for (const form of [true, false]) {
      const response = await postToken(request, rest, {
        form,
        authorization: basicAuthorization(merchant.clientId, merchant.clientSecret),
      });
      expect(response.status(), await response.text()).toBe(200);
      const body = (await response.json()) as TokenAnswer;
      expect(body.scope).toBe(ALL_SCOPES);
      expect(jwtParts(body.access_token).payload.sub).toBe(merchant.clientId);
    }
  });

  test('a standard request without action, audience or scope gets a token for the API with every allowed scope', async ({
    request,
  }) => {
    const merchant = await createMerchant('TOKS', ['create:token', 'get:charges']);
    const response = await postToken(
      request,
      { grant_type: 'client_credentials', client_id: merchant.clientId, client_secret: merchant.clientSecret },
      { form: true },
    );
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as TokenAnswer;
    expect(body.action).toBe('authorize');
    expect(body.scope).toBe('create:token get:charges');
    const { payload } = jwtParts(body.access_token);
    expect(payload.aud).toBe(AUDIENCE);
    expect(payload.scope).toBe('create:token get:charges');
  });

  test('RFC 8707 resource names the API as audience does, with or without its trailing slash', async ({ request }) => {
    const merchant = await createMerchant('TOKRS');
    for (const resource of [AUDIENCE, BASE_URL]) {
      const { audience: _audience, ...rest } = tokenRequestBody(merchant, { resource });
      const response = await postToken(request, rest, { form: true });
      expect(response.status(), await response.text()).toBe(200);
      expect(jwtParts(((await response.json()) as TokenAnswer).access_token).payload.aud).toBe(AUDIENCE);
    }
  });

  test('a facilitator credential gets a token with facilitator_code and no merchant_code', async ({ request }) => {
    const facilitator = await createFacilitator('TOKFAC');
    const response = await postToken(request, tokenRequestBody(facilitator));
    expect(response.status()).toBe(200);
    const { payload } = jwtParts(((await response.json()) as TokenAnswer).access_token);
    expect(payload.facilitator_code).toBe(facilitator.code);
    expect(payload).not.toHaveProperty('merchant_code');
    expect(payload.sub).toBe(facilitator.clientId);
  });

  test('a credential with tokenTtlSeconds 1 gets expires_in 1', async ({ request }) => {
    const merchant = await createMerchant('TOKT', undefined, { tokenTtlSeconds: 1 });
    const response = await postToken(request, tokenRequestBody(merchant));
    expect(response.status()).toBe(200);
    const body = (await response.json()) as TokenAnswer;
    expect(body.expires_in).toBe(1);
    const { payload } = jwtParts(body.access_token);
    expect(payload.exp).toBe(payload.iat! + 1);
  });
});

test.describe('token errors', () => {
  // RFC 6749 5.2: a client that sent its secret in the body did not use HTTP authentication, so
  // no challenge; standard clients then read `invalid_client` from the body.
  test('a wrong secret in the body is 401 22 invalid_client without a challenge', async ({ request }) => {
    const merchant = await createMerchant('TOKE');
    const response = await postToken(request, tokenRequestBody(merchant, { client_secret: `${merchant.clientSecret}x` }));
    const body = await expectOauthError(response, 401, '22', 'invalid_client');
    expect(response.headers()['www-authenticate']).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(merchant.clientSecret);
  });

  test('an unknown client is 401 22 invalid_client', async ({ request }) => {
    const merchant = await createMerchant('TOKU');
    const response = await postToken(request, tokenRequestBody(merchant, { client_id: 'cli_does_not_exist_000000' }));
    await expectOauthError(response, 401, '22', 'invalid_client');
    expect(response.headers()['www-authenticate']).toBeUndefined();
  });

  test('a revoked credential is 401 22 invalid_client, by either authentication method', async ({ request }) => {
    const merchant = await createMerchant('TOKR');
    expect((await postToken(request, tokenRequestBody(merchant))).status()).toBe(200);
    await operator().revokeCredential.mutate({ clientId: merchant.clientId });
    await expectOauthError(await postToken(request, tokenRequestBody(merchant)), 401, '22', 'invalid_client');
    const { client_id: _id, client_secret: _secret, ...rest } = tokenRequestBody(merchant);
    const basic = await postToken(request, rest, { authorization: basicAuthorization(merchant.clientId, merchant.clientSecret) });
    await expectOauthError(basic, 401, '22', 'invalid_client');
    expect(challengeOf(basic.headers()['www-authenticate'])).toEqual(BASIC_CHALLENGE);
  });

  // RFC 6749 2.3.1 and 5.2: a failed HTTP Basic authentication is 401 with the Basic challenge.
  test('a wrong or malformed Basic Authorization is 401 22 invalid_client with a Basic challenge', async ({ request }) => {
    const merchant = await createMerchant('TOKBB');
    const { client_id: _id, client_secret: _secret, ...rest } = tokenRequestBody(merchant);
    for (const authorization of [
      basicAuthorization(merchant.clientId, `${merchant.clientSecret}x`),
      basicAuthorization('cli_does_not_exist_000000', merchant.clientSecret),
      `Basic ${Buffer.from(merchant.clientId).toString('base64')}`,
      'Basic !!!',
      `Bearer ${merchant.clientSecret}`,
    ]) {
      const response = await postToken(request, rest, { authorization });
      const body = await expectOauthError(response, 401, '22', 'invalid_client');
      expect(challengeOf(response.headers()['www-authenticate'])).toEqual(BASIC_CHALLENGE);
      expect(JSON.stringify(body)).not.toContain(merchant.clientSecret);
    }
  });

  test('credentials both in Basic and in the body, or two client ids, are 400 10 invalid_request', async ({ request }) => {
    const merchant = await createMerchant('TOKBD');
    const authorization = basicAuthorization(merchant.clientId, merchant.clientSecret);
    const twice = await expectOauthError(
      await postToken(request, tokenRequestBody(merchant), { authorization }),
      400,
      '10',
      'invalid_request',
    );
    expect(twice.errors.map((error) => error.field)).toEqual(['client_secret']);
    const { client_secret: _secret, ...withId } = tokenRequestBody(merchant, { client_id: 'cli_someone_else_00000' });
    const other = await expectOauthError(await postToken(request, withId, { authorization }), 400, '10', 'invalid_request');
    expect(other.errors.map((error) => error.field)).toEqual(['client_id']);
    // The same client id in the body beside Basic is fine.
    const { client_secret: _again, ...sameId } = tokenRequestBody(merchant);
    expect((await postToken(request, sameId, { authorization, form: true })).status()).toBe(200);
  });

  test('a form parameter sent twice is 400 10 invalid_request', async ({ request }) => {
    const merchant = await createMerchant('TOKFT');
    const form = new URLSearchParams(tokenRequestBody(merchant));
    form.append('scope', 'create:token');
    const response = await request.post(`${AUTH_URL}/token`, {
      headers: { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'application/x-www-form-urlencoded' },
      data: form.toString(),
    });
    const body = await expectOauthError(response, 400, '10', 'invalid_request');
    expect(body.errors.map((error) => error.field)).toEqual(['scope']);
  });

  test('a resource other than the API is 400 10 invalid_target', async ({ request }) => {
    const merchant = await createMerchant('TOKRT');
    for (const resource of ['https://evil.example/api/', AUTH_URL, `${BASE_URL}/charges`]) {
      const body = await expectOauthError(
        await postToken(request, tokenRequestBody(merchant, { resource })),
        400,
        '10',
        'invalid_target',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['resource']);
    }
  });

  test('a wrong action is 400 10 invalid_request', async ({ request }) => {
    const merchant = await createMerchant('TOKA');
    const body = await expectOauthError(
      await postToken(request, tokenRequestBody(merchant, { action: 'login' })),
      400,
      '10',
      'invalid_request',
    );
    expect(body.errors.map((error) => error.field)).toEqual(['action']);
  });

  test('a wrong audience is 400 10 invalid_request', async ({ request }) => {
    const merchant = await createMerchant('TOKD');
    for (const audience of [BASE_URL, 'https://evil.example/api/', `${AUTH_URL}/`]) {
      const body = await expectOauthError(
        await postToken(request, tokenRequestBody(merchant, { audience })),
        400,
        '10',
        'invalid_request',
      );
      expect(body.errors.map((error) => error.field)).toEqual(['audience']);
    }
  });

  test('grant_type password is 400 10 unsupported_grant_type', async ({ request }) => {
    const merchant = await createMerchant('TOKG');
    await expectOauthError(
      await postToken(request, tokenRequestBody(merchant, { grant_type: 'password' })),
      400,
      '10',
      'unsupported_grant_type',
    );
  });

  test('a scope without create:token gets it implied; an empty scope is 400 10 invalid_scope', async ({ request }) => {
    const merchant = await createMerchant('TOKC');
    const response = await postToken(request, tokenRequestBody(merchant, { scope: 'post:charges get:charges' }));
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as TokenAnswer;
    expect(body.scope).toBe('create:token post:charges get:charges');
    expect(jwtParts(body.access_token).payload.scope).toBe('create:token post:charges get:charges');
    await expectOauthError(await postToken(request, tokenRequestBody(merchant, { scope: '' })), 400, '10', 'invalid_scope');
    // A credential whose set lacks create:token gets no token, whatever it asks for.
    const tokenless = await createMerchant('TOKN', ['get:charges']);
    const { scope: _every, ...everyScope } = tokenRequestBody(tokenless);
    for (const asked of [tokenRequestBody(tokenless, { scope: 'get:charges' }), everyScope]) {
      await expectOauthError(await postToken(request, asked), 400, '10', 'invalid_scope');
    }
  });

  test("a scope outside the credential's set is 400 10 invalid_scope", async ({ request }) => {
    const merchant = await createMerchant('TOKO', ['create:token', 'get:charges']);
    await expectOauthError(
      await postToken(request, tokenRequestBody(merchant, { scope: 'create:token post:charges' })),
      400,
      '10',
      'invalid_scope',
    );
    await expectOauthError(
      await postToken(request, tokenRequestBody(merchant, { scope: 'create:token get:charges admin:all' })),
      400,
      '10',
      'invalid_scope',
    );
    // The allowed subset still works.
    const allowed = await postToken(request, tokenRequestBody(merchant, { scope: 'create:token get:charges' }));
    expect(allowed.status()).toBe(200);
    expect(((await allowed.json()) as TokenAnswer).scope).toBe('create:token get:charges');
  });

  test('an unsupported ALG-API-VERSION is 400 11; a missing one is the default version', async ({ request }) => {
    const merchant = await createMerchant('TOKV');
    for (const version of ['1', '1709847568', '']) {
      // RFC 6749 5.2: every error answer of the token endpoint carries `error` and `error_description`.
      await expectOauthError(await postToken(request, tokenRequestBody(merchant), { version }), 400, '11', 'invalid_request');
    }
    expect((await postToken(request, tokenRequestBody(merchant), { version: API_VERSION })).status()).toBe(200);
    for (const form of [false, true]) {
      const served = await postToken(request, tokenRequestBody(merchant), { version: null, form });
      expect(served.status(), await served.text()).toBe(200);
      expect(((await served.json()) as TokenAnswer).token_type).toBe('Bearer');
    }
  });

  test('a body that is not JSON is 400 12', async ({ request }) => {
    const merchant = await createMerchant('TOKJ');
    const response = await request.post(`${AUTH_URL}/token`, {
      headers: { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'application/json' },
      data: Buffer.from(`{"action":"authorize","client_id":"${merchant.clientId}"`),
    });
    await expectOauthError(response, 400, '12', 'invalid_request');
    // The body is checked before ALG-API-VERSION.
    const withoutVersion = await request.post(`${AUTH_URL}/token`, {
      headers: { 'Content-Type': 'application/json' },
      data: Buffer.from('{oops'),
    });
    await expectError(withoutVersion, 400, '12', 'boolean');
  });

  test('a text/plain body is 400 12', async ({ request }) => {
    const merchant = await createMerchant('TOKP');
    const response = await request.post(`${AUTH_URL}/token`, {
      headers: { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'text/plain' },
      data: Buffer.from(JSON.stringify(tokenRequestBody(merchant))),
    });
    await expectOauthError(response, 400, '12', 'invalid_request');
  });

  test('missing client_id is 400 10 invalid_request', async ({ request }) => {
    const merchant = await createMerchant('TOKM');
    const rest = tokenRequestBody(merchant);
    delete rest.client_id;
    await expectOauthError(await postToken(request, rest), 400, '10', 'invalid_request');
  });

  test('GET on the token endpoint is 405 with Allow: POST, OPTIONS', async ({ request }) => {
    const response = await request.get(`${AUTH_URL}/token`, { headers: { 'ALG-API-VERSION': API_VERSION } });
    await expectError(response, 405, '31', 'boolean');
    expect(response.headers()['allow']).toBe('POST, OPTIONS');
  });
});
