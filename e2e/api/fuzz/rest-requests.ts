import fc from 'fast-check';
import { pointer, type Contract, type Operation, type Parameter, type Schema } from '../../support/openapi-contract';
import { HEADER_SAFE_STRINGS, NAUGHTY_STRINGS, wellFormed } from '../../support/naughty-strings';
import { mutatedArbitrary, validArbitrary, type Hints } from '../../support/schema-arbitrary';
import { API_VERSION } from '../../support/service';
import { encodeSegment, endpoint, segmentValues, type Draft, type FuzzRequest } from './request';

// Bad requests for every REST and token endpoint, derived from the OpenAPI document: a valid
// request built from the request schemas (hints fill in what a schema cannot say: Luhn, the fuzz
// merchant's own operation), then broken in one way, with the status and code docs/DESIGN.md 3-4 say
// it must get.

export type RestTarget = {
  contract: Contract;
  merchantCode: string;
  otherMerchantCode: string;
  token: string;
  audience: string;
  /** A LIQUIDADO CARD operation of the merchant (refunds and cancellations of it stay refused). */
  settled: { number: string; transactionId: string; amount: string };
};

const MAX_BODY = 64 * 1024;
const JSON_TYPE = { 'Content-Type': 'application/json' };
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'text/json',
  'application/json-patch+json',
];
const PEN_ONLY = new Set(['YAPE', 'QR']);

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const sizeExpectation = (body: Buffer, otherwise: [number, string]): [number, string] =>
  body.length > MAX_BODY ? [413, '51'] : otherwise;

function operationOf(target: RestTarget, template: string, method: string): Operation {
  return target.contract.operation(
    target.contract.routes.find((route) => route.template === template)!,
    method,
  )!;
}

function bodySchemaOf(target: RestTarget, template: string): { schema: Schema; at: string } {
  const schema = operationOf(target, template, 'post').requestBody!.content!['application/json']!.schema!;
  return { schema, at: pointer('paths', template, 'post', 'requestBody', 'content', 'application/json', 'schema') };
}

/** A validator of one documented parameter (header, path or query) of an operation. */
function parameterCheck(target: RestTarget, template: string, method: string, name: string): (value: string) => boolean {
  const parameters = operationOf(target, template, method).parameters ?? [];
  const index = parameters.findIndex((parameter) => parameter.name === name);
  if (index < 0) return () => false;
  const validate = target.contract.validator(pointer('paths', template, method, 'parameters', String(index), 'schema'));
  return (value) => validate(value);
}

function integratorHeaders(target: RestTarget): Record<string, string> {
  return { Authorization: `Bearer ${target.token}`, 'ALG-API-VERSION': API_VERSION };
}

// ---- Header mutations ---------------------------------------------------------------------------

/** ALG-API-VERSION values the document's enum does not hold (one not sent is the default version). */
function badVersions(target: RestTarget, template: string, method: string): fc.Arbitrary<string> {
  const valid = parameterCheck(target, template, method, 'ALG-API-VERSION');
  return fc
    .oneof(
      fc.constantFrom('1', '1709847568', '17098475670', 'v1709847567', '1709847567,1709847567'),
      fc.constantFrom(...HEADER_SAFE_STRINGS),
    )
    .filter((value) => value === value.trim() && value.length > 0 && !valid(value));
}

/** Authorization values that carry no valid token for this merchant (null: not sent). */
function badAuthorizations(token: string): fc.Arbitrary<string | null> {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
  const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
  return fc.oneof(
    fc.constant(null),
    fc.constantFrom(
      'Bearer',
      `Bearer ${header}.${payload}.${flipped}`,
      `Bearer ${none}.${payload}.`,
      `Bearer ${header}.${payload}`,
      `Bearer ${token}x`,
      `Basic ${Buffer.from('client:secret').toString('base64')}`,
      token,
    ),
    fc.constantFrom(...HEADER_SAFE_STRINGS).map((text) => `Bearer ${text}`.trim()),
  );
}

