// A queue's standing delay, as CoDel reads it (Nichols and Jacobson, "Controlling Queue Delay",
// 2012; the same rule as Facebook's request queues): the least delay any item met over the last
// interval. A burst makes a queue that drains, and some item in the interval passes quickly; a
// standing queue, one the service cannot work through, delays every item. So a burst into an
// idle service reads near 0, and overload reads what each request is made to wait.

export const STANDING_INTERVAL_MS = 100;

type Bucket = { start: number; min: number };

export class StandingDelay {
  // Two half-interval buckets, the older and the current: the least of both covers between a
  // half and a whole interval, with no list of samples to keep.
  private older: Bucket = { start: Number.NEGATIVE_INFINITY, min: Number.POSITIVE_INFINITY };
  private current: Bucket = { start: Number.NEGATIVE_INFINITY, min: Number.POSITIVE_INFINITY };

  constructor(private readonly intervalMs = STANDING_INTERVAL_MS) {}

  /** One item's delay, met at `now` (ms on the caller's clock). */
  record(delayMs: number, now: number): void {
    this.roll(now);
    if (delayMs < this.current.min) this.current.min = delayMs;
  }

  /** The least delay met over the last interval; 0 when no item was seen in it (nothing queued). */
  standing(now: number): number {
    this.roll(now);
    const least = Math.min(this.older.min, this.current.min);
    return least === Number.POSITIVE_INFINITY ? 0 : least;
  }

  private roll(now: number): void {
    const half = this.intervalMs / 2;
    if (now - this.current.start < half) return;
    this.older = now - this.current.start < this.intervalMs ? this.current : { start: now - half, min: Number.POSITIVE_INFINITY };
    this.current = { start: now, min: Number.POSITIVE_INFINITY };
  }
}
