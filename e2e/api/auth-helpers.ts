import { readFileSync } from 'node:fs';
import { type APIRequestContext, type APIResponse } from '@playwright/test';
import { expect, test } from '../support/contract';
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import {
  ALL_SCOPES,
  charge,
  chargeBody,
  headers,
  operationNumber,
  read,
  refundBody,
  refundItem,
  tokenFor,
  type Credential,
  type MethodName,
} from '../support/api-client';
import type { ErrorReply } from '../support/api-types';
import {
  API_VERSION,
  AUTH_URL,
  BASE_URL,
  ORIGIN,
  createMerchant,
  operator,
  operatorConsole,
  settleNow,
  storedOperation,
  uniqueCode,
  type TestMerchant,
} from '../support/service';

// Helpers shared by the token, authorization, refund, protocol and OpenAPI suites.

export const ISSUER = `${ORIGIN}/oauth`;
export const AUDIENCE = `${BASE_URL}/`;
export const PORT = Number(process.env.E2E_PORT ?? 3210);

export function tokenRequestBody(credential: Credential, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    action: 'authorize',
    grant_type: 'client_credentials',
    audience: AUDIENCE,
    client_id: credential.clientId,
    client_secret: credential.clientSecret,
    scope: ALL_SCOPES,
    ...overrides,
  };
}

/**
 * POST {auth_url}/token with a JSON body (or a form body), ALG-API-VERSION unless told otherwise,
 * from `address` (X-Forwarded-For) when given, to the service at `origin` (the API suite's by default).
 */
export async function postToken(
  request: APIRequestContext,
  body: Record<string, string>,
  options: { form?: boolean; version?: string | null; address?: string; origin?: string; authorization?: string } = {},
): Promise<APIResponse> {
  const version = options.version === undefined ? API_VERSION : options.version;
  const headers: Record<string, string> = {
    ...(version === null ? {} : { 'ALG-API-VERSION': version }),
    ...(options.authorization ? { Authorization: options.authorization } : {}),
    ...(options.address ? { 'x-forwarded-for': options.address } : {}),
  };
  const url = `${options.origin ?? ORIGIN}/oauth/token`;
  if (options.form) return request.post(url, { headers, form: body });
  return request.post(url, { headers, data: body });
}

/** RFC 6749 2.3.1: `Basic base64(urlencode(client_id):urlencode(client_secret))`. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export type TokenAnswer = {
  action: string;
  success: boolean;
  access_token: string;
  scope: string;
  expires_in: number;
  token_type: string;
  authorization: { meta: ErrorReply['meta'] };
};

export type TokenError = ErrorReply & { error: string; error_description: string };

const MESSAGES: Record<string, [string, string]> = {
  '00': ['Procesado', 'Processed'],
  '01': ['Error inesperado', 'Unexpected error'],
  '10': ['Solicitud inválida', 'Invalid request'],
  '11': ['Versión de API no soportada', 'Unsupported ALG-API-VERSION'],
  '12': ['El cuerpo no es JSON o no es application/json', 'Body is not JSON or not application/json'],
  '20': ['Token inválido o expirado', 'Token invalid or expired'],
  '21': ['Acceso denegado', 'Access denied'],
  '22': ['Credenciales de cliente inválidas', 'Invalid client credentials'],
  '30': ['Recurso no encontrado', 'Resource not found'],
  '31': ['Método HTTP no permitido', 'HTTP method not allowed'],
  '40': ['Solicitud en conflicto con una anterior', 'Request conflicts with an earlier one'],
  '41': ['El estado no lo permite', 'The current state does not allow it'],
  '42': ['El medio de pago no lo permite', 'The payment method does not allow it'],
  '51': ['El cuerpo excede 64 KiB', 'Body larger than 64 KiB'],
};

/** meta.status with its code and the two localized messages (es-PE then en-US). */
export function expectMeta(meta: unknown, code: string): void {
  const status = (meta as ErrorReply['meta']).status;
  expect(status.code).toBe(code);
  expect(status.message_ilgn.map((message) => message.locale)).toEqual(['es-PE', 'en-US']);
  for (const message of status.message_ilgn) {
    expect(typeof message.value).toBe('string');
    expect(message.value.length).toBeGreaterThan(0);
  }
  const known = MESSAGES[code];
  if (known) expect(status.message_ilgn.map((message) => message.value)).toEqual(known);
}

/**
 * The error envelope of docs/DESIGN.md 4: exact HTTP status, `success` "false" or false, meta code,
 * localized messages and a well-formed `errors` list. Returns the body for further checks.
 */
