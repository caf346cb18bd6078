import { expect, test } from '../support/contract';
import { type APIRequestContext } from '@playwright/test';
import { API_VERSION, AUTH_URL, BASE_URL, ORIGIN, createMerchant } from '../support/service';

// GET {base_url}/openapi.json (docs/DESIGN.md 1-3): public, OpenAPI 3.1, every documented path.

type Parameter = { name: string; in: string; required?: boolean; schema?: Record<string, unknown> };
type Response = {
  description?: string;
  links?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { $ref?: string } }>;
};
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<string, Response>;
  security?: Record<string, string[]>[];
};
type PathItem = Record<string, unknown> & { servers?: { url: string }[] };
type Document = {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }> };
  security?: Record<string, string[]>[];
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The documented operations: path, method, its success type and the path parameters. */
const EXPECTED: { path: string; method: (typeof METHODS)[number]; success: 'string' | 'boolean'; pathParams: string[] }[] = [
  { path: '/charges', method: 'post', success: 'string', pathParams: [] },
  {
    path: '/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}',
    method: 'get',
    success: 'boolean',
    pathParams: ['merchant_code', 'merchant_operation_number', 'transaction_id'],
  },
  {
    path: '/charges/{merchant_code}/{merchant_operation_number}',
    method: 'delete',
    success: 'boolean',
    pathParams: ['merchant_code', 'merchant_operation_number'],
  },
  { path: '/refund', method: 'post', success: 'string', pathParams: [] },
  { path: '/refund', method: 'get', success: 'string', pathParams: [] },
  {
    path: '/refund/{merchant_code}/{merchant_operation_number}',
    method: 'get',
    success: 'string',
    pathParams: ['merchant_code', 'merchant_operation_number'],
  },
  { path: '/events', method: 'get', success: 'boolean', pathParams: [] },
  { path: '/token', method: 'post', success: 'boolean', pathParams: [] },
];

async function fetchDocument(request: APIRequestContext): Promise<Document> {
  const response = await request.get(`${BASE_URL}/openapi.json`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  return (await response.json()) as Document;
}

function operationsOf(item: PathItem): string[] {
  return METHODS.filter((method) => method in item);
}

test('the document is public OpenAPI 3.1.0 with exactly the interface and card-on-file paths and methods', async ({
  request,
}) => {
  // No Authorization and no ALG-API-VERSION.
  const document = await fetchDocument(request);
  expect(document.openapi).toBe('3.1.0');
  expect(typeof document.info.title).toBe('string');
  expect(document.info.version).toBe('1.0.0');
  expect(document.servers?.map((server) => server.url)).toEqual([BASE_URL]);
  expect(Object.keys(document.paths).sort()).toEqual(
    [
      '/.well-known/jwks.json',
      '/.well-known/oauth-authorization-server',
      '/charges',
      '/charges/{merchant_code}/{merchant_operation_number}',
      '/charges/{merchant_code}/{merchant_operation_number}/capture',
      '/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}',
      '/customers',
      '/customers/{merchant_code}/{customer_id}',
      '/customers/{merchant_code}/{customer_id}/cards',
      '/customers/{merchant_code}/{customer_id}/cards/{card_id}',
      '/events',
      '/refund',
      '/refund/{merchant_code}/{merchant_operation_number}',
      '/openapi.json',
      '/token',
      '/webhooks/keys',
      '/webhooks/public-key',
    ].sort(),
  );
  const methods = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [path, operationsOf(item).sort()]));
  expect(methods).toEqual({
    '/.well-known/jwks.json': ['get'],
    '/.well-known/oauth-authorization-server': ['get'],
    '/charges': ['post'],
    '/charges/{merchant_code}/{merchant_operation_number}': ['delete'],
    '/charges/{merchant_code}/{merchant_operation_number}/capture': ['post'],
    '/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}': ['get'],
    '/customers': ['post'],
    '/customers/{merchant_code}/{customer_id}': ['get'],
    '/customers/{merchant_code}/{customer_id}/cards': ['post'],
    '/customers/{merchant_code}/{customer_id}/cards/{card_id}': ['delete'],
    '/events': ['get'],
    '/refund': ['get', 'post'],
    '/refund/{merchant_code}/{merchant_operation_number}': ['get'],
    '/openapi.json': ['get'],
    '/token': ['post'],
    '/webhooks/keys': ['get'],
    '/webhooks/public-key': ['get'],
  });
  // The token endpoint and its key set live on {auth_url}, and under {base_url} for generators
  // that read only the top-level server; the API paths use the document's server.
  const onAuthUrl = ['/.well-known/jwks.json', '/.well-known/oauth-authorization-server', '/token'];
  for (const [path, item] of Object.entries(document.paths)) {
    if (onAuthUrl.includes(path))
      expect(
        item.servers?.map((server) => server.url),
        path,
      ).toEqual([AUTH_URL, BASE_URL]);
    else expect(item.servers, path).toBeUndefined();
  }
});