/** Idempotency-Key values the documented pattern refuses (sent, never empty). */
function badIdempotencyKeys(target: RestTarget, template: string): fc.Arbitrary<string> {
  const valid = parameterCheck(target, template, 'post', 'Idempotency-Key');
  return fc
    .oneof(
      fc.integer({ min: 256, max: 2_000 }).map((length) => 'k'.repeat(length)),
      fc.constantFrom('a b', 'key with spaces', ...HEADER_SAFE_STRINGS),
    )
    .filter((value) => value === value.trim() && value.length > 0 && !valid(value));
}

/** payment-facilitator-code values of no facilitator of this merchant (it has none). */
const foreignFacilitators = fc.oneof(fc.stringMatching(/^[A-Z][A-Z0-9]{2,11}$/), fc.constantFrom(...HEADER_SAFE_STRINGS));

function withHeader(headers: Record<string, string>, name: string, value: string | null): Record<string, string> {
  const { [name]: _dropped, ...rest } = headers;
  return value === null ? rest : { ...rest, [name]: value };
}

/** The header mutations every integrator endpoint gets, on an otherwise valid request. */
function headerDrafts(target: RestTarget, template: string, method: string, body?: Buffer): fc.Arbitrary<Draft>[] {
  const headers = { ...integratorHeaders(target), ...(body ? JSON_TYPE : {}) };
  return [
    badVersions(target, template, method).map((value) => ({
      category: 'ALG-API-VERSION',
      detail: String(value),
      headers: withHeader(headers, 'ALG-API-VERSION', value),
      body,
      expected: [400, '11'],
    })),
    // With or without ALG-API-VERSION: left out, the default version applies and the token is next.
    fc.tuple(badAuthorizations(target.token), fc.boolean()).map(([value, versioned]) => ({
      category: 'Authorization',
      detail: `${String(value).slice(0, 80)}${versioned ? '' : ' (no ALG-API-VERSION)'}`,
      headers: withHeader(versioned ? headers : withHeader(headers, 'ALG-API-VERSION', null), 'Authorization', value),
      body,
      expected: [401, '20'],
    })),
    foreignFacilitators.map((value) => ({
      category: 'payment-facilitator-code',
      detail: value.slice(0, 80),
      headers: { ...headers, 'payment-facilitator-code': value },
      body,
      expected: [403, '21'],
    })),
  ];
}

// ---- Body mutations -------------------------------------------------------------------------------

function brokenJson(text: string): fc.Arbitrary<{ detail: string; body: Buffer }> {
  return fc.oneof(
    fc
      .integer({ min: 1, max: Math.max(1, text.length - 1) })
      .map((cut) => ({ detail: `cut at ${cut}`, body: Buffer.from(text.slice(0, cut)) })),
    fc
      .constantFrom(
        `${text}}`,
        `${text},`,
        `{${text}`,
        text.replace(/"/g, "'"),
        `\ufeff${text}`,
        text.replace(':', ' '),
        `${text} // x`,
      )
      .map((broken) => ({ detail: 'broken syntax', body: Buffer.from(broken) })),
    fc
      .constantFrom('NaN', 'undefined', '{a:1}', '', ' ', '{"a":1,}', '[1,]', '{"a":01}')
      .map((broken) => ({ detail: broken, body: Buffer.from(broken) })),
    fc.constant({ detail: 'invalid UTF-8', body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text)]) }),
  );
}

