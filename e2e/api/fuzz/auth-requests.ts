import fc from 'fast-check';
import { HEADER_SAFE_STRINGS, NAUGHTY_STRINGS, wellFormed } from '../../support/naughty-strings';
import { isCallbackUrl } from '../../../src/server/http/auth-request-guard';
import { ORIGIN } from '../../support/service';
import { encodeSegment, endpoint, segmentValues, type Draft, type Expected, type FuzzRequest } from './request';
import type { FuzzTarget } from './target';

// Bad requests to the console's sign-in endpoints (next-auth, /api/auth/*): credential posts
// without or with a valid CSRF pair and hostile bodies, actions and providers that do not exist,
// other methods, hostile error and callback parameters. next-auth answers with redirects to this
// origin, 400, 401 or 405, and never signs anyone in. The emails are the fuzz's own (no real
// user's sign-in limit is spent).

const CALLBACK = '/api/auth/callback/credentials';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const ACTIONS = new Set(['providers', 'session', 'csrf', 'signin', 'signout', 'callback', 'verify-request', 'error', '_log']);
const EVIL = [
  'https://evil.example/x',
  '//evil.example/x',
  'javascript:alert(1)',
  '/\\evil.example',
  'http://localhost.evil.example/',
];

const emails = fc.oneof(
  fc.constantFrom(...NAUGHTY_STRINGS),
  fc.integer({ min: 1, max: 8 }).map((n) => `fuzz-${n}@fuzz.invalid`),
  fc.constantFrom('FUZZ-1@FUZZ.INVALID', ' fuzz-2@fuzz.invalid ', 'fuzz-3@fuzz.invalid\u0000'),
);
const credentials = fc.record(
  { email: emails, password: fc.constantFrom(...NAUGHTY_STRINGS), callbackUrl: fc.constantFrom(...EVIL) },
  { requiredKeys: [] },
);

type Body = { detail: string; headers: Record<string, string>; body: Buffer; json: boolean };

/** A credentials body, form-encoded or JSON (with `json: "true"`, as next-auth's client sends it, or without). */
function credentialBodies(csrfToken: string | null): fc.Arbitrary<Body> {
  return fc.tuple(credentials, fc.boolean(), fc.boolean()).map(([fields, asJson, json]) => {
    const all = {
      ...Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, wellFormed(value)])),
      ...(csrfToken === null ? {} : { csrfToken }),
      ...(json ? { json: 'true' } : {}),
    };
    const body = asJson ? JSON.stringify(all) : new URLSearchParams(all).toString();
    return {
      detail: `${asJson ? 'JSON' : 'form'} ${body.slice(0, 80)}`,
      headers: asJson ? JSON_TYPE : FORM,
      body: Buffer.from(body),
      json,
    };
  });
}

/** Bodies next-auth cannot read as credentials (other types, non-objects): without a CSRF token in them. */
const unreadableBodies = fc.oneof(
  fc
    .constantFrom('"x"', 'null', '[1]', '42', 'true')
    .map((text) => ({ detail: `JSON ${text}`, headers: JSON_TYPE, body: Buffer.from(text) })),
  fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x').map((type) => ({
    detail: type,
    headers: { 'content-type': type },
    body: Buffer.from('email=a&password=b'),
  })),
  fc.constant({ detail: 'no body', headers: {}, body: Buffer.alloc(0) }),
);

const BROKEN_JSON = ['{', '{"email":', "{'email':'a'}", '{"a":1,}', 'NaN', '{"csrfToken":"x"'];

