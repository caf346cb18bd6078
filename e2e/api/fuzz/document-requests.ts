import fc from 'fast-check';
import { HEADER_SAFE_STRINGS, NAUGHTY_STRINGS, wellFormed } from '../../support/naughty-strings';
import { encodeSegment, endpoint, segmentValues, type Draft, type Expected, type FuzzRequest } from './request';

// Bad requests to the read-only endpoints: the API's public documents (OpenAPI, JWKS, callback
// public key: other methods 405 and deeper paths 404 in the envelope), health and metrics, the
// API reference. A query string they do not read changes nothing (200, the same document).

type Document = { name: string; path: string; methods: Expected; deeper: Expected };

const ENVELOPE_405: Expected = [405, '31'];
const ENVELOPE_404: Expected = [404, '30'];

const DOCUMENTS: Document[] = [
  { name: 'GET /api/openapi.json', path: '/api/openapi.json', methods: ENVELOPE_405, deeper: ENVELOPE_404 },
  { name: 'GET /oauth/.well-known/jwks.json', path: '/oauth/.well-known/jwks.json', methods: ENVELOPE_405, deeper: ENVELOPE_404 },
  { name: 'GET /api/webhooks/public-key', path: '/api/webhooks/public-key', methods: ENVELOPE_405, deeper: ENVELOPE_404 },
  { name: 'GET /api/webhooks/keys', path: '/api/webhooks/keys', methods: ENVELOPE_405, deeper: ENVELOPE_404 },
  { name: 'GET /api/health', path: '/api/health', methods: ENVELOPE_405, deeper: ENVELOPE_404 },
  { name: 'GET /api/metrics', path: '/api/metrics', methods: ENVELOPE_405, deeper: ENVELOPE_404 },
  { name: 'GET /docs', path: '/docs', methods: ENVELOPE_405, deeper: { status: 404 } },
  {
    name: 'GET /oauth/.well-known/oauth-authorization-server',
    path: '/oauth/.well-known/oauth-authorization-server',
    methods: ENVELOPE_405,
    deeper: ENVELOPE_404,
  },
];

const queries = fc
  .tuple(
    fc.constantFrom('probe', 'x', 'url', 'format', '__proto__', ...NAUGHTY_STRINGS.slice(0, 10)),
    fc.constantFrom(...NAUGHTY_STRINGS),
  )
  .map(([name, value]) => new URLSearchParams({ [wellFormed(name)]: wellFormed(value) }).toString());

function documentDrafts(document: Document): fc.Arbitrary<Draft> {
  return fc.oneof(
    fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE').map((method): Draft => ({
      category: 'method',
      detail: method,
      method,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{}'),
      expected: document.methods,
    })),
    segmentValues.map((segment): Draft => ({
      category: 'deeper path',
      detail: segment.slice(0, 40),
      path: `${document.path}/${encodeSegment(segment)}`,
      headers: {},
      expected: document.deeper,
    })),
    queries.map((query): Draft => ({
      category: 'ignored query',
      detail: query.slice(0, 60),
      path: `${document.path}?${query}`,
      headers: {},
      // Metrics need the token first.
      expected: document.path === '/api/metrics' ? { status: 401 } : { status: 200 },
    })),
  );
}

/** Metrics without its bearer token: 401 (DECISIONS.md: METRICS_TOKEN). */
const metricsAuthorizations = fc
  .oneof(
    fc.constantFrom(...HEADER_SAFE_STRINGS).map((text) => `Bearer ${text}`.trim()),
    fc.constantFrom('Bearer', 'Basic ZTJlOnRva2Vu', 'bearer e2e-metrics-token-0123456789x', 'Bearer e2e-metrics-token-012345678'),
  )
  .map((authorization): Draft => ({
    category: 'Authorization',
    detail: authorization.slice(0, 60),
    headers: { authorization },
    expected: { status: 401 },
  }));

/** Files of the API reference that do not exist. */
const referenceAssets = segmentValues
  .filter((name) => !['init.js', 'swagger-ui.css', 'swagger-ui-bundle.js'].includes(name))
  .map((name): Draft => ({
    category: 'unknown asset',
    detail: name.slice(0, 40),
    path: `/docs/assets/${encodeSegment(name)}`,
    headers: {},
    expected: { status: 404 },
  }));

export function documentRequests(): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      ...DOCUMENTS.map((document) => {
        const drafts = [documentDrafts(document)];
        if (document.path === '/api/metrics') drafts.push(metricsAuthorizations);
        if (document.path === '/docs') drafts.push(referenceAssets);
        return endpoint(document.name, 'GET', document.path, fc.oneof(...drafts));
      }),
    )
    .map((item) => ({ ...item, cookieless: true }));
}
