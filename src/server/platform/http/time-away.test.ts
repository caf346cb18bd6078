import { describe, expect, it } from 'vitest';
import { away, waitAway, withAwayClock, type AwayClock } from './time-away';

// A request's time away (a processor's call, a wait for another request's answer) is bracketed
// on its own clock, through every await of its answer; outside a request nothing is counted.

function recordingClock(): AwayClock & { events: string[] } {
  const events: string[] = [];
  return { events, leave: () => events.push('leave'), back: () => events.push('back') };
}

describe('time away from the service', () => {
  it("brackets each stretch away on the request's clock, across awaits, and only that request's", async () => {
    const one = recordingClock();
    const other = recordingClock();
    await Promise.all([
      withAwayClock(one, async () => {
        await Promise.resolve();
        await away(async () => {
          await waitAway(5);
        });
        await waitAway(1);
      }),
      withAwayClock(other, () => Promise.resolve()),
    ]);
    expect(one.events).toEqual(['leave', 'leave', 'back', 'back', 'leave', 'back']);
    expect(other.events).toEqual([]);
  });

  it('brackets a call that fails, and gives its failure back', async () => {
    const clock = recordingClock();
    const failure = await withAwayClock(clock, () => away(() => Promise.reject(new Error('refused')))).catch(
      (error: Error) => error,
    );
    expect(failure.message).toBe('refused');
    expect(clock.events).toEqual(['leave', 'back']);
  });

  it('counts nothing outside a request (the worker)', async () => {
    await expect(away(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
