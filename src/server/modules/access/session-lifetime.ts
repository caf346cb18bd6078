import { encode, type JWT, type JWTEncodeParams, type JWTOptions } from 'next-auth/jwt';

// How long a console session's token is good for. next-auth 4 gives its JWT 30 days whatever
// session.maxAge says (jwt.maxAge has its own default), and its session endpoint
// (GET /api/auth/session) issues a fresh token on every call. Both would outlive
// CONSOLE_SESSION_HOURS, so the token's `exp` is always the sign-in's deadline: the time of
// sign-in is kept in the token and a refreshed token gets the same `exp`.

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claim that holds when the user signed in (seconds since the epoch). */
export const SIGNED_IN_AT = 'signedInAt';

/** The token of a sign-in that happens now: the jwt callback stamps it. */
export function stampSignIn(token: JWT): JWT {
  return { ...token, [SIGNED_IN_AT]: nowSeconds() };
}

/** next-auth's jwt options for sessions of `seconds` from sign-in, never more. */
export function sessionTokenOptions(seconds: number): Partial<JWTOptions> {
  return {
    maxAge: seconds,
    encode: (params: JWTEncodeParams) => {
      const stamped = params.token?.[SIGNED_IN_AT];
      // A token without the stamp predates it: its session is treated as over (sign in again).
      const signedInAt = typeof stamped === 'number' ? stamped : 0;
      return encode({ ...params, maxAge: signedInAt + seconds - nowSeconds() });
    },
  };
}