export async function expectError<T = ErrorReply>(
  response: APIResponse,
  status: number,
  code: string,
  success: 'string' | 'boolean',
): Promise<T> {
  const text = await response.text();
  expect(response.status(), text).toBe(status);
  const body = JSON.parse(text) as ErrorReply;
  expect(body.success).toBe(success === 'string' ? 'false' : false);
  expectMeta(body.meta, code);
  expect(Array.isArray(body.errors)).toBe(true);
  for (const error of body.errors) {
    expect(typeof error.code).toBe('string');
    expect(typeof error.message).toBe('string');
    if ('field' in error) expect(typeof error.field).toBe('string');
  }
  expect(response.headers()['content-type']).toContain('application/json');
  expect(response.headers()['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  return body as T;
}

/** The parameters of a one-challenge WWW-Authenticate header, with its scheme under `scheme`. */
export function challengeOf(header: string | undefined): Record<string, string> {
  const match = /^(\S+)(?: (.*))?$/.exec(header ?? '');
  if (!match) return {};
  const params: Record<string, string> = { scheme: match[1]! };
  for (const [, name, value] of (match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"(?:, |$)/g)) {
    params[name!] = value!.replace(/\\(.)/g, '$1');
  }
  return params;
}

/**
 * 401 20 with RFC 6750 3's challenge: `Bearer realm="pay"`, and `error="invalid_token"` with a
 * description exactly when a bearer token was sent (3.1: a request without one gets no error code).
 */
export async function expectUnauthenticated(
  response: APIResponse,
  success: 'string' | 'boolean',
  tokenSent = true,
): Promise<ErrorReply> {
  const body = await expectError(response, 401, '20', success);
  const challenge = challengeOf(response.headers()['www-authenticate']);
  if (tokenSent) {
    expect(challenge).toEqual({ scheme: 'Bearer', realm: 'pay', error: 'invalid_token', error_description: expect.any(String) });
    expect(challenge.error_description).toBe(body.errors[0]!.message);
  } else {
    expect(challenge).toEqual({ scheme: 'Bearer', realm: 'pay' });
  }
  return body;
}

/** A facilitator with a credential of every scope. */
export async function createFacilitator(prefix = 'F'): Promise<{ code: string } & Credential> {
  const admin = operator();
  const code = uniqueCode(prefix);
  await operatorConsole().platform.createFacilitator.mutate({ code, name: `Facilitator ${code}` });
  const credential = await admin.issueCredential.mutate({ owner: { facilitatorCode: code } });
  return { code, clientId: credential.client_id, clientSecret: credential.client_secret };
}

export type Charged = { number: string; transactionId: string; amount: string; body: Record<string, unknown> };

/** A charge through `method`; returns its operation number and transaction id. */
export async function chargeOne(
  request: APIRequestContext,
  token: string,
  merchantCode: string,
  method: MethodName = 'CARD',
  options: { amount?: string; number?: string } = {},
): Promise<Charged> {
  const number = options.number ?? operationNumber(method.toLowerCase());
  const amount = options.amount ?? '15000';
  const response = await charge(request, token, chargeBody(merchantCode, number, method, { amount }));
  const { status, body } = await read<{ transaction: { transaction_id: string } }>(response);
  expect(status, JSON.stringify(body)).toBe(200);
  return { number, transactionId: body.transaction.transaction_id, amount, body: body as unknown as Record<string, unknown> };
}

/** A merchant with a LIQUIDADO CARD operation and an AUTORIZADO CARD operation. */
export async function merchantWithOperations(request: APIRequestContext, prefix = 'AZ') {
  const merchant = await createMerchant(prefix);
  const token = await tokenFor(request, merchant);
  const settled = await chargeOne(request, token, merchant.code, 'CARD');
  expect(await settleNow(merchant.code)).toBe(1);
  const authorized = await chargeOne(request, token, merchant.code, 'CARD');
  return { merchant, token, settled, authorized };
}

/** The six integrator endpoints, addressed at one merchant's operations. */
export type Endpoint = {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  body?: object;
  scope: 'post:charges' | 'get:charges' | 'delete:charges';
  success: 'string' | 'boolean';
};

export function endpointsFor(
  merchantCode: string,
  target: { settled: Charged; authorized: Charged },
  freshNumber = operationNumber('fresh'),
): Endpoint[] {
  return [
    {
      name: 'POST /charges',
      method: 'POST',
      url: `${BASE_URL}/charges`,
      body: chargeBody(merchantCode, freshNumber, 'CARD'),
      scope: 'post:charges',
      success: 'string',
    },
    {
      name: 'GET /charges/{m}/{o}/{t}',
      method: 'GET',
      url: `${BASE_URL}/charges/${merchantCode}/${target.authorized.number}/${target.authorized.transactionId}`,
      scope: 'get:charges',
      success: 'boolean',
    },
    {
      name: 'DELETE /charges/{m}/{o}',
      method: 'DELETE',
      url: `${BASE_URL}/charges/${merchantCode}/${target.authorized.number}`,
      scope: 'delete:charges',
      success: 'boolean',
    },
    {
      name: 'POST /refund',
      method: 'POST',
      url: `${BASE_URL}/refund`,
      body: refundBody(merchantCode, [refundItem(target.settled.number, target.settled.transactionId)]),
      scope: 'post:charges',
      success: 'string',
    },
    {
      name: 'GET /refund',
      method: 'GET',
      url: `${BASE_URL}/refund?merchant_code=${merchantCode}`,
      scope: 'get:charges',
      success: 'string',
    },
    {
      name: 'GET /refund/{m}/{o}',
      method: 'GET',
      url: `${BASE_URL}/refund/${merchantCode}/${target.settled.number}`,
      scope: 'get:charges',
      success: 'string',
    },
  ];
}

/** The target merchant's rows are exactly as set up: nothing charged, cancelled or refunded. */
export async function expectUnchanged(
  target: { merchant: TestMerchant; settled: Charged; authorized: Charged },
  freshNumber: string,
) {
  const settled = await storedOperation(target.merchant.code, target.settled.number);
  expect(settled.transactions.map((row) => row.state)).toEqual(['LIQUIDADO']);
  expect(settled.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual([
    'REGISTRADO',
    'PENDIENTE',
    'AUTORIZADO',
    'LIQUIDADO',
  ]);
  expect(settled.refunds).toEqual([]);
  const authorized = await storedOperation(target.merchant.code, target.authorized.number);
  expect(authorized.transactions.map((row) => row.state)).toEqual(['AUTORIZADO']);
  expect(authorized.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  expect(authorized.refunds).toEqual([]);
  await expect(storedOperation(target.merchant.code, freshNumber)).rejects.toThrow(/no such operation/);
}

/** Calls every endpoint with `token` and expects 401 20 with WWW-Authenticate: Bearer. */
export async function expectRejectedEverywhere(
  request: APIRequestContext,
  target: { merchant: TestMerchant; settled: Charged; authorized: Charged },
  token: string,
  label: string,
) {
  const fresh = operationNumber('fresh');
  for (const endpoint of endpointsFor(target.merchant.code, target, fresh)) {
    const response = await call(request, endpoint, headers(token));
    await test.step(`${label}: ${endpoint.name}`, async () => {
      await expectUnauthenticated(response, endpoint.success, /\S/.test(token));
    });
  }
  await expectUnchanged(target, fresh);
}

export async function call(request: APIRequestContext, endpoint: Endpoint, requestHeaders: Record<string, string>) {
  return request.fetch(endpoint.url, {
    method: endpoint.method,
    headers: requestHeaders,
    ...(endpoint.body ? { data: endpoint.body } : {}),
  });
}

export function withoutAuthorization(): Record<string, string> {
  return { 'ALG-API-VERSION': API_VERSION };
}

// ---- JWT crafting -------------------------------------------------------------------------

export function b64url(value: string | Uint8Array): string {
  return Buffer.from(value).toString('base64url');
}

export function jwtParts(token: string): { header: Record<string, unknown>; payload: JWTPayload; signature: string } {
  const [header, payload, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header!, 'base64url').toString('utf8')) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as JWTPayload,
    signature: signature ?? '',
  };
}

export async function serverJwks(request: APIRequestContext): Promise<JWK[]> {
  const response = await request.get(`${AUTH_URL}/.well-known/jwks.json`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { keys: JWK[] }).keys;
}

export async function ownEs256Key() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, publicKey, publicJwk: await exportJWK(publicKey) };
}

export async function signEs256(privateKey: CryptoKey, kid: string, payload: JWTPayload): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(privateKey);
}

