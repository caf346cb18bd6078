import { describe, expect, it } from 'vitest';
import { StandingDelay } from './standing-delay';

describe('a standing delay (the least delay over the last interval)', () => {
  it('reads 0 when nothing was seen, and a burst that drains as the quick item it had', () => {
    const delay = new StandingDelay(100);
    expect(delay.standing(0)).toBe(0);
    // A burst: the first item waits nothing, the last 40 ms.
    for (const [at, waited] of [
      [10, 0],
      [12, 10],
      [14, 25],
      [16, 40],
    ] as const)
      delay.record(waited, at);
    expect(delay.standing(20)).toBe(0);
  });

  it('reads what every item waited when a queue stands, and forgets it an interval after it drained', () => {
    const delay = new StandingDelay(100);
    for (let at = 0; at <= 300; at += 10) delay.record(30 + at / 10, at);
    expect(delay.standing(300)).toBeGreaterThanOrEqual(30 + 250 / 10);
    // Drained: items pass at once again.
    delay.record(1, 310);
    expect(delay.standing(311)).toBe(1);
    // Nothing for longer than an interval: no queue.
    expect(delay.standing(500)).toBe(0);
  });

  it('keeps an interval of memory across a quiet half: an item 99 ms ago still counts', () => {
    const delay = new StandingDelay(100);
    delay.record(40, 0);
    delay.record(45, 40);
    expect(delay.standing(60)).toBe(40);
    expect(delay.standing(99)).toBe(40);
    delay.record(50, 120);
    expect(delay.standing(121)).toBe(50);
    expect(delay.standing(300)).toBe(0);
  });
});