test('the token endpoint and its documents answer under {base_url} as under {auth_url}', async ({ request }) => {
  const merchant = await createMerchant('OAB');
  for (const url of [AUTH_URL, BASE_URL]) {
    // No ALG-API-VERSION: the default version applies.
    const token = await request.post(`${url}/token`, {
      form: { grant_type: 'client_credentials', client_id: merchant.clientId, client_secret: merchant.clientSecret },
    });
    expect(token.status(), url).toBe(200);
    expect(((await token.json()) as { token_type: string }).token_type).toBe('Bearer');
    const keys = (await (await request.get(`${url}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(keys.keys.length).toBeGreaterThan(0);
    const metadata = (await (await request.get(`${url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.token_endpoint).toBe(`${AUTH_URL}/token`);
  }
});

test('a charge links to its query and its cancellation, and ALG-API-VERSION has its default', async ({ request }) => {
  const document = await fetchDocument(request);
  const charge = document.paths['/charges']!.post as Operation;
  expect(charge.responses['200']!.links).toEqual({
    getTransaction: expect.objectContaining({
      operationId: 'getTransaction',
      parameters: {
        merchant_code: '$response.body#/merchant_code',
        merchant_operation_number: '$response.body#/merchant_operation_number',
        transaction_id: '$response.body#/transaction/transaction_id',
      },
    }),
    cancelOperation: expect.objectContaining({
      operationId: 'cancelOperation',
      parameters: {
        merchant_code: '$response.body#/merchant_code',
        merchant_operation_number: '$response.body#/merchant_operation_number',
      },
    }),
  });
  const version = charge.parameters!.find((parameter) => parameter.name === 'ALG-API-VERSION')!;
  expect(version.schema).toMatchObject({ enum: [API_VERSION], default: API_VERSION });
  expect(version.required).toBe(false);
});

test("the document names this instance's address only in `servers`; `audience` is a URI described as {base_url}/", async ({
  request,
}) => {
  const document = await fetchDocument(request);
  const outside: string[] = [];
  const walk = (value: unknown, at: string[]) => {
    if (typeof value === 'string') {
      const serverUrl = at.at(-1) === 'url' && at.at(-3) === 'servers';
      if (value.includes(ORIGIN) && !serverUrl) outside.push(`${at.join('/')}: ${value}`);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, [...at, key]);
    }
  };
  walk(document, []);
  expect(outside).toEqual([]);
  const token = document.paths['/token']!.post as Operation & {
    requestBody: {
      content: Record<string, { schema: { properties: Record<string, { format?: string; description?: string }> } }>;
    };
  };
  for (const media of ['application/json', 'application/x-www-form-urlencoded']) {
    const audience = token.requestBody.content[media]!.schema.properties.audience!;
    expect(audience).toMatchObject({ type: 'string', format: 'uri' });
    expect(audience.description).toContain('{base_url}/');
  }
});

test('every operation documents ALG-API-VERSION (optional), its path parameters and its error envelope', async ({ request }) => {
  const document = await fetchDocument(request);
  for (const expected of EXPECTED) {
    const operation = document.paths[expected.path]![expected.method] as Operation;
    await test.step(`${expected.method.toUpperCase()} ${expected.path}`, () => {
      const parameters = operation.parameters ?? [];
      const version = parameters.find((parameter) => parameter.name === 'ALG-API-VERSION');
      expect(version?.in).toBe('header');
      expect(version?.required).toBe(false);
      expect(version?.schema).toMatchObject({ default: API_VERSION });
      expect(
        parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => [parameter.name, parameter.required])
          .sort(),
      ).toEqual(expected.pathParams.map((name) => [name, true]).sort());

      expect(operation.responses['200']).toBeDefined();
      const errorStatuses = Object.keys(operation.responses).filter((status) => status !== '200');
      for (const status of ['400', '401', '500']) expect(errorStatuses).toContain(status);
      const schema = expected.success === 'string' ? 'ErrorString' : 'ErrorBoolean';
      for (const status of errorStatuses) {
        expect(Number(status)).toBeGreaterThanOrEqual(400);
        expect(operation.responses[status]!.content?.['application/json']?.schema?.$ref, `${status}`).toBe(
          `#/components/schemas/${schema}`,
        );
      }
      expect(operation.responses['401']!.headers).toHaveProperty('WWW-Authenticate');
    });
  }
});

test('the integrator operations need the bearer token; the token operation does not', async ({ request }) => {
  const document = await fetchDocument(request);
  for (const expected of EXPECTED) {
    const operation = document.paths[expected.path]![expected.method] as Operation;
    const security = operation.security ?? document.security ?? [];
    await test.step(`${expected.method.toUpperCase()} ${expected.path}`, () => {
      if (expected.path === '/token') {
        // client_secret_post (no scheme) or client_secret_basic.
        expect(security).toEqual([{}, { clientSecretBasic: [] }]);
        expect(Object.keys(operation.requestBody?.content ?? {}).sort()).toEqual([
          'application/json',
          'application/x-www-form-urlencoded',
        ]);
      } else {
        // A bearer token only: HTTP Basic is the token endpoint's.
        expect(security).toEqual([{ bearerAuth: [] }]);
      }
    });
  }
});

test('the error schemas are the envelope with the two success types', async ({ request }) => {
  const { components } = await fetchDocument(request);
  for (const [name, success] of [
    ['ErrorString', { type: 'string', const: 'false' }],
    ['ErrorBoolean', { type: 'boolean', const: false }],
  ] as const) {
    const schema = components.schemas[name]!;
    expect(schema.required?.sort()).toEqual(['errors', 'meta', 'success']);
    expect(schema.properties?.success).toEqual(success);
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['success', 'meta', 'errors']));
  }
});