function callbackDrafts(target: FuzzTarget): fc.Arbitrary<Draft> {
  // The CSRF check sends the client back to sign in: a 302, or for a client asking for JSON a 200 with the address.
  const toCsrfCheck = { status: 302, location: /^\/api\/auth\/signin\?csrf=true$/ };
  const toCsrfCheckAsJson = { ...toCsrfCheck, status: 200 };
  const wrongToken = `${target.csrf.token.slice(0, -1)}${target.csrf.token.endsWith('0') ? '1' : '0'}`;
  return fc.oneof(
    credentialBodies(null).map((body): Draft => ({
      category: 'no CSRF token',
      detail: body.detail,
      headers: body.headers,
      body: body.body,
      expected: body.json ? toCsrfCheckAsJson : toCsrfCheck,
    })),
    credentialBodies(wrongToken).map((body): Draft => ({
      category: 'wrong CSRF token',
      detail: body.detail,
      headers: { ...body.headers, cookie: target.csrf.cookie },
      body: body.body,
      expected: body.json ? toCsrfCheckAsJson : toCsrfCheck,
    })),
    {
      weight: 2,
      arbitrary: credentialBodies(target.csrf.token).map((body): Draft => ({
        category: 'bad credentials',
        detail: body.detail,
        headers: { ...body.headers, cookie: target.csrf.cookie },
        body: body.body,
        // Refused sign-ins go to next-auth's error address (which sends them to the login page); its client asks for JSON: 401.
        expected: { status: body.json ? 401 : 302, location: /^\/api\/auth\/error\?error=CredentialsSignin/ },
      })),
    },
    unreadableBodies.map((body): Draft => ({
      category: 'unreadable body',
      detail: body.detail,
      headers: { ...body.headers, cookie: target.csrf.cookie },
      body: body.body,
      expected: toCsrfCheck,
    })),
    fc.constantFrom(...BROKEN_JSON).map((text): Draft => ({
      category: 'invalid JSON',
      detail: text,
      headers: { ...JSON_TYPE, cookie: target.csrf.cookie },
      body: Buffer.from(text),
      expected: [400, '12'],
    })),
  );
}

/** Actions and providers next-auth does not have: 400; sign-in pages of unknown providers go to the login page. */
function unknownActionDrafts(): fc.Arbitrary<Draft> {
  const segment = segmentValues.filter((value) => !ACTIONS.has(wellFormed(value)));
  return fc.oneof(
    fc.tuple(segment, fc.constantFrom('GET', 'POST')).map(([action, method]): Draft => ({
      category: 'unknown action',
      detail: `${method} ${action.slice(0, 40)}`,
      method,
      path: `/api/auth/${encodeSegment(action)}`,
      headers: method === 'POST' ? FORM : {},
      body: method === 'POST' ? Buffer.from('a=1') : undefined,
      expected: { status: 400 },
    })),
    fc
      .tuple(
        segment.filter((value) => wellFormed(value) !== 'credentials'),
        fc.constantFrom('GET', 'POST'),
      )
      .map(([provider, method]): Draft => ({
        category: 'unknown provider',
        detail: `${method} ${provider.slice(0, 40)}`,
        method,
        path: `/api/auth/callback/${encodeSegment(provider)}`,
        headers: method === 'POST' ? FORM : {},
        body: method === 'POST' ? Buffer.from('a=1') : undefined,
        expected: { status: 400 },
      })),
    segment.map((provider): Draft => ({
      category: 'unknown provider',
      detail: `GET signin/${provider.slice(0, 40)}`,
      path: `/api/auth/signin/${encodeSegment(provider)}`,
      headers: {},
      expected: { status: 302, location: /^\/login\?/ },
    })),
  );
}

function methodDrafts(): fc.Arbitrary<Draft> {
  return fc
    .tuple(fc.constantFrom('PUT', 'PATCH', 'DELETE'), fc.constantFrom(...ACTIONS, 'callback/credentials', 'signin/credentials'))
    .map(([method, action]): Draft => ({
      category: 'method',
      detail: `${method} ${action}`,
      method,
      path: `/api/auth/${action}`,
      headers: {},
      expected: [405, '31'],
    }));
}

/** The console's login page: with the address to return to, or with the error next-auth found in it (not a URL of this site). */
const TO_LOGIN = { status: 302, location: /^\/login\?(callbackUrl|error)=/ };

