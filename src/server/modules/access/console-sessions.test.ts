import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, db } from '@/server/platform/db/client';
import { hashSecret } from '@/server/platform/security/secrets';

// A console session ends CONSOLE_SESSION_HOURS after sign-in, on every path that reads it: the
// cookie comes from next-auth's own sign-in (its handler with the console's options, as
// /api/auth/* runs them), then the clock moves on. Before the end, src/proxy.ts lets a page through
// and a console procedure answers through the real tRPC route; after it, the page is sent to
// /login and the procedure answers 401, also when the token was refreshed through next-auth's
// session endpoint in between.
const HOURS = 2;
const ORIGIN = 'http://localhost:3999';
const PASSWORD = 'session-test-password-1';
const EMAIL = 'owner@expiry.pe';
const dataDir = mkdtempSync(path.join(tmpdir(), 'console-session-'));

vi.stubEnv('CONSOLE_SESSION_HOURS', String(HOURS));
vi.stubEnv('NEXTAUTH_SECRET', 'console-session-expiry-test-secret-0123456789');
vi.stubEnv('NEXTAUTH_URL', ORIGIN);
vi.stubEnv('DATABASE_URL', '');
vi.stubEnv('PGLITE_DIR', dataDir);
vi.stubEnv('LOG_REQUESTS', 'false');

type SetCookie = { value: string; expires: Date | null };
type NextAuthAnswer = { body: unknown; cookies: Map<string, SetCookie> };

/**
 * next-auth's handler with the console's options (its API-route form: the App Router form reads
 * next/headers, which only exists inside Next): the body and the cookies it sets.
 */
async function nextAuth(
  action: string[],
  request: {
    method?: 'GET' | 'POST';
    cookies?: Record<string, string>;
    body?: Record<string, string>;
    headers?: Record<string, string>;
  } = {},
): Promise<NextAuthAnswer> {
  const { consoleAuthOptions } = await import('./console-auth');
  const headers: Record<string, string[]> = {};
  let body: unknown;
  const response = {
    status: () => response,
    getHeader: (name: string) => headers[name.toLowerCase()],
    setHeader: (name: string, value: string | string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value : [value];
      return response;
    },
    end: () => undefined,
    json: (value: unknown) => (body = value),
    send: (value: unknown) => (body = value),
  };
  const incoming = {
    method: request.method ?? 'GET',
    query: { nextauth: action },
    cookies: request.cookies ?? {},
    headers: { host: new URL(ORIGIN).host, ...request.headers },
    body: request.body,
  };
  await NextAuth(incoming as never, response as never, consoleAuthOptions());
  const cookies = new Map<string, SetCookie>();
  for (const line of headers['set-cookie'] ?? []) {
    const [pair = '', ...attributes] = line.split('; ');
    const [name = '', value = ''] = pair.split('=');
    const expires = attributes.find((attribute) => attribute.startsWith('Expires='))?.slice('Expires='.length);
    cookies.set(name, { value: decodeURIComponent(value), expires: expires ? new Date(expires) : null });
  }
  return { body, cookies };
}

const SESSION_COOKIE = 'next-auth.session-token';

/**
 * The credentials form posted from `address` (the X-Forwarded-For the Node entry settled): the
 * session cookie next-auth set, if it did.
 */
async function attempt(password: string, address = '198.51.100.1', email = EMAIL): Promise<SetCookie | undefined> {
  const csrf = await nextAuth(['csrf']);
  const { csrfToken } = csrf.body as { csrfToken: string };
  const answer = await nextAuth(['callback', 'credentials'], {
    method: 'POST',
    cookies: Object.fromEntries([...csrf.cookies].map(([name, cookie]) => [name, cookie.value])),
    body: { csrfToken, email, password, callbackUrl: `${ORIGIN}/operations`, json: 'true' },
    headers: { 'x-forwarded-for': address },
  });
  return answer.cookies.get(SESSION_COOKIE);
}