/** Transport mutations of a JSON POST (REST or token): JSON, content type, size, body not an object. */
function transportDrafts(headers: Record<string, string>, valid: Buffer, notObject: [number, string]): fc.Arbitrary<Draft>[] {
  const text = valid.toString('utf8');
  return [
    brokenJson(text).map(({ detail, body }) => ({ category: 'invalid JSON', detail, headers, body, expected: [400, '12'] })),
    fc.constantFrom(...WRONG_TYPES).map((type) => ({
      category: 'Content-Type',
      detail: type,
      headers: { ...headers, 'Content-Type': type },
      body: valid,
      expected: [400, '12'],
    })),
    fc.integer({ min: 1, max: 4_096 }).map((extra) => ({
      category: 'body over 64 KiB',
      detail: `${MAX_BODY + extra} bytes`,
      headers,
      body: Buffer.concat([valid, Buffer.alloc(MAX_BODY + extra - valid.length, ' ')]),
      expected: [413, '51'],
    })),
    fc.constantFrom('[]', '"text"', '42', 'null', 'true', `[${text}]`).map((other) => ({
      category: 'body not an object',
      detail: other.slice(0, 20),
      headers,
      body: Buffer.from(other),
      expected: notObject,
    })),
  ];
}

type Expect = (value: unknown) => [number, string];
const invalidRequest: Expect = () => [400, '10'];

/** Bodies the document's request schema refuses: one mutation of a valid body. */
function schemaDrafts(
  target: RestTarget,
  template: string,
  valid: unknown,
  headers: Record<string, string>,
  expectedOf = invalidRequest,
): fc.Arbitrary<Draft> {
  const { schema, at } = bodySchemaOf(target, template);
  const validate = target.contract.validator(at);
  return mutatedArbitrary(target.contract.document, schema, valid, NAUGHTY_STRINGS)
    .filter(({ value }) => !validate(value))
    .map(({ value, mutation }) => {
      const body = json(value);
      return { category: 'body schema', detail: mutation, headers, body, expected: sizeExpectation(body, expectedOf(value)) };
    });
}

// ---- Valid requests from the schemas ----------------------------------------------------------

const URLS = fc.constantFrom(
  'https://merchant.example/return',
  'https://merchant.example/hooks?order=1',
  'http://shop.example:8080/cb',
);

/** A valid POST /charges body for `merchantCode` (new operation numbers). */
export function validCharge(target: RestTarget, merchantCode: string): fc.Arbitrary<Record<string, unknown>> {
  const hints: Hints = {
    merchant_code: fc.constant(merchantCode),
    merchant_operation_number: fc.stringMatching(/^fz-[a-z0-9]{16}$/),
    pan: fc.constantFrom('4111111111111111', '5555555555554444', '4012888888881881'),
    security_code: fc.constantFrom('123', '987'),
    expiry_date: fc.constantFrom('1230', '0631'),
    email: fc.constantFrom('ana.quispe@example.pe', 'o.brien+pagos@example.com'),
    subscriber: fc.stringMatching(/^9[0-9]{8}$/),
    redirect_url: URLS,
    callback_url: URLS,
    amount: fc.integer({ min: 100, max: 300_000 }).map(String),
  };
  const { schema } = bodySchemaOf(target, '/charges');
  return validArbitrary(target.contract.document, schema, hints).map((value) => {
    const body = value as { payment_method: { method_name: string }; payment_details: Record<string, unknown> };
    // docs/DESIGN.md 7, which the schema cannot say: YAPE and QR take PEN only.
    if (PEN_ONLY.has(body.payment_method.method_name)) body.payment_details.currency = '604';
    // The generator draws optional fields apart; the document's allOf makes a CARD a new card
    // (a saved card's id or a customer to save it for would name nothing of this merchant's).
    if (body.payment_method.method_name === 'CARD') {
      const details = (body.payment_method as unknown as { method_details: Record<string, unknown> }).method_details;
      for (const field of ['card_id', 'initiator', 'reason', 'save_card']) delete details[field];
      details.pan ??= '4111111111111111';
      details.expiry_date ??= '1230';
      details.security_code ??= '123';
    }
    return body;
  });
}

