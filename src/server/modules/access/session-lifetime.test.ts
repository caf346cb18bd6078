import { decode } from 'next-auth/jwt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGNED_IN_AT, sessionTokenOptions, stampSignIn } from './session-lifetime';

const SECRET = 'session-lifetime-test-secret-0123456789';
const HOUR = 3600;

async function reissued(token: Record<string, unknown>) {
  const text = await sessionTokenOptions(2 * HOUR).encode!({ token, secret: SECRET, maxAge: 30 * 24 * HOUR });
  return decode({ token: text, secret: SECRET }).catch(() => null);
}

describe('console session tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('expire at the sign-in deadline, whatever maxAge next-auth asks for', async () => {
    // next-auth reads the clock again when it sets `exp`: a second that turns between the two
    // reads would move it by one, so the clock stands still here.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T10:00:00.500Z'));
    const token = stampSignIn({ sub: 'u1' });
    const decoded = await reissued(token);
    expect(decoded?.exp).toBe((token[SIGNED_IN_AT] as number) + 2 * HOUR);
  });

  it('are over when re-issued without a sign-in time (a token from before the stamp)', async () => {
    expect(await reissued({ sub: 'u1' })).toBeNull();
    expect(await reissued({ sub: 'u1', [SIGNED_IN_AT]: Math.floor(Date.now() / 1000) - 3 * HOUR })).toBeNull();
  });
});
