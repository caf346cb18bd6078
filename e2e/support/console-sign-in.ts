import { ORIGIN } from './service';

// Console sign-in over HTTP, as next-auth's own client does it (no browser): for suites that call
// the console's endpoints with a session cookie of their own.

/** The name=value pairs of a response's Set-Cookie headers. */
function cookiesOf(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
}

/** A CSRF token of next-auth and the cookie it is checked against (a pair stays valid: double submit). */
export async function authCsrf(origin = ORIGIN): Promise<{ cookie: string; token: string }> {
  const response = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { cookie: cookiesOf(response).join('; '), token: csrfToken };
}

/** The Cookie header of a signed-in console session of `email` (throws when the sign-in fails). */
export async function sessionCookie(email: string, password: string, origin = ORIGIN): Promise<string> {
  const csrf = await authCsrf(origin);
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
    body: new URLSearchParams({ csrfToken: csrf.token, email, password, json: 'true' }),
  });
  const session = cookiesOf(response).find((cookie) => cookie.includes('session-token='));
  if (!session) throw new Error(`sign-in as ${email} failed: ${response.status} ${await response.text()}`);
  return session;
}
