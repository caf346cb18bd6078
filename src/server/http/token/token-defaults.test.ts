import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SETUP_TIMEOUT, testMerchant, type TestDatabase } from '@tests/support/procedure-test-support';
import { issueCredential } from '@/server/modules/access/credentials';
import { openApiDocument } from '@/server/api/openapi/document';
import { handleApiRequest } from '../node-api';

// Issue 30, points 1 to 3: what a stock OAuth client or a client generated from the document
// sends works unmodified. ALG-API-VERSION may be left out (the default version applies) but a
// sent one must be known; a scope without create:token gets it implied; and the document names
// the instance's address only in `servers`, so `audience` is any URI there, checked by the server.

const ORIGIN = 'https://pay.instance.test';
process.env.PUBLIC_ORIGIN = ORIGIN;
const API = `${ORIGIN}/api/`;

let database: TestDatabase;
let server: Server;
let local: string;
let client: { client_id: string; client_secret: string };
let narrow: { client_id: string; client_secret: string };
let tokenless: { client_id: string; client_secret: string };
const slot = globalThis as typeof globalThis & { __payDatabase?: Promise<unknown> };

beforeAll(async () => {
  database = await openTestDatabase();
  // The service's database handle (platform/db/client.ts) is this test's embedded database.
  slot.__payDatabase = Promise.resolve({ prisma: database.prisma, handle: { close: async () => {} }, appliedMigrations: [] });
  await testMerchant(database.prisma, 'DEF1');
  const owner = { merchantCode: 'DEF1' };
  client = await issueCredential(database.prisma, { owner });
  narrow = await issueCredential(database.prisma, { owner, scopes: ['create:token', 'get:charges'] });
  tokenless = await issueCredential(database.prisma, { owner, scopes: ['get:charges'] });
  server = createServer((request, response) => {
    if (!handleApiRequest(request, response)) response.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, SETUP_TIMEOUT);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  slot.__payDatabase = undefined;
  await database.close();
});

type Answer = { status: number; body: Record<string, unknown> };

async function token(body: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${local}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const grant = (credentials: { client_id: string; client_secret: string }, extra: Record<string, string> = {}) => ({
  grant_type: 'client_credentials',
  client_id: credentials.client_id,
  client_secret: credentials.client_secret,
  ...extra,
});

const codeOf = (answer: Answer) => (answer.body.meta as { status: { code: string } }).status.code;

describe('ALG-API-VERSION', () => {
  it('may be left out of a token request: the default version applies', async () => {
    const answer = await token(grant(client));
    expect(answer.status).toBe(200);
    expect(answer.body.token_type).toBe('Bearer');
  });

  it('is 400 11 at the token endpoint when sent with an unknown value', async () => {
    for (const version of ['2', '', '1709847566']) {
      const answer = await token(grant(client), { 'alg-api-version': version });
      expect(answer.status, version).toBe(400);
      expect(codeOf(answer)).toBe('11');
      expect(answer.body.error).toBe('invalid_request');
    }
    expect((await token(grant(client), { 'alg-api-version': '1709847567' })).status).toBe(200);
  });

  it('may be left out of an API call, and is 400 11 there when unknown', async () => {
    const { access_token } = (await token(grant(client))).body as { access_token: string };
    const call = (headers: Record<string, string>) =>
      fetch(`${local}/api/refund?merchant_code=DEF1`, { headers: { authorization: `Bearer ${access_token}`, ...headers } });
    const served = await call({});
    expect(served.status).toBe(200);
    expect(((await served.json()) as { success: string }).success).toBe('true');
    expect((await call({ 'alg-api-version': '1709847567' })).status).toBe(200);
    const refused = await call({ 'alg-api-version': '2' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { meta: { status: { code: string } } }).meta.status.code).toBe('11');
  });

  it('is optional in the document, with its default, on every operation that takes it', () => {
    const parameters = Object.values(openApiDocument().paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, { parameters?: { name: string; required?: boolean; schema?: unknown }[] }>)
        .flatMap((operation) => (typeof operation === 'object' && operation.parameters) || [])
        .filter((parameter) => parameter.name === 'ALG-API-VERSION'),
    );
    expect(parameters.length).toBeGreaterThanOrEqual(9);
    for (const parameter of parameters) {
      expect(parameter.required).toBe(false);
      expect(parameter.schema).toMatchObject({ enum: ['1709847567'], default: '1709847567' });
    }
  });
});

describe('scope', () => {
  it('without create:token gets it implied', async () => {
    const answer = await token(grant(narrow, { scope: 'get:charges' }));
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('create:token get:charges');
    expect((await token(grant(narrow, { scope: 'get:charges create:token' }))).body.scope).toBe('get:charges create:token');
  });

  it('outside the credential set stays 400 invalid_scope, the implied create:token included', async () => {
    for (const [credentials, scope] of [
      [narrow, 'post:charges'],
      [narrow, 'get:charges post:charges'],
      [tokenless, 'get:charges'],
    ] as const) {
      const answer = await token(grant(credentials, { scope }));
      expect(answer.status, scope).toBe(400);
      expect(answer.body.error).toBe('invalid_scope');
      expect(codeOf(answer)).toBe('10');
    }
    expect((await token(grant(tokenless))).body.error).toBe('invalid_scope');
  });
});

describe('audience', () => {
  it("is this environment's {base_url}/, else 400 invalid_request", async () => {
    expect((await token(grant(client, { audience: API }))).status).toBe(200);
    const other = await token(grant(client, { audience: 'https://pay.other.test/api/' }));
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_request');
    expect((other.body.errors as { field: string }[])[0]?.field).toBe('audience');
  });

  it('is a URI string in the document, and the instance address is only under servers', () => {
    const document = openApiDocument();
    const token = (document.paths?.['/token'] as { post: Record<string, unknown> }).post;
    const body = (token.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown> } }> }).content[
      'application/json'
    ]!.schema.properties;
    expect(body.audience).toMatchObject({ type: 'string', format: 'uri' });
    expect((body.audience as { description: string }).description).toContain('{base_url}/');
    expect(token['x-validation-rules']).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'audience' })]));

    // Every string of the document that names the origin is a `url` of a `servers` entry.
    const outside: string[] = [];
    const walk = (value: unknown, at: string[]) => {
      if (typeof value === 'string') {
        const inServers = at.at(-3) === 'servers' || at.at(-2) === 'servers';
        if (value.includes('pay.instance.test') && !(inServers && at.at(-1) === 'url')) outside.push(at.join('/'));
      } else if (value && typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) walk(item, [...at, key]);
      }
    };
    walk(document, []);
    expect(outside).toEqual([]);
    expect(JSON.stringify(document.servers)).toContain(ORIGIN);
  });
});