test('GET /refund documents the filters of docs/DESIGN.md 11 and the facilitator header where the interface lists it', async ({
  request,
}) => {
  const document = await fetchDocument(request);
  const list = document.paths['/refund']!.get as Operation;
  expect(
    (list.parameters ?? [])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name)
      .sort(),
  ).toEqual([
    'cursor',
    'end_date',
    'limit',
    'merchant_code',
    'merchant_operation_number',
    'start_date',
    'state',
    'transaction_id',
  ]);
  for (const [path, method] of [
    ['/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}', 'get'],
    ['/charges/{merchant_code}/{merchant_operation_number}', 'delete'],
    ['/refund', 'post'],
    ['/refund', 'get'],
    ['/refund/{merchant_code}/{merchant_operation_number}', 'get'],
  ] as const) {
    const operation = document.paths[path]![method] as Operation;
    const header = (operation.parameters ?? []).find((parameter) => parameter.name === 'payment-facilitator-code');
    expect(header?.in, `${method} ${path}`).toBe('header');
    expect(header?.required ?? false).toBe(false);
  }
  for (const [path, method] of [
    ['/charges', 'post'],
    ['/refund', 'post'],
  ] as const) {
    const operation = document.paths[path]![method] as Operation;
    expect((operation.parameters ?? []).map((parameter) => parameter.name)).toContain('Idempotency-Key');
  }
});
