import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { env } from '@/env';
import { db } from '@/server/platform/db/client';
import { isExhausted, takeToken } from '@/server/platform/rate-limit/rate-limit';
import { isStorableText } from '@/server/core/interface/common';
import { verifySecret } from '@/server/platform/security/secrets';
import { sessionTokenOptions, stampSignIn } from './session-lifetime';
import { ROLES, type ConsoleSession, type Role } from './console-session';
import { endSessions } from './live-session';

// Console sign-in (next-auth 4, credentials, JWT sessions). The secret and NEXTAUTH_URL are
// put in place at start (src/server/startup/startup.ts), before any request.
type SessionUser = { id: string; email: string; name: string; role: Role; merchantId: string | null; generation: number };

/**
 * Failed sign-ins are limited per client address (20, then one every 5 s, whatever account it
 * tries) and per address and account (5, then one every 10 s), never per account alone: an
 * attacker guessing one user's password slows only themselves, and the user still signs in from
 * anywhere else (OWASP Authentication Cheat Sheet, "Protect against automated attacks").
 */
function signInLimits(address: string, email: string) {
  return [
    { key: `login-address:${address}`, rate: 0.2, burst: 20 },
    { key: `login-pair:${address}|${email}`, rate: 0.1, burst: 5 },
  ];
}

async function authorize(email: string, password: string, address: string): Promise<SessionUser | null> {
  const normalized = email.trim().toLowerCase();
  // No user has an address the database cannot hold (a NUL failed the lookup in PostgreSQL).
  if (normalized.length > 254 || !isStorableText(normalized)) return null;
  const limits = signInLimits(address, normalized);
  for (const limit of limits) if (await isExhausted(limit.key, limit.rate, limit.burst)) return null;
  const user = await (
    await db()
  ).consoleUser.findUnique({
    where: { email: normalized },
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      merchantId: true,
      passwordHash: true,
      disabledAt: true,
      sessionGeneration: true,
    },
  });
  const valid = await verifySecret(
    password,
    user?.passwordHash ?? 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
  if (!user || !valid || user.disabledAt) {
    for (const limit of limits) await takeToken(limit.key, limit.rate, limit.burst);
    return null;
  }
  const { id, name, role, merchantId, sessionGeneration: generation } = user;
  return { id, email: user.email, name, role, merchantId, generation };
}

/**
 * Where next-auth may send the browser after signing in or out: an address of this site (a path,
 * or a URL of this origin), else the site's root. next-auth's default puts a path into Location as
 * it comes and parses anything else with `new URL`, so a line break, a character beyond Latin-1 or
 * a relative name (`x`) would be a 500. The URL parser drops line breaks and percent-encodes the rest.
 */
export function sameSiteRedirect(url: string, baseUrl: string): string {
  try {
    const target = new URL(url, baseUrl);
    return target.origin === new URL(baseUrl).origin ? target.href : baseUrl;
  } catch {
    return baseUrl;
  }
}

export function consoleAuthOptions(): NextAuthOptions {
  const sessionSeconds = Math.round(env().CONSOLE_SESSION_HOURS * 3600);
  return {
    // A session ends CONSOLE_SESSION_HOURS after sign-in: the cookie's Expires and the token's exp.
    session: { strategy: 'jwt', maxAge: sessionSeconds },
    jwt: sessionTokenOptions(sessionSeconds),
    // next-auth's own error page answers ?error=Configuration with a 500: its errors go to the login page.
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'credentials',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, request) {
          if (!credentials?.email || !credentials.password) return null;
          // The Node entry wrote the client's address, as TRUSTED_PROXIES lets it be read (http/node-api.ts).
          const forwarded = request.headers?.['x-forwarded-for'] as unknown;
          const address = typeof forwarded === 'string' && forwarded !== '' ? forwarded : 'unknown';
          try {
            return await authorize(credentials.email, credentials.password, address);
          } catch {
            return null;
          }
        },
      }),
    ],
    callbacks: {
      redirect: ({ url, baseUrl }) => sameSiteRedirect(url, baseUrl),
      jwt({ token, user }) {
        if (!user) return token;
        const signedIn = user as unknown as SessionUser;
        const { id: uid, role, merchantId, generation } = signedIn;
        return stampSignIn({ ...token, uid, role, merchantId, generation });
      },
      session({ session, token }) {
        const { uid: id, role, merchantId, generation } = token;
        return { ...session, user: { ...session.user, id, role, merchantId, generation } };
      },
    },
    events: {
      // Signing out ends the session on the server too, in every instance: its generation is gone.
      async signOut({ token }) {
        const session = consoleSessionOf(token);
        if (session?.userId) await endSessions(await db(), session.userId);
      },
    },
  };
}

/** The console session of a next-auth token, or null when it is not one this service made. */
export function consoleSessionOf(
  token: { uid?: unknown; role?: unknown; merchantId?: unknown; email?: unknown; generation?: unknown } | null,
): ConsoleSession | null {
  if (!token || typeof token.uid !== 'string' || !(ROLES as readonly unknown[]).includes(token.role)) return null;
  return {
    userId: token.uid,
    email: typeof token.email === 'string' ? token.email : '',
    role: token.role as Role,
    merchantId: typeof token.merchantId === 'string' ? token.merchantId : null,
    generation: typeof token.generation === 'number' ? token.generation : 0,
  };
}
