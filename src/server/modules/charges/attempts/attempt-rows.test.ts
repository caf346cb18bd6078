import { describe, expect, it } from 'vitest';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';
import { newAttempt, type AttemptRoute, type ChargeBase } from './attempt-rows';

// A payment to capture later gets its capture window on its first attempt: the merchant's, ended
// sooner where the processor releases an uncaptured authorization on its own (Culqi after 4 days).
const fixture = withTestMerchant('ROWS');
const DAY = 86_400_000;
const AT = new Date('2026-11-27T12:00:00Z');

function captureBeforeOf(captureMode: 'MANUAL' | 'AUTOMATIC', windowDays: number, holdDays?: number) {
  const base: ChargeBase = {
    merchant: { ...fixture.merchant, captureWindowDays: windowDays },
    body: chargeRequest(fixture.merchant.code, 'rows-1', 'CARD'),
    requestHash: 'hash-rows-1',
    card: null,
    methodDetails: {},
    authentication: null,
    captureMode,
    cardSaveId: null,
    storedCredential: null,
  };
  const route: AttemptRoute = {
    connectorId: 'any',
    routing: { rule_version: null, route: null, reason: 'test' },
    ...(holdDays === undefined ? {} : { holdDays }),
  };
  return newAttempt(base, route, 0, AT).row.captureBefore;
}

describe('an attempt to capture later', () => {
  it("is captured within the merchant's window where the processor holds longer", () => {
    expect(captureBeforeOf('MANUAL', 7)).toEqual(new Date(AT.getTime() + 7 * DAY));
    expect(captureBeforeOf('MANUAL', 7, 22)).toEqual(new Date(AT.getTime() + 7 * DAY));
    expect(captureBeforeOf('MANUAL', 29, 29)).toEqual(new Date(AT.getTime() + 29 * DAY));
  });

  it('is captured before the processor releases it on its own', () => {
    expect(captureBeforeOf('MANUAL', 7, 4)).toEqual(new Date(AT.getTime() + 4 * DAY));
    expect(captureBeforeOf('MANUAL', 29, 22)).toEqual(new Date(AT.getTime() + 22 * DAY));
  });

  it('has no window when captured with its authorization', () => {
    expect(captureBeforeOf('AUTOMATIC', 7, 4)).toBeNull();
  });
});
