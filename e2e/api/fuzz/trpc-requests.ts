import fc from 'fast-check';
import { HEADER_SAFE_STRINGS, NAUGHTY_STRINGS } from '../../support/naughty-strings';
import { mutatedArbitrary, validArbitrary } from '../../support/schema-arbitrary';
import { API_VERSION, type ConsoleRole } from '../../support/service';
import { TEST_PASSWORDS } from '../../support/test-secrets';
import { PROCEDURES, type Procedure } from '../../support/trpc-procedures';
import { zodDocument } from '../../support/zod-arbitrary';
import { callers, trpcRole } from './callers';
import { encodeSegment, endpoint, segmentValues, type Draft, type Expected, type FuzzRequest } from './request';
import type { FuzzTarget } from './target';

// Bad calls of every tRPC procedure (/api/trpc/<path>): inputs derived from each procedure's zod
// schema and broken (the schema itself says they are invalid), valid inputs naming what does not
// exist, wrong methods, bodies and procedure names, batches; from every kind of caller. The
// answer: the caller's refusal first (no session 401, a role without the right 403), then the
// input's (400), then the service's (404), as the procedures' middlewares run.

type Access = 'integrator' | 'operator' | 'read' | 'act' | 'platform-read' | 'platform-act';

const ALL_ROLES: ConsoleRole[] = ['PLATFORM_ADMIN', 'SUPPORT', 'MERCHANT_ADMIN', 'MERCHANT_VIEWER'];
const ALLOWED: Record<Exclude<Access, 'integrator'>, ConsoleRole[]> = {
  operator: ['PLATFORM_ADMIN'],
  read: ALL_ROLES,
  act: ['PLATFORM_ADMIN', 'MERCHANT_ADMIN'],
  'platform-read': ['PLATFORM_ADMIN', 'SUPPORT'],
  'platform-act': ['PLATFORM_ADMIN'],
};

/** Who may call a procedure (src/server/api/trpc.ts and the routers' middlewares). */
function accessOf(procedure: Procedure): Access {
  if (procedure.integrator) return 'integrator';
  if (procedure.path.startsWith('admin.')) return 'operator';
  const act = procedure.type === 'mutation';
  if (procedure.path.startsWith('console.platform.')) return act ? 'platform-act' : 'platform-read';
  // Every role sees the processors; only platform admins change a connector's mode or use.
  if (procedure.path.startsWith('console.processors.')) return act ? 'platform-act' : 'read';
  if (procedure.path.startsWith('console.')) return act ? 'act' : 'read';
  throw new Error(`${procedure.path}: which roles may call it? (e2e/api/fuzz/trpc-requests.ts)`);
}

type Refusal = [status: number, kind: string] | null;

/** Headers of a call and how the procedure's middlewares refuse it before reading the input (null: they let it through). */
type Sender = { name: string; headers: Record<string, string>; refusal: Refusal };

function consoleSenders(target: FuzzTarget, access: Exclude<Access, 'integrator'>): fc.Arbitrary<Sender> {
  return callers(target).map((caller) => {
    const role = trpcRole(caller);
    const refusal: Refusal =
      role === null ? [401, 'UNAUTHENTICATED'] : ALLOWED[access].includes(role) ? null : [403, 'FORBIDDEN'];
    return { name: caller.name, headers: caller.headers, refusal };
  });
}

/**
 * Integrator procedures check ALG-API-VERSION when it is sent, then the Bearer token
 * (docs/DESIGN.md 3); console sessions do not count.
 */
