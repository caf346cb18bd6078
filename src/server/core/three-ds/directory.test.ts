import { describe, expect, it } from 'vitest';
import { authenticate, publicThreeDs, verifyChallenge, type ThreeDsResult } from './directory';

// The sandbox directory server and ACS (docs/ORCHESTRATION.md 1 and 5).
const VISA = '4111111111111111';
const MASTERCARD = '5555555555554444';
const AMEX = '378282246310005';
const DISCOVER = '6011111111111117';
const DINERS = '30569309025904';
const CHALLENGE = '4000000000003220';
const NEVER_PASSES = '4000000000003253';

const request = (pan: string) => ({ pan, amount: 15_000n, currency: '604' });
const result = (answer: ReturnType<typeof authenticate> | ReturnType<typeof verifyChallenge>): ThreeDsResult => {
  if (!('result' in answer)) throw new Error(`no result: ${answer.kind}`);
  return answer.result;
};

describe('authenticate', () => {
  it('challenges 3220 and 3253, and authenticates every other valid card without the payer', () => {
    expect(authenticate(request(CHALLENGE))).toEqual({ kind: 'challenge' });
    expect(authenticate(request(NEVER_PASSES))).toEqual({ kind: 'challenge' });
    for (const pan of ['4000000000003063', '4000000000003261', VISA, '4000000000008005']) {
      const answer = authenticate(request(pan));
      expect(answer.kind).toBe('frictionless');
      expect(result(answer)).toMatchObject({ version: '2.2.0', status: 'Y', eci: '05', challenged: false });
    }
  });

  it('gives the ECI of the brand', () => {
    expect(result(authenticate(request(MASTERCARD))).eci).toBe('02');
    for (const pan of [AMEX, DISCOVER, DINERS]) expect(result(authenticate(request(pan))).eci).toBe('05');
  });

  it('carries a fresh CAVV-like authentication value for Y', () => {
    const first = result(authenticate(request(VISA))).authenticationValue!;
    const second = result(authenticate(request(VISA))).authenticationValue!;
    expect(Buffer.from(first, 'base64')).toHaveLength(20);
    expect(first).not.toBe(second);
  });

  it('answers U without an authentication value for a card it cannot place', () => {
    for (const pan of ['4111111111111112', '9999999999999995']) {
      const answer = authenticate(request(pan));
      expect(answer.kind).toBe('failed');
      expect(result(answer)).toMatchObject({ status: 'U', challenged: false, authenticationValue: null });
    }
  });
});

describe('verifyChallenge', () => {
  it('passes the sandbox code', () => {
    const passed = result(verifyChallenge({ pan: CHALLENGE, code: '123456', triesSoFar: 0 }));
    expect(passed).toMatchObject({ status: 'Y', eci: '05', challenged: true });
    expect(passed.authenticationValue).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(result(verifyChallenge({ pan: MASTERCARD, code: '123456', triesSoFar: 2 })).eci).toBe('02');
  });

  it('counts wrong codes and fails at the third', () => {
    expect(verifyChallenge({ pan: CHALLENGE, code: '000000', triesSoFar: 0 })).toEqual({ kind: 'retry', triesLeft: 2 });
    expect(verifyChallenge({ pan: CHALLENGE, code: '654321', triesSoFar: 1 })).toEqual({ kind: 'retry', triesLeft: 1 });
    const failed = result(verifyChallenge({ pan: CHALLENGE, code: '111111', triesSoFar: 2 }));
    expect(failed).toEqual({ version: '2.2.0', status: 'N', eci: '07', challenged: true, authenticationValue: null });
    expect(result(verifyChallenge({ pan: MASTERCARD, code: '111111', triesSoFar: 2 })).eci).toBe('00');
    expect(result(verifyChallenge({ pan: CHALLENGE, code: '123456', triesSoFar: 3 })).status).toBe('N');
  });

  it('never passes the challenge of 3253, even with the sandbox code', () => {
    for (const code of ['123456', '000000']) {
      expect(result(verifyChallenge({ pan: NEVER_PASSES, code, triesSoFar: 0 }))).toMatchObject({
        status: 'N',
        challenged: true,
        authenticationValue: null,
      });
    }
  });
});

describe('publicThreeDs', () => {
  it('keeps version, status, ECI and challenged, and drops the authentication value', () => {
    const passed = result(verifyChallenge({ pan: CHALLENGE, code: '123456', triesSoFar: 0 }));
    const shown = publicThreeDs(passed);
    expect(shown).toEqual({ version: '2.2.0', status: 'Y', eci: '05', challenged: true });
    expect(JSON.stringify(shown)).not.toContain(passed.authenticationValue!);
  });
});
