import { expect, test } from 'vitest';
import { API_VERSION, PayApiError } from '../src/index.js';
import { envelope, json } from './fake-service.js';
import { chargeBody, clientOnFake } from './setup.js';

// Tokens: fetched on first use by client_credentials, shared, renewed before they expire and
// once when the service refuses one.

const ok = () => json(200, { success: true, events: [], next_cursor: null });

test('the first call fetches a token (client_secret_post) and every call carries it with ALG-API-VERSION', async () => {
  const { client, service } = clientOnFake({ scopes: ['post:charges', 'get:events'] });
  service.answer(ok(), ok());
  await client.events.list();
  await client.events.list();
  const [token] = service.tokenCalls();
  expect(service.tokenCalls()).toHaveLength(1);
  expect(token!.headers['alg-api-version']).toBe(API_VERSION);
  expect(token!.headers.authorization).toBeUndefined();
  expect(JSON.parse(token!.body!)).toEqual({
    action: 'authorize',
    grant_type: 'client_credentials',
    scope: 'create:token post:charges get:events',
    client_id: 'client-1',
    client_secret: 'secret-1',
  });
  for (const call of service.apiCalls()) {
    expect(call.headers.authorization).toBe('Bearer token-1');
    expect(call.headers['alg-api-version']).toBe('1709847567');
  }
});

test('client_secret_basic sends the credentials in the Authorization header, not the body', async () => {
  const { client, service } = clientOnFake({ clientAuth: 'basic', clientId: 'id:1', clientSecret: 's e/cret' });
  service.answer(ok());
  await client.events.list();
  const [token] = service.tokenCalls();
  const decoded = Buffer.from(token!.headers.authorization!.replace(/^Basic /, ''), 'base64').toString();
  expect(decoded).toBe('id%3A1:s+e%2Fcret');
  // RFC 6749 4.4.2: the grant form-encoded, with no credentials in it.
  expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect(Object.fromEntries(new URLSearchParams(token!.body))).toEqual({ action: 'authorize', grant_type: 'client_credentials' });
});

test('concurrent first calls share one token request', async () => {
  const { client, service } = clientOnFake();
  service.answer(ok(), ok(), ok());
  await Promise.all([client.events.list(), client.events.list(), client.events.list()]);
  expect(service.tokenCalls()).toHaveLength(1);
});

test('a token is renewed shortly before it expires, not after', async () => {
  const { client, service, clock } = clientOnFake({ tokenTtlSeconds: 600 });
  service.answer(ok(), ok(), ok());
  await client.events.list();
  clock.now += 530_000; // 70 s left: still the same token
  await client.events.list();
  clock.now += 20_000; // 50 s left (under the 60 s margin): a new one
  await client.events.list();
  expect(service.apiCalls().map((call) => call.headers.authorization)).toEqual([
    'Bearer token-1',
    'Bearer token-1',
    'Bearer token-2',
  ]);
});

test('a short-lived token is renewed at the last tenth of its life', async () => {
  const { client, service, clock } = clientOnFake({ tokenTtlSeconds: 10 });
  service.answer(ok(), ok());
  await client.events.list();
  clock.now += 8_500;
  await client.events.list();
  expect(service.tokenCalls()).toHaveLength(1);
});

test('a 401 renews the token once and replays the call with the same Idempotency-Key', async () => {
  const { client, service } = clientOnFake();
  service.answer(json(401, envelope('20', 'Token invalid or expired'), { 'www-authenticate': 'Bearer error="invalid_token"' }));
  service.answer(json(200, { success: 'true' }));
  await client.charges.create(chargeBody);
  const [refused, replayed] = service.apiCalls();
  expect(refused!.headers.authorization).toBe('Bearer token-1');
  expect(replayed!.headers.authorization).toBe('Bearer token-2');
  expect(replayed!.headers['idempotency-key']).toBe(refused!.headers['idempotency-key']);
});

test('a second 401 in a row is the error: no loop of renewals', async () => {
  const { client, service } = clientOnFake();
  const refused = () => json(401, envelope('20', 'Token invalid or expired'));
  service.answer(refused(), refused());
  await expect(client.events.list()).rejects.toMatchObject({ name: 'PayAuthenticationError', status: 401, code: '20' });
  expect(service.tokenCalls()).toHaveLength(2);
  expect(service.apiCalls()).toHaveLength(2);
});

test('refused client credentials are a PayApiError with the OAuth error, not retried', async () => {
  const { client, service } = clientOnFake();
  service.answerToken(
    json(401, {
      ...envelope('22', 'Invalid client credentials'),
      error: 'invalid_client',
      error_description: 'client authentication failed',
    }),
  );
  const error = (await client.events.list().catch((caught: unknown) => caught)) as PayApiError;
  expect(error).toBeInstanceOf(PayApiError);
  expect(error).toMatchObject({ status: 401, code: '22', oauthError: 'invalid_client', attempts: 1 });
  expect(service.apiCalls()).toHaveLength(0);
  // The secret never shows in what an error prints.
  expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('secret-1');
});

test('the token request itself is retried on 503', async () => {
  const { client, service } = clientOnFake();
  service.answerToken(json(503, envelope('02', 'Service briefly unavailable'), { 'retry-after': '1' }));
  service.answer(ok());
  await client.events.list();
  expect(service.tokenCalls()).toHaveLength(2);
});