function integratorSenders(target: FuzzTarget): fc.Arbitrary<Sender> {
  const version = { 'ALG-API-VERSION': API_VERSION };
  return fc.oneof(
    fc.constant<Sender>({
      name: 'unknown ALG-API-VERSION',
      headers: { cookie: target.sessions.PLATFORM_ADMIN, 'ALG-API-VERSION': '1' },
      refusal: [400, 'API_VERSION'],
    }),
    fc.constant<Sender>({
      name: 'no ALG-API-VERSION, a console session and no token',
      headers: { cookie: target.sessions.PLATFORM_ADMIN },
      refusal: [401, 'UNAUTHENTICATED'],
    }),
    fc.constantFrom(...HEADER_SAFE_STRINGS).map((text): Sender => ({
      name: 'bad bearer token',
      headers: { ...version, authorization: `Bearer ${text}`.trim(), 'x-operator-token': target.operatorToken },
      refusal: [401, 'UNAUTHENTICATED'],
    })),
    {
      weight: 3,
      arbitrary: fc.boolean().map((versioned): Sender => ({
        name: versioned ? 'merchant token' : 'merchant token, no ALG-API-VERSION (the default)',
        headers: { ...(versioned ? version : {}), authorization: `Bearer ${target.token}` },
        refusal: null,
      })),
    },
  );
}

