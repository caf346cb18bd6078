import * as client from 'openid-client';
import { expect, test } from '../support/contract';
import { AUTH_URL, BASE_URL, ORIGIN, createMerchant } from '../support/service';
import { chargeOne, jwtParts } from './auth-helpers';
import { ALL_SCOPES } from '../support/api-client';

// A standard OAuth 2.0 client (openid-client 6, on oauth4webapi) against the token endpoint:
// RFC 8414 discovery at both addresses, the client_credentials grant with client_secret_basic and
// client_secret_post, its errors as the library reads them, and RFC 6750 challenges from the API.
// The library runs unmodified: no custom fetch, so no ALG-API-VERSION (the default version
// applies) and a scope without create:token (implied).

function discover(server: URL, clientId: string, authentication: client.ClientAuth): Promise<client.Configuration> {
  return client.discovery(server, clientId, undefined, authentication, {
    algorithm: 'oauth2',
    execute: [client.allowInsecureRequests],
  });
}

test('RFC 8414 metadata at {auth_url}/.well-known and at the path-inserted root address, the same document', async ({
  request,
}) => {
  const nested = await request.get(`${AUTH_URL}/.well-known/oauth-authorization-server`);
  const root = await request.get(`${ORIGIN}/.well-known/oauth-authorization-server/oauth`);
  expect(nested.status()).toBe(200);
  expect(root.status()).toBe(200);
  const metadata = (await nested.json()) as Record<string, unknown>;
  expect(await root.json()).toEqual(metadata);
  expect(metadata).toEqual({
    issuer: AUTH_URL,
    token_endpoint: `${AUTH_URL}/token`,
    jwks_uri: `${AUTH_URL}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ALL_SCOPES.split(' '),
    service_documentation: `${ORIGIN}/docs`,
    api_base_url: BASE_URL,
  });
  // Another well-known document is the API's 404, not the console's sign-in page.
  const other = await request.get(`${ORIGIN}/.well-known/openid-configuration`);
  expect(other.status()).toBe(404);
  expect(((await other.json()) as { meta: { status: { code: string } } }).meta.status.code).toBe('30');
});

for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
  test(`discovery and the client_credentials grant with ${method}, then the API with the token`, async ({ request }) => {
    const merchant = await createMerchant(method === 'client_secret_basic' ? 'OCB' : 'OCP');
    const authentication =
      method === 'client_secret_basic'
        ? client.ClientSecretBasic(merchant.clientSecret)
        : client.ClientSecretPost(merchant.clientSecret);
    const config = await discover(new URL(AUTH_URL), merchant.clientId, authentication);
    expect(config.serverMetadata().token_endpoint).toBe(`${AUTH_URL}/token`);

    const tokens = await client.clientCredentialsGrant(config, { scope: 'post:charges get:charges' });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('create:token post:charges get:charges');
    const { payload } = jwtParts(tokens.access_token);
    expect(tokens.expires_in).toBe(payload.exp! - payload.iat!);
    expect(payload.sub).toBe(merchant.clientId);
    expect(payload.aud).toBe(`${BASE_URL}/`);
    expect(payload.iss).toBe(AUTH_URL);

    // The token works on the API, through the library's protected-resource call too.
    const charged = await chargeOne(request, tokens.access_token, merchant.code);
    const url = new URL(`${BASE_URL}/charges/${merchant.code}/${charged.number}/${charged.transactionId}`);
    const answer = await client.fetchProtectedResource(config, tokens.access_token, url, 'GET');
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { operation: { transactions: { transaction_id: string }[] } };
    expect(body.operation.transactions.map((transaction) => transaction.transaction_id)).toEqual([charged.transactionId]);
  });
}

test('the library reads a bad client as invalid_client, by either authentication method', async () => {
  const merchant = await createMerchant('OCX');
  const post = await discover(new URL(AUTH_URL), merchant.clientId, client.ClientSecretPost(`${merchant.clientSecret}x`));
  const postFailure = await client.clientCredentialsGrant(post, { scope: 'create:token' }).catch((error: unknown) => error);
  expect(postFailure).toBeInstanceOf(client.ResponseBodyError);
  expect((postFailure as client.ResponseBodyError).error).toBe('invalid_client');
  expect((postFailure as client.ResponseBodyError).status).toBe(401);

  // RFC 6749 5.2: HTTP Basic that fails is challenged with Basic; the library surfaces the challenge.
  const basic = await discover(new URL(AUTH_URL), merchant.clientId, client.ClientSecretBasic(`${merchant.clientSecret}x`));
  const basicFailure = await client.clientCredentialsGrant(basic, { scope: 'create:token' }).catch((error: unknown) => error);
  expect(basicFailure).toBeInstanceOf(client.WWWAuthenticateChallengeError);
  const challenge = (basicFailure as client.WWWAuthenticateChallengeError).cause[0]!;
  expect(challenge.scheme).toBe('basic');
  expect(challenge.parameters.error).toBe('invalid_client');
  expect((basicFailure as client.WWWAuthenticateChallengeError).status).toBe(401);
});

test('the library reads the API’s 401 as an RFC 6750 invalid_token challenge', async () => {
  const merchant = await createMerchant('OCT');
  const config = await discover(new URL(AUTH_URL), merchant.clientId, client.ClientSecretBasic(merchant.clientSecret));
  const url = new URL(`${BASE_URL}/refund?merchant_code=${merchant.code}`);
  const failure = await client.fetchProtectedResource(config, 'not.a.token', url, 'GET').catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(client.WWWAuthenticateChallengeError);
  const challenges = (failure as client.WWWAuthenticateChallengeError).cause;
  expect(challenges).toHaveLength(1);
  expect(challenges[0]!.scheme).toBe('bearer');
  expect(challenges[0]!.parameters).toEqual({
    realm: 'pay',
    error: 'invalid_token',
    error_description: 'token invalid or expired',
  });
  expect((failure as client.WWWAuthenticateChallengeError).status).toBe(401);
});