/** Signs in with the credentials form's fields: the session cookie next-auth sets, and when the browser drops it. */
async function signIn(address?: string): Promise<{ cookie: string; expires: Date | null }> {
  const session = await attempt(PASSWORD, address);
  expect(session?.value, 'a session cookie after signing in').toBeTruthy();
  return { cookie: `${SESSION_COOKIE}=${session!.value}`, expires: session!.expires };
}

/** POST /api/auth/signout with the session cookie, as the console's sign-out button sends it. */
async function signOut(cookie: string): Promise<void> {
  const csrf = await nextAuth(['csrf']);
  const { csrfToken } = csrf.body as { csrfToken: string };
  await nextAuth(['signout'], {
    method: 'POST',
    cookies: {
      ...Object.fromEntries([...csrf.cookies].map(([name, each]) => [name, each.value])),
      [SESSION_COOKIE]: cookie.slice(SESSION_COOKIE.length + 1),
    },
    body: { csrfToken, callbackUrl: `${ORIGIN}/login`, json: 'true' },
  });
}

/** The cookie next-auth's session endpoint (GET /api/auth/session) sends back for this one. */
async function refreshed(cookie: string): Promise<string> {
  const answer = await nextAuth(['session'], { cookies: { [SESSION_COOKIE]: cookie.slice(SESSION_COOKIE.length + 1) } });
  const session = answer.cookies.get(SESSION_COOKIE);
  expect(session?.value, 'a refreshed session cookie').toBeTruthy();
  expect(session!.value).not.toBe(cookie.slice(SESSION_COOKIE.length + 1));
  return `${SESSION_COOKIE}=${session!.value}`;
}

/** src/proxy.ts on a console page: null when it lets the request through, else where it redirects. */
async function proxyRedirect(cookie: string): Promise<string | null> {
  const { proxy } = await import('@/proxy');
  const response = await proxy(new NextRequest(`${ORIGIN}/operations?state=PENDIENTE`, { headers: { cookie } }));
  if (response.headers.get('x-middleware-next') === '1') return null;
  expect(response.status).toBe(307);
  return response.headers.get('location');
}

/** console.operations through the real tRPC route handler, with the session cookie: the status. */
async function procedureStatus(cookie: string): Promise<number> {
  const { GET } = await import('@/app/api/trpc/[trpc]/route');
  const input = encodeURIComponent(JSON.stringify({}));
  const response = await GET(new Request(`${ORIGIN}/api/trpc/console.operations?input=${input}`, { headers: { cookie } }));
  return response.status;
}

const SIGNED_IN_AT = new Date('2026-03-02T15:00:00.000Z');
const at = (minutes: number) => new Date(SIGNED_IN_AT.getTime() + minutes * 60_000);

beforeAll(async () => {
  const prisma = await db();
  const merchant = await prisma.merchant.create({ data: { code: 'EXPIRY1', name: 'Expiry shop' } });
  await prisma.consoleUser.create({
    data: {
      email: EMAIL,
      name: 'Owner',
      role: 'MERCHANT_ADMIN',
      merchantId: merchant.id,
      passwordHash: await hashSecret(PASSWORD),
    },
  });
}, 60_000);

afterEach(() => vi.useRealTimers());

afterAll(async () => {
  await closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe(`a console session (CONSOLE_SESSION_HOURS=${HOURS})`, () => {
  it('works until its hours are up, then the proxy sends pages to /login and procedures answer 401', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: SIGNED_IN_AT });
    const { cookie, expires } = await signIn();
    expect(expires?.toISOString()).toBe(at(HOURS * 60).toISOString());

    vi.setSystemTime(at(HOURS * 60 - 1));
    expect(await proxyRedirect(cookie)).toBeNull();
    expect(await procedureStatus(cookie)).toBe(200);

    // A client that keeps the cookie past its Expires (a script, a copied header) gets nothing.
    vi.setSystemTime(at(HOURS * 60 + 1));
    expect(await proxyRedirect(cookie)).toBe(`${ORIGIN}/login?callbackUrl=%2Foperations%3Fstate%3DPENDIENTE`);
    expect(await procedureStatus(cookie)).toBe(401);
  });

  it("ends at the sign-in's deadline even when refreshed through /api/auth/session", async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: SIGNED_IN_AT });
    const { cookie } = await signIn();
    vi.setSystemTime(at(HOURS * 60 - 5));
    const renewed = await refreshed(cookie);
    expect(await procedureStatus(renewed)).toBe(200);

    vi.setSystemTime(at(HOURS * 60 + 1));
    expect(await proxyRedirect(renewed)).toMatch(/\/login\?callbackUrl=/);
    expect(await procedureStatus(renewed)).toBe(401);
  });
});

