import fc from 'fast-check';
import { isWellFormed } from './naughty-strings';
import type { OpenApiDocument, Schema } from './openapi-contract';

// fast-check arbitraries derived from the OpenAPI document's request schemas: valid values
// (with hints for rules a schema cannot say, such as Luhn), the places of a value a mutation
// can hit, and the mutations that break what the schema says about that place.

export type Hints = Record<string, fc.Arbitrary<unknown>>;
type Path = (string | number)[];
export type Site = { path: Path; schema: Schema | undefined; value: unknown };

/** The schema behind `$ref`s into #/components/schemas. */
export function resolve(document: OpenApiDocument, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  while (current && typeof current.$ref === 'string') {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = document.components?.schemas?.[name];
  }
  return current;
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  return typeof schema.type === 'string' ? [schema.type] : [];
}

/** `payload` and the digit that makes it pass the Luhn check. */
function withCheckDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < payload.length; i += 1) {
    const digit = Number(payload[payload.length - 1 - i]);
    const weighted = i % 2 === 0 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return `${payload}${(10 - (sum % 10)) % 10}`;
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const min = Number(schema.minLength ?? 0);
  const max = Number(schema.maxLength ?? 24);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') {
    // Simple local parts at valid domains: what both the format and a stricter pattern take.
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
    return fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9_+-]{1,16}$/), fc.domain())
      .map(([local, domain]) => `${local}@${domain}`)
      .filter((text) => text.length >= min && text.length <= max && (!pattern || pattern.test(text)));
  }
  // Four-digit years, as a client's clock gives them (toISOString writes others as ±YYYYYY).
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((date) => date.toISOString());
  if (schema.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
  if (schema.format === 'uri')
    return fc
      .tuple(fc.constantFrom('https', 'http'), fc.domain(), fc.webPath())
      .map(([scheme, host, path]) => `${scheme}://${host}${path}`)
      .filter(
        (url) =>
          url.length >= min && url.length <= max && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(url)),
      );
  if (schema.format === 'luhn' && typeof schema.pattern === 'string') {
    // The pattern's digits, then the check digit that makes the whole pass Luhn.
    const pattern = new RegExp(schema.pattern);
    return fc
      .tuple(fc.stringMatching(pattern), fc.integer({ min: Math.max(min, 12), max: Math.min(max, 19) }))
      .map(([digits, length]) => withCheckDigit(digits.padEnd(length, '0').slice(0, length - 1)))
      .filter((pan) => pattern.test(pan));
  }
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((text) => text.length >= min && text.length <= max && isWellFormed(text));
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 24)) });
}

/** Values that the schema accepts; `hints` (by property name) replace the schema where it is not enough. */
export function validArbitrary(document: OpenApiDocument, input: Schema | undefined, hints: Hints = {}): fc.Arbitrary<unknown> {
  const schema = resolve(document, input) ?? {};
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => validArbitrary(document, branch, hints)));
  const types = typesOf(schema);
  if (types.length > 1) return fc.oneof(...types.map((type) => validArbitrary(document, { ...schema, type }, hints)));
  switch (types[0]) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      if (Object.keys(properties).length === 0) {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
      }
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, hints[name] ?? validArbitrary(document, property, hints)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []) as string[] });
    }
    case 'array':
      return fc.array(validArbitrary(document, schema.items as Schema, hints), {
        minLength: Number(schema.minItems ?? 0),
        maxLength: Math.min(Number(schema.maxItems ?? 2), 2),
      });
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? 0), max: Number(schema.maximum ?? 1_000_000) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The branch of a oneOf/anyOf a value took (by its `const` members, or by type). */
function branchOf(document: OpenApiDocument, branches: Schema[], value: unknown): Schema | undefined {
  return branches
    .map((branch) => resolve(document, branch)!)
    .find((branch) => {
      if (value === null) return typesOf(branch).includes('null');
      const properties = (branch.properties ?? {}) as Record<string, Schema>;
      const constants = Object.entries(properties).filter(([, property]) => 'const' in property);
      if (!isObject(value)) return !typesOf(branch).includes('null');
      return constants.every(([name, property]) => value[name] === property.const);
    });
}