/** A valid POST /refund body for the settled operation (refused here only by what is broken). */
function validRefund(target: RestTarget): fc.Arbitrary<Record<string, unknown>> {
  const { schema } = bodySchemaOf(target, '/refund');
  const operations = (schema.properties as Record<string, Schema>).operations!;
  const hints: Hints = {
    merchant_code: fc.constant(target.merchantCode),
    merchant_operation_number: fc.constant(target.settled.number),
    transaction_id: fc.constantFrom(target.settled.transactionId, null),
    refund_amount: fc.constant(target.settled.amount),
  };
  hints.operations = validArbitrary(target.contract.document, { ...operations, maxItems: 1 }, hints);
  return validArbitrary(target.contract.document, schema, hints) as fc.Arbitrary<Record<string, unknown>>;
}

// ---- Endpoints ---------------------------------------------------------------------------------

function postDrafts(target: RestTarget, template: string, valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Draft> {
  const headers = { ...integratorHeaders(target), ...JSON_TYPE };
  return valid.chain((value) => {
    const body = json(value);
    return fc.oneof(
      { weight: 4, arbitrary: schemaDrafts(target, template, value, headers) },
      ...transportDrafts(headers, body, [400, '10']),
      ...headerDrafts(target, template, 'post', body),
      badIdempotencyKeys(target, template).map((key) => ({
        category: 'Idempotency-Key',
        detail: key.slice(0, 40),
        headers: { ...headers, 'Idempotency-Key': key },
        body,
        expected: [400, '10'] as [number, string],
      })),
      fc.constant({
        category: 'another merchant',
        detail: target.otherMerchantCode,
        headers,
        body: json({ ...value, merchant_code: target.otherMerchantCode }),
        expected: [403, '21'] as [number, string],
      }),
    );
  });
}

function pathDrafts(target: RestTarget, template: string, method: string, values: Record<string, string>): fc.Arbitrary<Draft> {
  const fill = (params: Record<string, string>) =>
    `/api${template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeSegment(params[name]!))}`;
  const names = Object.keys(values);
  const checks = Object.fromEntries(names.map((name) => [name, parameterCheck(target, template, method, name)]));
  const headers = integratorHeaders(target);
  const expectedFor = (params: Record<string, string>): [number, string] => {
    if (names.some((name) => !checks[name]!(wellFormed(params[name]!)))) return [400, '10'];
    if (params.merchant_code !== target.merchantCode) return [403, '21'];
    return [404, '30'];
  };
  const segment = fc
    .tuple(fc.constantFrom(...names), fc.oneof(segmentValues, fc.constant(target.otherMerchantCode)))
    .filter(([name, value]) => value !== values[name])
    .map(([name, value]): Draft => {
      const params = { ...values, [name]: value };
      return {
        category: 'path segment',
        detail: `${name}=${value.slice(0, 40)}`,
        path: fill(params),
        headers,
        expected: expectedFor(params),
      };
    });
  const base = fill(values);
  const shape = fc.constantFrom('extra segment', 'missing segment', 'unknown query parameter').map((kind): Draft => {
    if (kind === 'unknown query parameter')
      return { category: kind, detail: 'debug=1', path: `${base}?debug=1`, headers, expected: [400, '10'] };
    const path = kind === 'extra segment' ? `${base}/extra` : base.slice(0, base.lastIndexOf('/'));
    return { category: kind, detail: path, path, headers, expected: routeExpectation(target, path, method) };
  });
  const methods = fc
    .constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE')
    .filter((other) => other !== method.toUpperCase())
    .map((other): Draft => ({
      category: 'method',
      detail: other,
      method: other,
      path: base,
      headers,
      expected: routeExpectation(target, base, other),
    }));
  return fc.oneof(
    { weight: 3, arbitrary: segment },
    shape,
    methods,
    ...headerDrafts(target, template, method).map((draft) => draft.map((item) => ({ ...item, path: base }))),
  );
}

/** What a path answers when no documented operation takes the method: 404 or 405. */
function routeExpectation(target: RestTarget, path: string, method: string): [number, string] {
  const route = target.contract.route(path);
  if (!route) return [404, '30'];
  if (target.contract.operation(route, method)) throw new Error(`${method} ${path} is documented: not a bad request`);
  return [405, '31'];
}

/**
 * GET /events with a page cursor the service did not hand out (its cursors are `e` and an event's
 * sequence number, in base64url), or a filter it does not take: 400 `10`, never a query with them.
 */
function eventQueryDrafts(target: RestTarget): fc.Arbitrary<Draft> {
  const headers = integratorHeaders(target);
  const url = (query: Record<string, string>) => `/api/events?${new URLSearchParams(query).toString()}`;
  const base64url = (text: string) => Buffer.from(text).toString('base64url');
  const forged = fc.oneof(
    fc
      .constantFrom(...NAUGHTY_STRINGS)
      .filter((text) => !/^\d+$/.test(text))
      .map((text) => base64url(`e${text}`)),
    fc.constantFrom(`e${2n ** 63n}`, 'e-1', 'e1.5', 'e 1', '12', 'e', 'x1').map(base64url),
    fc
      .constantFrom(...NAUGHTY_STRINGS)
      .filter((text) => text.length > 0 && !/^e\d+$/.test(Buffer.from(text, 'base64url').toString())),
  );
  return fc.oneof(
    {
      weight: 3,
      arbitrary: forged.map((cursor): Draft => ({
        category: 'forged cursor',
        detail: cursor.slice(0, 40),
        path: url({ merchant_code: target.merchantCode, cursor }),
        headers,
        expected: [400, '10'],
      })),
    },
    fc.constantFrom(...NAUGHTY_STRINGS.slice(0, 12), 'page', 'sort', 'state').map((name): Draft => ({
      category: 'unknown filter',
      detail: name,
      path: url({ merchant_code: target.merchantCode, [name]: '1' }),
      headers,
      expected: [400, '10'],
    })),
  );
}

function queryDrafts(target: RestTarget): fc.Arbitrary<Draft> {
  const parameters = (operationOf(target, '/refund', 'get').parameters ?? []).filter((parameter) => parameter.in === 'query');
  const schemaOf = (parameter: Parameter) => parameter.schema ?? {};
  const checks = Object.fromEntries(
    parameters.map((parameter) => [parameter.name, parameterCheck(target, '/refund', 'get', parameter.name)]),
  );
  const day = fc
    .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString().slice(0, 10));
  const hints: Hints = {
    merchant_code: fc.constant(target.merchantCode),
    merchant_operation_number: fc.constant(target.settled.number),
    transaction_id: fc.constant(target.settled.transactionId),
    start_date: day,
    end_date: day,
    limit: fc.integer({ min: 1, max: 500 }).map(String),
  };
  // Every documented filter but the opaque cursor, which only the service makes.
  const filters = {
    type: 'object',
    properties: Object.fromEntries(
      parameters.filter((parameter) => parameter.name !== 'cursor').map((parameter) => [parameter.name, schemaOf(parameter)]),
    ),
  };
  const valid = validArbitrary(target.contract.document, filters, hints).map((value) => {
    const query = value as Record<string, string>;
    if (query.start_date && query.end_date && query.start_date > query.end_date) {
      [query.start_date, query.end_date] = [query.end_date, query.start_date];
    }
    return query;
  });
  const headers = integratorHeaders(target);
  const url = (query: Record<string, string> | [string, string][]) => `/api/refund?${new URLSearchParams(query).toString()}`;
  return valid.chain((query) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...parameters.map((parameter) => parameter.name)),
            fc.oneof(
              fc.constantFrom(...NAUGHTY_STRINGS),
              fc.integer({ min: 201, max: 3_000 }).map((length) => '7'.repeat(length)),
            ),
          )
          .filter(([name, value]) => !checks[name]!(wellFormed(value)))
          .map(([name, value]): Draft => ({
            category: 'query filter',
            detail: `${name}=${value.slice(0, 40)}`,
            path: url({ ...query, [name]: value }),
            headers,
            expected: [400, '10'],
          })),
      },
      {
        // A cursor is opaque, but the client sends it back: one whose fields are not the service's
        // (36 dashes for an id, text for a date) is 400 too, never a query with them.
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.oneof(fc.constantFrom('2026-01-01T00:00:00.000Z', 'abc', '2026-01-01'), fc.constantFrom(...NAUGHTY_STRINGS)),
            fc.oneof(
              fc.constant('-'.repeat(36)),
              fc.constantFrom(...NAUGHTY_STRINGS),
              fc.uuid().map((id) => id.replaceAll('-', '')),
            ),
          )
          .map(([key, id]): Draft => ({
            category: 'forged cursor',
            detail: `${key.slice(0, 24)}|${id.slice(0, 40)}`,
            path: url({ ...query, cursor: Buffer.from(`${wellFormed(key)}|${wellFormed(id)}`).toString('base64url') }),
            headers,
            expected: [400, '10'],
          })),
      },
      fc.constantFrom(...NAUGHTY_STRINGS.slice(0, 12), 'page', 'sort').map((name): Draft => ({
        category: 'unknown filter',
        detail: name,
        path: url({ ...query, [name]: '1' }),
        headers,
        expected: [400, '10'],
      })),
      fc.constantFrom('state', 'merchant_code').map((name): Draft => ({
        category: 'repeated filter',
        detail: name,
        path: url([...Object.entries(query), [name, 'REGISTERED'], [name, 'RESOLVED']]),
        headers,
        expected: [400, '10'],
      })),
      fc.constant<Draft>({
        category: 'dates reversed',
        detail: '2026-02-01..2026-01-01',
        path: url({ ...query, start_date: '2026-02-01', end_date: '2026-01-01' }),
        headers,
        expected: [400, '10'],
      }),
      fc.constant<Draft>({
        category: 'another merchant',
        detail: target.otherMerchantCode,
        path: url({ ...query, merchant_code: target.otherMerchantCode }),
        headers,
        expected: [403, '21'],
      }),
      ...headerDrafts(target, '/refund', 'get').map((draft) => draft.map((item) => ({ ...item, path: url(query) }))),
    ),
  );
}