/** What a GET of `action` answers when nothing is wrong with it (the sign-in page is the console's login page). */
const FINE: Record<string, Expected> = {
  signin: TO_LOGIN,
  session: { status: 200 },
  csrf: { status: 200 },
  providers: { status: 200 },
};

/** Hostile parameters and cookies of the pages next-auth would render, and where they send the client. */
function parameterDrafts(target: FuzzTarget): fc.Arbitrary<Draft> {
  const text = fc.oneof(
    fc.constantFrom(...NAUGHTY_STRINGS, ...EVIL, 'Configuration', 'AccessDenied', 'Verification'),
    fc.string(),
  );
  const query = (name: string, value: string) => `?${new URLSearchParams({ [name]: wellFormed(value) }).toString()}`;
  // A callback URL next-auth cannot take (neither http(s) nor a path) is refused before it: 400 10.
  const callbackUrlExpectation = (value: string, action: string): Expected =>
    value === '' || isCallbackUrl(value, ORIGIN) ? FINE[action]! : [400, '10'];
  const action = fc.constantFrom(...Object.keys(FINE));
  return fc.oneof(
    text.map((value): Draft => ({
      category: 'error page',
      detail: value.slice(0, 40),
      path: `/api/auth/error${query('error', value)}`,
      headers: {},
      expected: { status: 302, location: /^\/login\?error=/ },
    })),
    fc.tuple(text, action).map(([value, name]): Draft => ({
      category: 'callback URL',
      detail: `${name} ${value.slice(0, 40)}`,
      path: `/api/auth/${name}${query('callbackUrl', value)}`,
      headers: {},
      expected: callbackUrlExpectation(wellFormed(value), name),
    })),
    fc
      .tuple(
        fc.constantFrom(...[...EVIL, ...NAUGHTY_STRINGS, '/operations'].map((url) => encodeURIComponent(wellFormed(url)))),
        action,
      )
      .map(([value, name]): Draft => ({
        category: 'callback URL cookie',
        detail: `${name} ${value.slice(0, 40)}`,
        path: `/api/auth/${name}`,
        headers: { cookie: `next-auth.callback-url=${value}` },
        expected: callbackUrlExpectation(decodeURIComponent(value), name),
      })),
    fc.constantFrom('evil.example', 'localhost.evil.example:443', ...HEADER_SAFE_STRINGS.slice(0, 10)).map((host): Draft => ({
      category: 'forwarded host',
      detail: host.slice(0, 40),
      path: '/api/auth/signin',
      headers: { 'x-forwarded-host': host, 'x-forwarded-proto': 'https' },
      expected: TO_LOGIN,
    })),
    fc.constantFrom(...EVIL, ...NAUGHTY_STRINGS, '/\r\nX-Injected: 1', '/𝕿𝖍𝖊').map((url): Draft => ({
      category: 'sign out',
      detail: url.slice(0, 40),
      method: 'POST',
      path: '/api/auth/signout',
      headers: { ...FORM, cookie: target.csrf.cookie },
      body: Buffer.from(new URLSearchParams({ csrfToken: target.csrf.token, callbackUrl: wellFormed(url) }).toString()),
      expected: { status: 302, location: /^\// },
    })),
    fc.constant<Draft>({ category: 'method', detail: `GET ${CALLBACK}`, path: CALLBACK, headers: {}, expected: [405, '31'] }),
  );
}

export function authRequests(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      { weight: 4, arbitrary: endpoint(`POST ${CALLBACK}`, 'POST', CALLBACK, callbackDrafts(target)) },
      { weight: 2, arbitrary: endpoint('/api/auth/* other actions', 'GET', '', fc.oneof(unknownActionDrafts(), methodDrafts())) },
      { weight: 2, arbitrary: endpoint('/api/auth/* pages', 'GET', '', parameterDrafts(target)) },
    )
    .map((item) => ({ ...item, cookieless: true }));
}
