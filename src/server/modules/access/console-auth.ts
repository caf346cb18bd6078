import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { env } from '@/env';
import { db } from '@/server/platform/db/client';
import { isExhausted, takeToken } from '@/server/platform/rate-limit/rate-limit';
import { isStorableText } from '@/server/core/interface/common';
import { verifySecret } from '@/server/platform/security/secrets';
import { sessionTokenOptions, stampSignIn } from './session-lifetime';
import { ROLES, type ConsoleSession, type Role } from './console-session';

// Console sign-in (next-auth 4, credentials, JWT sessions). The secret and NEXTAUTH_URL are
// put in place at start (src/server/startup/startup.ts), before any request.
type SessionUser = { id: string; email: string; name: string; role: Role; merchantId: string | null };

async function authorize(email: string, password: string): Promise<SessionUser | null> {
  const normalized = email.trim().toLowerCase();
  // No user has an address the database cannot hold (a NUL failed the lookup in PostgreSQL).
  if (normalized.length > 254 || !isStorableText(normalized)) return null;
  // Failed sign-ins are limited per address: 5, then one every 10 s.
  const limit = { key: `login:${normalized}`, rate: 0.1, burst: 5 };
  if (await isExhausted(limit.key, limit.rate, limit.burst)) return null;
  const user = await (
    await db()
  ).consoleUser.findUnique({
    where: { email: normalized },
    select: { id: true, email: true, name: true, role: true, merchantId: true, passwordHash: true, disabledAt: true },
  });
  const valid = await verifySecret(
    password,
    user?.passwordHash ?? 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  );
  if (!user || !valid || user.disabledAt) {
    await takeToken(limit.key, limit.rate, limit.burst);
    return null;
  }
  return { id: user.id, email: user.email, name: user.name, role: user.role, merchantId: user.merchantId };
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
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          try {
            return await authorize(credentials.email, credentials.password);
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
        return stampSignIn({ ...token, uid: signedIn.id, role: signedIn.role, merchantId: signedIn.merchantId });
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.uid, role: token.role, merchantId: token.merchantId } };
      },
    },
  };
}

/** The console session of a next-auth token, or null when it is not one this service made. */
export function consoleSessionOf(
  token: { uid?: unknown; role?: unknown; merchantId?: unknown; email?: unknown } | null,
): ConsoleSession | null {
  if (!token || typeof token.uid !== 'string' || !(ROLES as readonly unknown[]).includes(token.role)) return null;
  return {
    userId: token.uid,
    email: typeof token.email === 'string' ? token.email : '',
    role: token.role as Role,
    merchantId: typeof token.merchantId === 'string' ? token.merchantId : null,
  };
}