/** Every place of `value` with the schema that documents it (undefined where none does). */
export function sitesOf(document: OpenApiDocument, input: Schema | undefined, value: unknown, path: Path = []): Site[] {
  let schema = resolve(document, input);
  const branches = (schema?.oneOf ?? schema?.anyOf) as Schema[] | undefined;
  if (branches) schema = branchOf(document, branches, value);
  const here: Site = { path, schema, value };
  if (Array.isArray(value)) {
    return [
      here,
      ...value.flatMap((item, index) => sitesOf(document, schema?.items as Schema | undefined, item, [...path, index])),
    ];
  }
  if (isObject(value)) {
    const properties = (schema?.properties ?? {}) as Record<string, Schema>;
    return [here, ...Object.entries(value).flatMap(([key, item]) => sitesOf(document, properties[key], item, [...path, key]))];
  }
  return [here];
}

/** `root` with the value at `path` replaced. */
export function replaceAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root))
    return (root as unknown[]).map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  return {
    ...(root as Record<string, unknown>),
    [head as string]: replaceAt((root as Record<string, unknown>)[head as string], rest, replacement),
  };
}

function nested(depth: number, leaf: unknown, kind: 'array' | 'object'): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

const EXTRA_KEYS = ['unexpected', '__proto__', 'constructor', '<b>x</b>', "' OR 1=1", '$where'];
const OTHER_TYPES: unknown[] = [0, -1, 1.5, 1e308, true, false, null, [], {}, 'text', [null], { '': null }];

function sameType(a: unknown, b: unknown): boolean {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  return kind(a) === kind(b);
}

/** Mutations of one site: each names what it breaks and yields the replacement. */
export function mutationsOf(site: Site, naughty: readonly string[]): fc.Arbitrary<{ name: string; replacement: unknown }>[] {
  const schema = site.schema ?? {};
  const named = (name: string, arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((replacement) => ({ name, replacement }));
  const mutations = [
    named('wrong type', fc.constantFrom(...OTHER_TYPES.filter((other) => !sameType(other, site.value)))),
    named('naughty string', fc.constantFrom(...naughty)),
    named(
      'huge string',
      fc.integer({ min: 5_000, max: 35_000 }).map((length) => 'ñ'.repeat(length)),
    ),
    named(
      'deep nesting',
      fc
        .tuple(fc.integer({ min: 20, max: 3_000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([depth, kind]) => nested(depth, site.value ?? 1, kind)),
    ),
  ];
  if (typeof schema.maxLength === 'number') {
    const max = schema.maxLength;
    mutations.push(
      named(
        'too long',
        fc.integer({ min: 1, max: 400 }).map((extra) => '7'.repeat(max + extra)),
      ),
    );
  }
  if (typeof site.value === 'string' && (schema.pattern || schema.enum || 'const' in schema || schema.format)) {
    const text = site.value;
    mutations.push(
      named(
        'near miss',
        fc.constantFrom(
          '',
          ` ${text}`,
          `${text}\u0000`,
          text.toLowerCase() === text ? text.toUpperCase() : text.toLowerCase(),
          `${text}x`,
        ),
      ),
    );
  }
  if (isObject(site.value)) {
    const value = site.value;
    const required = ((schema.required ?? []) as string[]).filter((key) => key in value);
    if (required.length > 0)
      mutations.push(
        named(
          'missing required',
          fc.constantFrom(...required).map((key) => omit(value, key)),
        ),
      );
    mutations.push(
      named(
        'extra property',
        fc
          .tuple(fc.constantFrom(...EXTRA_KEYS), fc.jsonValue({ maxDepth: 1 }))
          .map(([key, extra]) => ({ ...value, [key]: extra })),
      ),
    );
  }
  if (Array.isArray(site.value)) {
    const items = site.value as unknown[];
    if (typeof schema.maxItems === 'number') {
      const count = schema.maxItems + 1;
      mutations.push(named('too many items', fc.constant(Array.from({ length: count }, () => items[0] ?? {}))));
    }
    if (typeof schema.minItems === 'number' && schema.minItems > 0) mutations.push(named('too few items', fc.constant([])));
  }
  return mutations;
}

function omit(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _removed, ...rest } = value;
  return rest;
}

/** One mutation at one site of `value`: the mutated root and what was done. */
export function mutatedArbitrary(
  document: OpenApiDocument,
  schema: Schema | undefined,
  value: unknown,
  naughty: readonly string[],
): fc.Arbitrary<{ value: unknown; mutation: string }> {
  const sites = sitesOf(document, schema, value);
  return fc.constantFrom(...sites).chain((site) =>
    fc.oneof(...mutationsOf(site, naughty)).map(({ name, replacement }) => ({
      value: replaceAt(value, site.path, replacement),
      mutation: `${name} at /${site.path.join('/')}`,
    })),
  );
}