function tokenDrafts(target: RestTarget): fc.Arbitrary<Draft> {
  const template = '/token';
  const { schema, at } = bodySchemaOf(target, template);
  const validate = target.contract.validator(at);
  const hints: Hints = {
    // The document says what they must be in words (x-validation-rules), not as constants.
    audience: fc.constant(target.audience),
    resource: fc.constantFrom(target.audience, target.audience.replace(/\/$/, ''), [target.audience]),
    client_id: fc.stringMatching(/^fz-[a-z0-9]{20}$/),
    client_secret: fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/),
    scope: fc.constantFrom('create:token', 'create:token post:charges get:charges delete:charges', 'get:charges'),
  };
  const headers = { 'ALG-API-VERSION': API_VERSION, ...JSON_TYPE };
  const form = { 'ALG-API-VERSION': API_VERSION, 'Content-Type': 'application/x-www-form-urlencoded' };
  // The client is authenticated before its scopes are read: a body whose one defect is a missing
  // scope is, from a client that does not exist, 401 22.
  const expectedOf: Expect = (value) =>
    value !== null && typeof value === 'object' && !('scope' in value) && validate({ ...value, scope: 'create:token' })
      ? [401, '22']
      : [400, '10'];
  const formOf = (value: unknown) =>
    Object.fromEntries(
      Object.entries(value !== null && typeof value === 'object' ? value : {}).map(([key, item]) => [
        key,
        typeof item === 'string' ? item : JSON.stringify(item),
      ]),
    );
  return validArbitrary(target.contract.document, schema, hints).chain((value) => {
    const body = json(value);
    return fc.oneof(
      fc.constant<Draft>({
        category: 'unknown client',
        detail: 'well-formed, no such client',
        headers,
        body,
        expected: [401, '22'],
      }),
      { weight: 3, arbitrary: schemaDrafts(target, template, value, headers, expectedOf) },
      mutatedArbitrary(target.contract.document, schema, value, NAUGHTY_STRINGS)
        .map(({ value: mutated, mutation }) => ({ fields: formOf(mutated), mutation }))
        .filter(({ fields }) => !validate(fields))
        .map(({ fields, mutation }): Draft => {
          const encoded = Buffer.from(new URLSearchParams(fields).toString());
          return {
            category: 'form body schema',
            detail: mutation,
            headers: form,
            body: encoded,
            expected: sizeExpectation(encoded, expectedOf(fields)),
          };
        }),
      ...transportDrafts(headers, body, [400, '10']),
      badVersions(target, template, 'post').map((version): Draft => ({
        category: 'ALG-API-VERSION',
        detail: String(version),
        headers: withHeader(headers, 'ALG-API-VERSION', version),
        body,
        expected: [400, '11'],
      })),
      fc
        .constantFrom('GET', 'PUT', 'PATCH', 'DELETE')
        .map((method): Draft => ({ category: 'method', detail: method, method, headers, expected: [405, '31'] })),
      segmentValues.map((segment): Draft => ({
        category: 'unknown path',
        detail: segment.slice(0, 40),
        path: `/oauth/token/${encodeSegment(segment)}`,
        headers,
        body,
        expected: [404, '30'],
      })),
    );
  });
}

