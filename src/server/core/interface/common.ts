import { z } from 'zod';

// Shapes shared by every resource of the interface (part 2.1) and the rules of docs/DESIGN.md 7.
const CENTS = /^[1-9][0-9]{0,11}$/;

export const centsString = z
  .string()
  .regex(CENTS, 'must be a positive integer amount in cents: digits only, no leading zero, at most 12 digits');

export const currencyCode = z.enum(['604', '840'], { error: 'must be 604 (PEN) or 840 (USD)' });

// Response fields: plain strings to the type checker, documented with the values the services
// write (the API suite checks every answer against the document).
export const centsText = z.string().meta({ pattern: CENTS.source });
export const currencyText = z.string().meta({ enum: currencyCode.options });

/** A page size: 1 to 500 (a query parameter, so text). */
export const pageLimit = (items: string) =>
  z
    .string()
    .regex(/^([1-9][0-9]?|[1-4][0-9]{2}|500)$/, 'must be 1 to 500')
    .meta({ description: `${items} a page, 50 by default` });

export const merchantCode = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'must be 1 to 64 letters, digits, - or _');

export const merchantOperationNumber = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, - or _');

// PostgreSQL stores neither NUL nor unpaired UTF-16 surrogates (text and jsonb alike): text
// that the service keeps is refused with them (400), not failed on at the database (500).
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// As a JSON Schema pattern (ECMA-262 with the u flag, as OpenAPI 3.1 validators match): no NUL,
// no surrogate code point (a paired surrogate is one code point above U+FFFF, so it passes).
const STORABLE_PATTERN = '^[^\\u0000\\ud800-\\udfff]*$';

/** Whether PostgreSQL can store `text` (no NUL, no unpaired surrogate). */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

export const storable = (schema: z.ZodString) =>
  schema.refine(isStorableText, 'must not contain NUL or unpaired surrogates').meta({ pattern: STORABLE_PATTERN });

export const httpUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL')
  .refine(isStorableText, 'must not contain NUL or unpaired surrogates')
  // WHATWG URL parsing forgives more than RFC 3986 (spaces trimmed, backslashes), so the document
  // asks for the strict RFC 3986 form; what the parser still refuses in it (a port above 65535,
  // an empty host) is a described rule (api/openapi/request-rules.ts).
  .meta({
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+([/?#][^\\s]*)?$',
    description: 'An absolute http(s) URL',
  });

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A path parameter: the REST bridge hands path segments over still percent-encoded, while the
 * interface (and OpenAPI's simple style) means their decoded text: `ord%2D1` is `ord-1`.
 */
export function pathParameter<T extends z.ZodType>(schema: T) {
  return z
    .preprocess((value) => (typeof value === 'string' ? decodeSegment(value) : value), schema)
    .meta({ param: { required: true } });
}

export const uuid = z.uuid({ error: 'must be a UUID' });

export const timeObject = z
  .object({
    utc_time: z.string().meta({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]{3}Z)?$',
      description:
        'UTC; with milliseconds and Z in authorization and query bodies, without either in cancellation and refund bodies',
    }),
    unix_time: z.number().int(),
  })
  .meta({ id: 'TimeObject', description: 'The same instant as ISO 8601 UTC text and Unix seconds.' });

export const metaStatus = z
  .object({
    status: z.object({
      code: z.string(),
      message_ilgn: z.array(z.object({ locale: z.string(), value: z.string() })),
    }),
  })
  .meta({ id: 'Meta' });

/** A lifecycle entry whose state is one of `states`. */
export const lifecycleEntry = (states: readonly string[]) =>
  z.object({ state: z.string().meta({ enum: [...states] }), date: timeObject });

export const shortText = (max = 128) => storable(z.string().max(max, `must be at most ${max} characters`));

/** The nesting depth of a JSON value, counted without recursion (a hostile body may nest thousands deep). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return deepest;
}
