import { env } from '@/env';
import { errorReply } from '@/server/platform/http/json-response';
import { methodNotAllowed } from '@/server/platform/http/method-not-allowed';
import { fromFetchRequest, toResponse } from '@/server/platform/http/api-request';
import { readBodyText } from '@/server/platform/http/read-json-body';
import { requestIdOf } from '@/server/platform/http/request-id';
import { AppError } from '@/server/core/domain/errors';

// Requests to the sign-in endpoints (/api/auth/*) that next-auth 4 answers with a 500, answered
// here before it sees them (all found by the fuzz suite):
// - the credentials callback by GET ("Callback for provider type credentials not supported"): 405;
// - a POST saying application/json whose body is not JSON (its body reader throws): 400 12;
// - a callbackUrl parameter or callback-url cookie that is not an http(s) URL or a path (its
//   configuration check fails every action but its HTML pages): 400 10, and the cookie is cleared;
// - its error page (/api/auth/error?error=...), which puts the error in a Location header as it
//   came (a line break or a character beyond Latin-1 cannot be a header): the console's login
//   page with the error, encoded.

const CALLBACK_URL_COOKIES = ['next-auth.callback-url', '__Secure-next-auth.callback-url'];

/** next-auth's own test of a callback URL (core/lib/assert.js). */
export function isCallbackUrl(value: string, base: string): boolean {
  try {
    return /^https?:/.test(new URL(value, value.startsWith('/') ? base : undefined).protocol);
  } catch {
    return false;
  }
}

function cookiesOf(request: Request): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const index = pair.indexOf('=');
    if (index < 0) continue;
    const value = pair.slice(index + 1).trim();
    try {
      cookies.set(pair.slice(0, index).trim(), decodeURIComponent(value));
    } catch {
      cookies.set(pair.slice(0, index).trim(), value);
    }
  }
  return cookies;
}

function badCallbackUrl(request: Request, url: URL): Response | null {
  const cookies = cookiesOf(request);
  const badParameter = url.searchParams.getAll('callbackUrl').some((value) => value && !isCallbackUrl(value, url.origin));
  const badCookies = CALLBACK_URL_COOKIES.filter((name) => {
    const value = cookies.get(name);
    return value !== undefined && value !== '' && !isCallbackUrl(value, url.origin);
  });
  if (!badParameter && badCookies.length === 0) return null;
  const refusal = toResponse(
    errorReply(
      new AppError('VALIDATION', 'callbackUrl must be an http(s) URL or a path of this site'),
      'boolean',
      requestIdOf(request.headers),
    ),
  );
  for (const name of badCookies) refusal.headers.append('set-cookie', `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  return refusal;
}

/** The answer to such a request, or null for one next-auth can take. */
export async function answerBeforeNextAuth(request: Request, segments: string[]): Promise<Response | null> {
  const url = new URL(request.url);
  const requestId = requestIdOf(request.headers);
  if (request.method === 'GET' && segments[0] === 'callback' && segments[1] === 'credentials') {
    return toResponse(methodNotAllowed(['POST'])({ method: request.method, headers: request.headers }));
  }
  // next-auth reads a POST body whose content type includes application/json with Request.json().
  // Read as the API reads bodies: at most 64 KiB (413 past that), then JSON.
  if (request.method === 'POST' && request.body && (request.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      // As Request.json() reads it: a leading byte order mark is not part of the JSON.
      JSON.parse((await readBodyText(fromFetchRequest(request.clone()))).replace(/^\ufeff/, ''));
    } catch (error) {
      const refusal = error instanceof AppError ? error : new AppError('MALFORMED_BODY', 'the body is not JSON');
      return toResponse(errorReply(refusal, 'boolean', requestId));
    }
  }
  const callbackUrlRefusal = badCallbackUrl(request, url);
  if (callbackUrlRefusal) return callbackUrlRefusal;
  if (request.method === 'GET' && segments[0] === 'error') {
    const error = url.searchParams.get('error') ?? segments[1] ?? '';
    // The public origin, not the request's (behind a proxy that ends TLS the request says http).
    return Response.redirect(new URL(`/login?error=${encodeURIComponent(error)}`, env().origin), 302);
  }
  return null;
}
