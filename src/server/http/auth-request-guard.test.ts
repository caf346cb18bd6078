import { describe, expect, it } from 'vitest';
import { answerBeforeNextAuth } from './auth-request-guard';

// Sign-in requests next-auth 4 answered with a 500 (the fuzz suite's finds).
const ORIGIN = 'http://localhost:3000';
const post = (body: string, type = 'application/json') =>
  new Request(`${ORIGIN}/api/auth/callback/credentials`, { method: 'POST', headers: { 'content-type': type }, body });

async function answer(request: Request, segments = ['callback', 'credentials']) {
  const response = await answerBeforeNextAuth(request, segments);
  if (!response) return null;
  if (response.status === 302) return { status: 302, location: response.headers.get('location') };
  const body = (await response.json()) as { meta: { status: { code: string } } };
  return { status: response.status, code: body.meta.status.code, allow: response.headers.get('allow') };
}

describe('sign-in requests next-auth would fail with a 500', () => {
  it('refuses the credentials callback by GET with 405 (POST only)', async () => {
    expect(await answer(new Request(`${ORIGIN}/api/auth/callback/credentials`))).toEqual({
      status: 405,
      code: '31',
      allow: 'POST, OPTIONS',
    });
  });

  it('refuses a JSON body that is not JSON with 400 12, and leaves the rest to next-auth', async () => {
    for (const text of ['{', '{"email":', "{'a':1}", 'NaN'])
      expect(await answer(post(text))).toMatchObject({ status: 400, code: '12' });
    for (const text of ['{}', '"x"', 'null', '\ufeff{"a":1}']) expect(await answer(post(text))).toBeNull();
    expect(await answer(post('{', 'application/x-www-form-urlencoded'))).toBeNull();
    expect(await answer(new Request(`${ORIGIN}/api/auth/session`), ['session'])).toBeNull();
  });

  it('refuses a JSON body over 64 KiB with 413 51 before reading it as JSON', async () => {
    expect(await answer(post(`{"pad":"${'x'.repeat(64 * 1024)}"}`))).toMatchObject({ status: 413, code: '51' });
  });

  it('leaves the body for next-auth to read', async () => {
    const request = post('{"email":"a"}');
    expect(await answerBeforeNextAuth(request, ['callback', 'credentials'])).toBeNull();
    expect(await request.json()).toEqual({ email: 'a' });
  });

  it('refuses a callback URL that is neither http(s) nor a path, and clears such a cookie', async () => {
    for (const value of ['6rL', 'javascript:alert(1)', 'undefined', '%x%x']) {
      const query = new Request(`${ORIGIN}/api/auth/session?callbackUrl=${encodeURIComponent(value)}`);
      expect(await answer(query, ['session'])).toMatchObject({ status: 400, code: '10' });
    }
    const cookie = new Request(`${ORIGIN}/api/auth/csrf`, { headers: { cookie: 'next-auth.callback-url=true; other=1' } });
    const refusal = (await answerBeforeNextAuth(cookie, ['csrf']))!;
    expect(refusal.status).toBe(400);
    expect(refusal.headers.get('set-cookie')).toBe('next-auth.callback-url=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    for (const value of ['/operations', 'https://elsewhere.example/x', `${ORIGIN}/`]) {
      const fine = new Request(`${ORIGIN}/api/auth/signin?callbackUrl=${encodeURIComponent(value)}`, {
        headers: { cookie: `next-auth.callback-url=${encodeURIComponent(value)}` },
      });
      expect(await answer(fine, ['signin'])).toBeNull();
    }
  });

  it('sends the error page to the login page with the error encoded (a line break or an emoji was a 500)', async () => {
    const error = (text: string) => new Request(`${ORIGIN}/api/auth/error?error=${encodeURIComponent(text)}`);
    expect(await answer(error('\r\nX-Injected: 1'), ['error'])).toEqual({
      status: 302,
      location: `${ORIGIN}/login?error=%0D%0AX-Injected%3A%201`,
    });
    expect(await answer(error('𝕿𝖍𝖊'), ['error'])).toEqual({
      status: 302,
      location: `${ORIGIN}/login?error=${encodeURIComponent('𝕿𝖍𝖊')}`,
    });
    expect(await answer(new Request(`${ORIGIN}/api/auth/error`), ['error'])).toEqual({
      status: 302,
      location: `${ORIGIN}/login?error=`,
    });
  });
});