/** The SPKI PEM of the server's public JWK (the classic HMAC-confusion secret). */
export async function publicPem(jwk: JWK): Promise<string> {
  const key = (await importJWK({ ...jwk, ext: true }, 'ES256')) as CryptoKey;
  return exportSPKI(key);
}

export async function signHs256(secret: string, kid: string, payload: JWTPayload): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

let serverKey: Promise<{ kid: string; privateKey: CryptoKey }> | undefined;

/**
 * The service's token signing key: the suite starts the service with this test-only key
 * (TOKEN_SIGNING_JWK), so it can forge tokens that are correctly signed but wrong in exactly
 * one claim (audience, issuer, expiry), and a rejection proves that claim is checked.
 */
export function serverSigningKey(): Promise<{ kid: string; privateKey: CryptoKey }> {
  serverKey ??= (async () => {
    const jwk = JSON.parse(readFileSync('e2e/support/test-signing-key.json', 'utf8')) as JWK & { kid: string };
    return { kid: jwk.kid, privateKey: (await importJWK(jwk, 'ES256')) as CryptoKey };
  })();
  return serverKey;
}

/** Claims of a valid token of this merchant, for forging. */
export function claimsFor(merchantCode: string, clientId: string, overrides: JWTPayload = {}): JWTPayload {
  const iat = Math.floor(Date.now() / 1000);
  return {
    sub: clientId,
    scope: ALL_SCOPES,
    merchant_code: merchantCode,
    iss: ISSUER,
    aud: AUDIENCE,
    iat,
    exp: iat + 600,
    jti: crypto.randomUUID(),
    ...overrides,
  };
}

export type { TestMerchant };
