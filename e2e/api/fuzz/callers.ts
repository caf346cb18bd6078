import fc from 'fast-check';
import { HEADER_SAFE_STRINGS } from '../../support/naughty-strings';
import type { ConsoleRole } from '../../support/service';
import type { FuzzTarget } from './target';

// Who sends a console request: nobody, a forged or stale session, a session sent from another
// site, an operator token right or wrong, or a signed-in user of each role.

export type Caller = {
  name: string;
  headers: Record<string, string>;
  /** The session cookie: none, one the service did not make, a disabled user's, or a user's of this role. */
  cookie: 'none' | 'forged' | 'disabled user' | ConsoleRole;
  /** Sent with another site's Origin (the tRPC route ignores the session then: no CSRF). */
  crossSite?: true;
  /** Sends the operator token of the service (the CLI's way in: a platform admin). */
  operator?: true;
};

const SESSION = 'next-auth.session-token';

/** The console role a tRPC call acts with, or null when it has none. */
export function trpcRole(caller: Caller): ConsoleRole | null {
  if (caller.operator) return 'PLATFORM_ADMIN';
  if (caller.crossSite || caller.cookie === 'none' || caller.cookie === 'forged' || caller.cookie === 'disabled user')
    return null;
  return caller.cookie;
}

function forgedCookies(target: FuzzTarget): fc.Arbitrary<string> {
  const real = target.sessions.PLATFORM_ADMIN.slice(SESSION.length + 1);
  const flipped = `${real.slice(0, 40)}${real[40] === 'A' ? 'B' : 'A'}${real.slice(41)}`;
  return fc.oneof(
    fc.constantFrom(
      ...HEADER_SAFE_STRINGS.filter((text) => !/[;,]/.test(text)),
      flipped,
      real.slice(0, -10),
      `${real}.x`,
      real.split('.').slice(0, 3).join('.'),
    ),
    fc.base64String({ minLength: 4, maxLength: 400 }),
  );
}

export function callers(target: FuzzTarget): fc.Arbitrary<Caller> {
  const roles = Object.keys(target.sessions) as ConsoleRole[];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<Caller>({ name: 'no session', headers: {}, cookie: 'none' }) },
    forgedCookies(target).map((value): Caller => ({
      name: 'forged session',
      headers: { cookie: `${SESSION}=${value}` },
      cookie: 'forged',
    })),
    fc.constant<Caller>({ name: 'disabled user', headers: { cookie: target.disabledSession }, cookie: 'disabled user' }),
    fc
      .tuple(fc.constantFrom(...roles), fc.constantFrom('https://evil.example', 'null', 'http://localhost.evil.example'))
      .map(([role, origin]): Caller => ({
        name: `${role} from another site`,
        headers: { cookie: target.sessions[role], origin },
        cookie: role,
        crossSite: true,
      })),
    fc
      .oneof(
        fc.constantFrom(...HEADER_SAFE_STRINGS),
        fc.constant(`${target.operatorToken}x`),
        fc.constant(target.operatorToken.slice(1)),
      )
      .map((value): Caller => ({ name: 'wrong operator token', headers: { 'x-operator-token': value }, cookie: 'none' })),
    {
      weight: 2,
      arbitrary: fc.constant<Caller>({
        name: 'operator token',
        headers: { 'x-operator-token': target.operatorToken },
        cookie: 'none',
        operator: true,
      }),
    },
    {
      weight: 8,
      arbitrary: fc
        .constantFrom(...roles)
        .map((role): Caller => ({ name: role, headers: { cookie: target.sessions[role] }, cookie: role })),
    },
  );
}