describe('a sign-in with an address no user can have', () => {
  it('is refused as wrong credentials, before the database (a NUL failed the lookup in PostgreSQL)', async () => {
    const lookups = vi.spyOn((await db()).consoleUser, 'findUnique');
    const csrf = await nextAuth(['csrf']);
    const { csrfToken } = csrf.body as { csrfToken: string };
    for (const email of [`owner\u0000@expiry.pe`, `${'a'.repeat(250)}@expiry.pe`]) {
      const answer = await nextAuth(['callback', 'credentials'], {
        method: 'POST',
        cookies: Object.fromEntries([...csrf.cookies].map(([name, cookie]) => [name, cookie.value])),
        body: { csrfToken, email, password: PASSWORD, callbackUrl: `${ORIGIN}/operations`, json: 'true' },
      });
      expect(answer.cookies.has(SESSION_COOKIE)).toBe(false);
      expect((answer.body as { url: string }).url).toContain('error=CredentialsSignin');
    }
    expect(lookups).not.toHaveBeenCalled();
    lookups.mockRestore();
  });
});

describe('ending a session on the server', () => {
  it('signing out ends the session: its cookie, kept and sent again, is refused in every instance', async () => {
    const { cookie } = await signIn();
    const other = await signIn('198.51.100.2');
    expect(await procedureStatus(cookie)).toBe(200);
    await signOut(cookie);
    expect(await procedureStatus(cookie)).toBe(401);
    // Every session of the user ends with it (the one on another device too); signing in again works.
    expect(await procedureStatus(other.cookie)).toBe(401);
    expect(await procedureStatus((await signIn()).cookie)).toBe(200);
  });

  it("an admin changing the user's role ends the user's sessions", async () => {
    const { cookie } = await signIn();
    expect(await procedureStatus(cookie)).toBe(200);
    const prisma = await db();
    const user = await prisma.consoleUser.findUniqueOrThrow({ where: { email: EMAIL } });
    const { changeMerchantUser } = await import('./merchant-users');
    const admin = await prisma.consoleUser.create({
      data: { email: 'second@expiry.pe', role: 'MERCHANT_ADMIN', merchantId: user.merchantId, passwordHash: 'x' },
    });
    await changeMerchantUser(prisma, { kind: 'one', merchantId: user.merchantId! }, admin.id, {
      userId: user.id,
      role: 'MERCHANT_VIEWER',
    });
    expect(await procedureStatus(cookie)).toBe(401);
    await prisma.consoleUser.update({ where: { id: user.id }, data: { role: 'MERCHANT_ADMIN' } });
  });
});

describe('the sign-in limit', () => {
  it("slows the attacker's address and pair, and the owner still signs in from elsewhere", async () => {
    const attacker = '203.0.113.66';
    // One account's password guessed from one address: after 5 failures even the right password is refused there.
    for (let guess = 0; guess < 6; guess += 1) expect(await attempt(`wrong-${guess}`, attacker)).toBeUndefined();
    expect(await attempt(PASSWORD, attacker)).toBeUndefined();
    expect((await attempt(PASSWORD, '198.51.100.77'))?.value).toBeTruthy();
  });

  it('slows an address that tries many accounts, not the accounts', async () => {
    const sprayer = '203.0.113.77';
    for (let account = 0; account < 21; account += 1) {
      expect(await attempt('wrong', sprayer, `nobody-${account}@expiry.pe`)).toBeUndefined();
    }
    expect(await attempt(PASSWORD, sprayer)).toBeUndefined();
    expect((await attempt(PASSWORD, '198.51.100.78'))?.value).toBeTruthy();
  });
});
