// A compact list of strings that break careless code: injection, markup, format strings,
// Unicode edge cases, control characters, bidirectional text, emoji and sheer length. The fuzz
// suite puts them in bodies, paths, query strings and headers; the free-text suite stores them.

export const SQL_INJECTION = [
  "'; DROP TABLE operations; --",
  "' OR '1'='1",
  '" OR ""="',
  '1; SELECT pg_sleep(10); --',
  "') UNION SELECT client_secret_hash FROM api_credentials --",
  '$1',
  '%',
  '_',
  '\\',
  "\\'; TRUNCATE transactions; --",
];

export const MARKUP = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "javascript:alert('x')",
  '<svg/onload=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '<!--#exec cmd="ls" -->',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  '__proto__',
  '{"__proto__":{"admin":true}}',
  'constructor',
];

export const FORMAT_STRINGS = [
  '%s%s%s%s%n',
  '%x%x%x',
  '{0}{1}',
  '%(name)s',
  '\\u0000',
  'null',
  'undefined',
  'NaN',
  'true',
  '-1',
  '0',
  '1e309',
];

export const UNICODE = [
  '\u0000',
  'a\u0000b',
  '\u0007\u0008\u001b[31m',
  '\r\n\r\nX-Injected: 1',
  '\t',
  '\ufeff',
  '\u200b',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שלום',
  '👩‍👩‍👧‍👦🇵🇪💳',
  '\ud83d',
  '\udfff\ud800',
  'Ω≈ç√∫˜µ≤≥÷',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͕͊',
  'ǅǈǋ',
  'ﬀ',
  'İıſ',
  '\uffff',
  '𝕿𝖍𝖊',
];

export const LENGTHY = ['x'.repeat(129), 'ñ'.repeat(300), '9'.repeat(2049), 'A'.repeat(5000)];

export const NAUGHTY_STRINGS: readonly string[] = [...SQL_INJECTION, ...MARKUP, ...FORMAT_STRINGS, ...UNICODE, ...LENGTHY];

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `text` with unpaired surrogates replaced, as it travels in a URL or a UTF-8 body. */
export function wellFormed(text: string): string {
  return text.replace(new RegExp(UNPAIRED_SURROGATE.source, 'g'), '\ufffd');
}

/** Whether `text` is valid Unicode text (no unpaired surrogate). */
export function isWellFormed(text: string): boolean {
  return !UNPAIRED_SURROGATE.test(text);
}

/** The ones PostgreSQL can store as text: no NUL, no unpaired surrogate. */
export const STORABLE_STRINGS = NAUGHTY_STRINGS.filter((text) => !text.includes('\u0000') && isWellFormed(text));

/** The ones a header value can carry (printable ASCII, no CR/LF). */
export const HEADER_SAFE_STRINGS = NAUGHTY_STRINGS.filter((text) => /^[\x20-\x7e]{1,1000}$/.test(text));