function sendersOf(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Sender> {
  const access = accessOf(procedure);
  return access === 'integrator' ? integratorSenders(target) : consoleSenders(target, access);
}

const trpcPath = (procedure: Procedure | string) => `/api/trpc/${typeof procedure === 'string' ? procedure : procedure.path}`;
const JSON_TYPE = { 'content-type': 'application/json' };
/** Node refuses a request line and headers over 16 KiB (431) before the service; between 8 and 20 KiB it depends on the headers. */
const URL_LIMIT = { safe: 8_000, refused: 20_000 };

/** A call of `procedure` with `text` as its raw input: in the query string (queries) or the body (mutations). */
function callWith(
  procedure: Procedure,
  text: string | undefined,
  headers: Record<string, string>,
): Pick<Draft, 'headers' | 'body'> & { method: string; path: string } {
  if (procedure.type === 'query') {
    const query = text === undefined ? '' : `?input=${encodeURIComponent(text)}`;
    return { method: 'GET', path: `${trpcPath(procedure)}${query}`, headers };
  }
  return { method: 'POST', path: trpcPath(procedure), headers: { ...headers, ...JSON_TYPE }, body: Buffer.from(text ?? '') };
}

/** The draft, or for a query whose address is too long for Node the 431 it gets (null: too close to the limit to say). */
function withinUrlLimit(draft: Draft & { path: string }): Draft | null {
  if (draft.path.length <= URL_LIMIT.safe) return draft;
  return draft.path.length > URL_LIMIT.refused ? { ...draft, expected: { status: 431 } } : null;
}

const trpc = (refusal: Refusal, otherwise: [number, string]): Expected => ({ trpc: refusal ?? otherwise });

/** Inputs the procedure's zod schema refuses: one mutation of a value built from its JSON Schema. */
function invalidInputs(
  procedure: Procedure & { input: NonNullable<Procedure['input']> },
): fc.Arbitrary<{ text: string; mutation: string }> {
  const { document, schema } = zodDocument(procedure.input);
  return validArbitrary(document, schema)
    .chain((valid) => mutatedArbitrary(document, schema, valid, NAUGHTY_STRINGS))
    .map(({ value, mutation }) => ({ text: JSON.stringify(value), mutation }))
    .filter(({ text }) => !procedure.input.safeParse(JSON.parse(text)).success);
}

function inputDrafts(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Draft> | null {
  const { input } = procedure;
  if (!input) return null;
  return fc
    .tuple(invalidInputs({ ...procedure, input }), sendersOf(target, procedure))
    .map(([{ text, mutation }, sender]) =>
      withinUrlLimit({
        category: 'input',
        detail: `${sender.name}: ${mutation}`,
        ...callWith(procedure, text, sender.headers),
        expected: trpc(sender.refusal, [400, 'VALIDATION']),
      }),
    )
    .filter((draft): draft is Draft => draft !== null);
}

/** Valid inputs naming a merchant, operation, refund, event, credential or user that does not exist: 404 once the caller may call. */
function unknownInputs(target: FuzzTarget): Record<string, fc.Arbitrary<unknown>> {
  const code = fc.stringMatching(/^[A-Z0-9]{6}$/).map((tail) => `${target.unknownPrefix}${tail}`);
  const id = fc.uuid({ version: 4 });
  const clientId = code.map((value) => value.toLowerCase());
  const fields = { canal: 'fuzz', reason: 'fuzz', description: 'fuzz' };
  const email = code.map((value) => `${value.toLowerCase()}@fuzz.invalid`);
  const ofMerchant = code.map((merchantCode) => ({ merchantCode }));
  const inputs: Record<string, fc.Arbitrary<unknown>> = {
    'console.operation': id.map((transactionId) => ({ transactionId })),
    'console.cancel': id.map((transactionId) => ({ transactionId })),
    'console.refundDetail': id.map((refundId) => ({ refundId })),
    'console.refund': id.map((transactionId) => ({ transactionId, additional_fields: fields })),
    'console.refundBatch': fc
      .tuple(code, id)
      .map(([merchantCode, transactionId]) => ({ merchantCode, items: [{ transactionId, additional_fields: fields }] })),
    'console.resendEvent': id.map((eventId) => ({ eventId })),
    'console.credentials': ofMerchant,
    'console.issueCredential': code.map((merchantCode) => ({ merchantCode, scopes: ['create:token'], label: 'fuzz' })),
    'console.revokeCredential': clientId.map((value) => ({ clientId: value })),
    'console.refundableTransactions': ofMerchant,
    'console.settings.merchant': ofMerchant,
    'console.settings.users': ofMerchant,
    'console.settings.updateProfile': code.map((merchantCode) => ({ merchantCode, name: 'fuzz', supportEmail: null })),
    'console.settings.updateMethods': code.map((merchantCode) => ({ merchantCode, enabledMethods: ['CARD'] })),
    'console.settings.updateExpiries': code.map((merchantCode) => ({ merchantCode, expiryMinutes: { QR: 30 } })),
    'console.settings.addUser': fc
      .tuple(code, email)
      .map(([merchantCode, address]) => ({ merchantCode, email: address, name: 'fuzz', role: 'MERCHANT_VIEWER' })),
    'console.settings.setUserRole': id.map((userId) => ({ userId, role: 'MERCHANT_VIEWER' })),
    'console.settings.setUserDisabled': id.map((userId) => ({ userId, disabled: true })),
    'console.platform.awaitingSettlement': ofMerchant,
    'console.platform.createMerchant': fc
      .tuple(code, code)
      .map(([value, facilitator]) => ({ code: value, name: 'fuzz', facilitatorCode: facilitator })),
    'console.platform.linkMerchant': fc
      .tuple(code, code)
      .map(([facilitatorCode, merchantCode]) => ({ facilitatorCode, merchantCode })),
    'console.platform.unlinkMerchant': ofMerchant,
    'console.platform.settleNow': ofMerchant,
    'admin.setExpirySeconds': code.map((value) => ({ code: value, expirySeconds: { QR: 60 } })),
    'admin.issueCredential': fc.oneof(
      code.map((merchantCode) => ({ owner: { merchantCode } })),
      code.map((facilitatorCode) => ({ owner: { facilitatorCode } })),
    ),
    'admin.revokeCredential': clientId.map((value) => ({ clientId: value })),
    'admin.createUser': fc.tuple(code, email).map(([merchantCode, address]) => ({
      email: address,
      password: TEST_PASSWORDS.created,
      role: 'MERCHANT_VIEWER',
      merchantCode,
    })),
    'admin.inspectOperation': code.map((merchantCode) => ({ merchantCode, merchantOperationNumber: 'fuzz-1' })),
    'admin.resendEvent': id.map((eventId) => ({ eventId })),
  };
  for (const path of Object.keys(inputs)) {
    if (!PROCEDURES.some((procedure) => procedure.path === path)) throw new Error(`no procedure ${path}`);
  }
  return inputs;
}

function unknownIdDrafts(
  target: FuzzTarget,
  procedure: Procedure,
  inputs: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Draft> | null {
  const valid = inputs[procedure.path];
  if (!valid) return null;
  return fc.tuple(valid, sendersOf(target, procedure)).map(([input, sender]): Draft => {
    const text = JSON.stringify(input);
    if (!procedure.input!.safeParse(input).success) throw new Error(`${procedure.path}: ${text} is not a valid input`);
    return {
      category: 'unknown id',
      detail: `${sender.name}: ${text.slice(0, 80)}`,
      ...callWith(procedure, text, sender.headers),
      expected: trpc(sender.refusal, [404, 'NOT_FOUND']),
    };
  });
}

/** Methods the procedure does not take: refused before anything else (the input stays unread). */
function methodDrafts(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Draft> {
  const other = procedure.type === 'query' ? 'POST' : 'GET';
  return fc
    .tuple(fc.constantFrom(other, 'PUT', 'PATCH', 'DELETE'), sendersOf(target, procedure))
    .map(([method, sender]): Draft => ({
      category: 'method',
      detail: `${sender.name}: ${method}`,
      method,
      path: method === 'GET' ? `${trpcPath(procedure)}?input=%7B%7D` : trpcPath(procedure),
      headers: method === 'GET' ? sender.headers : { ...sender.headers, ...JSON_TYPE },
      body: method === 'GET' ? undefined : Buffer.from('{}'),
      // PUT, PATCH and DELETE never reach tRPC (src/server/http/next-routes.ts); GET of a mutation and POST of a query do.
      expected: method === other ? { trpc: [405, 'METHOD_NOT_ALLOWED'] } : [405, '31'],
    }));
}

/** Mutation bodies that are not JSON: refused for their content type, or read and refused as input. */
function bodyDrafts(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Draft> | null {
  if (procedure.type !== 'mutation') return null;
  const path = trpcPath(procedure);
  const unsupported = fc
    .tuple(
      fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'text/json', 'text/html'),
      sendersOf(target, procedure),
    )
    .map(([type, sender]): Draft => ({
      category: 'content type',
      detail: `${sender.name}: ${type}`,
      headers: { ...sender.headers, 'content-type': type },
      body: Buffer.from('{"a":1}'),
      expected: { trpc: [400, 'MALFORMED_BODY'] },
    }));
  // tRPC reads form data and octet streams as input: the schema refuses them.
  const readAsInput = fc
    .tuple(
      fc.constantFrom('multipart/form-data; boundary=x', 'application/octet-stream'),
      fc.constantFrom(...NAUGHTY_STRINGS),
      sendersOf(target, procedure),
    )
    .map(([type, text, sender]): Draft => ({
      category: 'content type',
      detail: `${sender.name}: ${type}`,
      headers: { ...sender.headers, 'content-type': type },
      body: Buffer.from(text),
      expected: trpc(sender.refusal, [400, 'VALIDATION']),
    }));
  return fc.oneof(unsupported, readAsInput).map((draft) => ({ ...draft, method: 'POST', path }));
}

const BROKEN_JSON = ['{', '{"a":', "{'a':1}", 'NaN', 'undefined', '{"a":1,}', '[1,]', '\u0000', '{"a":01}', '%', '{"__proto__":'];

/** Calls without their input or with input text that is not JSON: the caller's refusal, else 400. */
function jsonDrafts(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Draft> | null {
  const { input } = procedure;
  if (!input) return null;
  const texts: (string | undefined)[] = input.safeParse(undefined).success ? BROKEN_JSON : [undefined, ...BROKEN_JSON];
  return fc.tuple(fc.constantFrom(...texts), sendersOf(target, procedure)).map(([text, sender]): Draft => ({
    category: text === undefined ? 'no input' : 'invalid JSON',
    detail: `${sender.name}: ${text ?? ''}`,
    ...callWith(procedure, text, sender.headers),
    expected: trpc(sender.refusal, [400, 'VALIDATION']),
  }));
}

/** A procedure without input (it ignores any) called by those who may not call it. */
function refusedCallerDrafts(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Draft> | null {
  if (procedure.input) return null;
  return sendersOf(target, procedure)
    .filter((sender) => sender.refusal !== null)
    .map((sender): Draft => ({
      category: 'caller',
      detail: sender.name,
      ...callWith(procedure, '{"ignored":true}', sender.headers),
      expected: { trpc: sender.refusal! },
    }));
}

/** Two invalid inputs of one procedure in a batch (?batch=1): both refused alike. */
function batchDrafts(target: FuzzTarget, procedure: Procedure): fc.Arbitrary<Draft> | null {
  const { input } = procedure;
  if (!input) return null;
  const inputs = invalidInputs({ ...procedure, input });
  return fc
    .tuple(inputs, inputs, sendersOf(target, procedure))
    .map(([first, second, sender]) => {
      const text = `{"0":${first.text},"1":${second.text}}`;
      const single = callWith(procedure, text, sender.headers);
      const path = `/api/trpc/${procedure.path},${procedure.path}?batch=1${single.path.includes('?') ? `&${single.path.split('?')[1]}` : ''}`;
      return withinUrlLimit({
        category: 'batch',
        detail: `${sender.name}: ${first.mutation}; ${second.mutation}`,
        ...single,
        path,
        expected: trpc(sender.refusal, [400, 'VALIDATION']),
      });
    })
    .filter((draft): draft is Draft => draft !== null);
}

/** Procedure names the router does not have: 404 from tRPC; a deeper path is no tRPC route (404 in the envelope). */
function unknownProcedureDrafts(target: FuzzTarget): fc.Arbitrary<Draft> {
  const known = new Set(PROCEDURES.map((procedure) => procedure.path));
  const nearMisses = PROCEDURES.flatMap(({ path }) => [
    path.toUpperCase(),
    `${path}.`,
    `.${path}`,
    `${path}x`,
    path.replace('.', '..'),
    `${path}.__proto__`,
  ]);
  const names = fc
    .oneof(
      segmentValues,
      fc.constantFrom(...nearMisses),
      fc.constantFrom('console', 'admin', 'console.settings', '__proto__', 'constructor', 'toString', 'console.constructor'),
    )
    .filter((name) => !known.has(name) && !name.includes(','));
  return fc.tuple(names, callers(target), fc.constantFrom('GET', 'POST')).map(([name, caller, method]): Draft => ({
    category: 'unknown procedure',
    detail: `${caller.name}: ${method} ${name.slice(0, 60)}`,
    method,
    path: trpcPath(encodeSegment(name)),
    headers: method === 'POST' ? { ...caller.headers, ...JSON_TYPE } : caller.headers,
    body: method === 'POST' ? Buffer.from('{}') : undefined,
    expected: { trpc: [404, 'NOT_FOUND'] },
  }));
}

function deeperPathDrafts(): fc.Arbitrary<Draft> {
  return fc
    .tuple(fc.constantFrom(...PROCEDURES.map((procedure) => procedure.path)), segmentValues)
    .map(([path, segment]): Draft => ({
      category: 'unknown path',
      detail: `${path}/${segment.slice(0, 40)}`,
      path: `${trpcPath(path)}/${encodeSegment(segment)}`,
      headers: {},
      expected: [404, '30'],
    }));
}

/** Every procedure's bad calls, each procedure about equally often. */
export function trpcRequests(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const unknown = unknownInputs(target);
  const perProcedure = PROCEDURES.map((procedure) => {
    const drafts = [
      { weight: 6, arbitrary: inputDrafts(target, procedure) },
      { weight: 2, arbitrary: unknownIdDrafts(target, procedure, unknown) },
      { weight: 1, arbitrary: methodDrafts(target, procedure) },
      { weight: 1, arbitrary: bodyDrafts(target, procedure) },
      { weight: 1, arbitrary: jsonDrafts(target, procedure) },
      { weight: 1, arbitrary: batchDrafts(target, procedure) },
      { weight: 4, arbitrary: refusedCallerDrafts(target, procedure) },
    ].filter((draft): draft is { weight: number; arbitrary: fc.Arbitrary<Draft> } => draft.arbitrary !== null);
    const method = procedure.type === 'query' ? 'GET' : 'POST';
    return endpoint(`tRPC ${procedure.path}`, method, trpcPath(procedure), fc.oneof(...drafts));
  });
  return fc
    .oneof(
      { weight: PROCEDURES.length, arbitrary: fc.oneof(...perProcedure) },
      { weight: 2, arbitrary: endpoint('tRPC unknown procedure', 'GET', '', unknownProcedureDrafts(target)) },
      { weight: 1, arbitrary: endpoint('tRPC unknown procedure', 'GET', '', deeperPathDrafts()) },
    )
    .map((item) => ({ ...item, cookieless: true }));
}