function unknownApiPaths(target: RestTarget): fc.Arbitrary<Draft> {
  return fc.tuple(segmentValues, fc.constantFrom('GET', 'POST', 'DELETE', 'PUT')).map(([segment, method]): Draft => ({
    category: 'unknown path',
    detail: `${method} ${segment.slice(0, 40)}`,
    method,
    path: `/api/fz-${encodeSegment(segment)}`,
    headers: { ...integratorHeaders(target), ...JSON_TYPE },
    body: method === 'POST' || method === 'PUT' ? Buffer.from('{}') : undefined,
    expected: [404, '30'],
  }));
}

/** Every kind of bad request for every REST and token endpoint, weighted roughly by how much each endpoint takes. */
export function restRequests(target: RestTarget): fc.Arbitrary<FuzzRequest> {
  const { merchantCode: code, settled } = target;
  const operation = { merchant_code: code, merchant_operation_number: settled.number };
  const onPath = (name: string, template: string, method: string, values: Record<string, string>) =>
    endpoint(name, method.toUpperCase(), '', pathDrafts(target, template, method, values));
  return fc.oneof(
    {
      weight: 5,
      arbitrary: endpoint('POST /charges', 'POST', '/api/charges', postDrafts(target, '/charges', validCharge(target, code))),
    },
    { weight: 3, arbitrary: endpoint('POST /refund', 'POST', '/api/refund', postDrafts(target, '/refund', validRefund(target))) },
    {
      weight: 2,
      arbitrary: onPath(
        'GET /charges/{m}/{o}/{t}',
        '/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}',
        'get',
        {
          ...operation,
          transaction_id: settled.transactionId,
        },
      ),
    },
    {
      weight: 2,
      arbitrary: onPath('DELETE /charges/{m}/{o}', '/charges/{merchant_code}/{merchant_operation_number}', 'delete', operation),
    },
    {
      weight: 1,
      arbitrary: onPath(
        'POST /charges/{m}/{o}/capture',
        '/charges/{merchant_code}/{merchant_operation_number}/capture',
        'post',
        operation,
      ),
    },
    { weight: 2, arbitrary: endpoint('GET /refund', 'GET', '', queryDrafts(target)) },
    { weight: 1, arbitrary: endpoint('GET /events', 'GET', '', eventQueryDrafts(target)) },
    {
      weight: 2,
      arbitrary: onPath('GET /refund/{m}/{o}', '/refund/{merchant_code}/{merchant_operation_number}', 'get', operation),
    },
    { weight: 3, arbitrary: endpoint('POST /oauth/token', 'POST', '/oauth/token', tokenDrafts(target)) },
    { weight: 1, arbitrary: endpoint('unknown /api path', 'GET', '', unknownApiPaths(target)) },
  );
}
