import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_NUMBER } from '@trpc/server/rpc';
import { internalsIn } from '../../support/leaks';
import { ORIGIN } from '../../support/service';
import type { FuzzRequest } from './request';

// Whether an answer to a bad request is the one it must get: never a 5xx, the expected status
// and code or kind in its shape (the docs/DESIGN.md 4 envelope, or tRPC's error shape), redirects only
// to this origin, no session cookie, and no stack, source path or database text in any body.

export type Answer = { status: number; headers: Headers; text: string };

/** The body without the property names it echoes (errors[].field: the request's own, possibly hostile, names). */
function withoutEchoedFields(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    const strip = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(strip);
      else if (value !== null && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        if (Array.isArray(record.errors)) for (const error of record.errors as Record<string, unknown>[]) delete error.field;
        Object.values(record).forEach(strip);
      }
    };
    strip(body);
    return JSON.stringify(body);
  } catch {
    return text;
  }
}

/** meta.status.code of an envelope (undefined when the body is none). */
export function envelopeCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { meta?: { status?: { code?: string } } }).meta?.status?.code;
  } catch {
    return undefined;
  }
}

type TrpcError = { error?: { message?: unknown; code?: unknown; data?: { kind?: unknown; errors?: unknown } } };

/** Problems of one tRPC error (of a single call or of a batch's item). */
function trpcErrorProblems(item: TrpcError, status: number, kind: string): string[] {
  const error = item.error;
  if (!error || typeof error.message !== 'string' || typeof error.code !== 'number' || !error.data) {
    return [`not a tRPC error: ${JSON.stringify(item).slice(0, 160)}`];
  }
  const problems: string[] = [];
  if (error.data.kind !== kind) problems.push(`kind ${String(error.data.kind)}, expected ${kind}`);
  if (!Array.isArray(error.data.errors)) problems.push('data.errors is not a list');
  // The JSON-RPC code must say what the HTTP status says (tRPC's own table): a client reads it.
  const key = TRPC_ERROR_CODES_BY_NUMBER[error.code as keyof typeof TRPC_ERROR_CODES_BY_NUMBER];
  const keyStatus = key ? getHTTPStatusCodeFromError(new TRPCError({ code: key })) : undefined;
  if (keyStatus !== status)
    problems.push(`tRPC code ${error.code} (${key ?? 'unknown'}) is HTTP ${keyStatus}, the answer ${status}`);
  return problems;
}

function trpcProblems(text: string, status: number, kind: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`not JSON: ${text.slice(0, 120)}`];
  }
  const problems = (Array.isArray(body) ? body : [body]).flatMap((item) => trpcErrorProblems(item as TrpcError, status, kind));
  if (/"stack"\s*:/.test(text)) problems.push('a stack in the body');
  return problems;
}

/** Where an answer sends the client: Location, or the `url` of next-auth's JSON answers (its client follows it). */
function redirectOf(answer: Answer): string | null {
  if (answer.status >= 300 && answer.status < 400) return answer.headers.get('location');
  try {
    const { url } = JSON.parse(answer.text) as { url?: unknown };
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

/** A redirect stays on this origin (and goes where `pattern` says, when it says). */
function locationProblems(location: string | null, pattern: RegExp | undefined): string[] {
  if (!location) return pattern ? ['a redirect without Location'] : [];
  const url = new URL(location, ORIGIN);
  if (url.origin !== ORIGIN) return [`redirects away: ${location}`];
  const target = `${url.pathname}${url.search}`;
  return pattern && !pattern.test(target) ? [`redirects to ${target.slice(0, 120)}, expected ${pattern}`] : [];
}

/** A Set-Cookie that would sign the caller in (a bad request must never do that). */
function sessionCookies(headers: Headers): string[] {
  return headers
    .getSetCookie()
    .filter((cookie) => /session-token=[^;]/.test(cookie))
    .map((cookie) => `sets a session cookie: ${cookie.slice(0, 60)}`);
}

export function problemsOf(item: FuzzRequest, answer: Answer): string[] {
  const { status, headers, text } = answer;
  const { expected } = item;
  const problems = [
    ...(status >= 500 ? [`a server error: ${status}`] : []),
    ...sessionCookies(headers),
    ...internalsIn(withoutEchoedFields(text)).map((pattern) => `internals ${pattern}`),
  ];
  if (Array.isArray(expected)) {
    const code = envelopeCode(text);
    if (status !== expected[0] || code !== expected[1]) problems.push(`expected ${expected.join(' ')}, got ${status} ${code}`);
  } else if ('trpc' in expected) {
    const [expectedStatus, kind] = expected.trpc;
    if (status !== expectedStatus) problems.push(`expected ${expectedStatus} ${kind}, got ${status}`);
    else problems.push(...trpcProblems(text, status, kind));
  } else {
    if (status !== expected.status) problems.push(`expected ${expected.status}, got ${status}`);
    else problems.push(...locationProblems(redirectOf(answer), expected.location));
  }
  return problems;
}
