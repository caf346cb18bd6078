import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import type { DeliveryResult } from '@/server/modules/events/callbacks/deliver';
import { destinationOutcome, isDestinationFailure } from './destination-holds';

const fixture = withTestDatabase();

const answered = (statusCode: number | null, ok = false): DeliveryResult => ({
  ok,
  permanent: false,
  statusCode,
  latencyMs: 5,
  error: ok ? null : statusCode === null ? 'no answer within 10000 ms' : `HTTP ${statusCode}`,
  responseSnippet: '',
});

async function holdOf(destination: string) {
  const row = await fixture.db.prisma.callbackDestination.findUnique({ where: { destination } });
  return (
    row && {
      failures: row.failures,
      seconds: Math.round((row.heldUntil.getTime() - row.updatedAt.getTime()) / 1000),
      lastError: row.lastError,
    }
  );
}

describe('destination holds', () => {
  it('hold a destination on no answer or 429, not on another answer or a refused address', () => {
    expect(isDestinationFailure(answered(null))).toBe(true);
    expect(isDestinationFailure(answered(503))).toBe(false);
    expect(isDestinationFailure(answered(429))).toBe(true);
    expect(isDestinationFailure(answered(404))).toBe(false);
    expect(isDestinationFailure(answered(200, true))).toBe(false);
    expect(isDestinationFailure({ ...answered(null), permanent: true })).toBe(false);
  });

  it('double with failures in a row up to 60 s, and end with an answer', async () => {
    const destination = 'https://flaky.example';
    const seconds: number[] = [];
    for (let failure = 0; failure < 8; failure += 1) {
      await destinationOutcome(fixture.db.prisma, destination, answered(null));
      seconds.push((await holdOf(destination))!.seconds);
    }
    expect(seconds).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
    expect(await holdOf(destination)).toMatchObject({ failures: 8, lastError: 'no answer within 10000 ms' });
    await destinationOutcome(fixture.db.prisma, destination, answered(400));
    expect(await holdOf(destination)).toBeNull();
  });
});
