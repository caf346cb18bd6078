import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { env, sessionSecret } from '@/env';
import { newNonce, pageCsp } from '@/server/platform/security/content-security-policy';
import { repairedPath } from '@/server/platform/security/malformed-path';

// Every page gets a Content-Security-Policy with a fresh nonce (Next reads it from the request
// headers and puts it on its scripts). Console pages also need a signed-in user; the login and
// payer pages do not. Every rule about what a user may see or do is enforced again in the tRPC
// procedures. API routes, static files (public/robots.txt among them) and the API reference
// are not matched (next.config.js gives them their headers), except API paths with a `%`: a
// path Next cannot decode would be a bare 500 from Next, so it is redirected to itself with its
// `%` escaped (src/server/platform/security/malformed-path.ts).
const PUBLIC_PAGES = [/^\/login(\/|$)/, /^\/pay\//];
const API = /^\/(api|oauth)\//;

export async function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  const repaired = repairedPath(path);
  // Same method and body, to the path as sent (a rewrite would still fail in Next's param decoding).
  if (repaired) return NextResponse.redirect(new URL(`${repaired}${request.nextUrl.search}`, request.url), 308);
  if (API.test(path)) return NextResponse.next();
  const nonce = newNonce();
  const csp = pageCsp(nonce, { dev: env().NODE_ENV === 'development', payerPage: path.startsWith('/pay/') });
  if (!PUBLIC_PAGES.some((page) => page.test(path))) {
    const token = await getToken({ req: request, secret: sessionSecret() });
    if (!token) {
      const login = new URL('/login', request.url);
      login.searchParams.set('callbackUrl', `${path}${request.nextUrl.search}`);
      const redirect = NextResponse.redirect(login);
      redirect.headers.set('content-security-policy', csp);
      return redirect;
    }
  }
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  return response;
}

export const config = {
  matcher: ['/((?!api/|oauth/|docs|_next/|icon.svg|favicon.ico|robots.txt).*)', '/((?:api|oauth)/.*%.*)'],
};
