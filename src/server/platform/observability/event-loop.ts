import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { StandingDelay, STANDING_INTERVAL_MS } from './standing-delay';

// The event loop and the heap as admission control reads them (platform/http/service-pressure.ts),
// after @fastify/under-pressure: a timer due every SAMPLE_MS says how late the loop runs it (its
// delay), the loop's utilization is read every interval, and the heap with it. The timer does
// not keep the process alive.

const SAMPLE_MS = 10;

export type LoopReading = {
  /** The loop's standing delay (standing-delay.ts), or how overdue the timer is when that is longer than an interval. */
  delayMs: number;
  /** The loop's utilization over the last interval, 0 to 1. */
  utilization: number;
  /** The heap in use over the heap's limit, 0 to 1. */
  heapUsed: number;
};

export class EventLoopWatch {
  private readonly delay = new StandingDelay();
  private readonly heapLimit = getHeapStatistics().heap_size_limit;
  private due = performance.now() + SAMPLE_MS;
  private lastRead = performance.now();
  private elu = performance.eventLoopUtilization();
  private utilization = 0;
  private heapUsed = 0;
  private timer: NodeJS.Timeout | undefined;

  start(): this {
    this.schedule();
    return this;
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  reading(now = performance.now()): LoopReading {
    const overdue = now - this.due;
    const standing = this.delay.standing(now);
    return {
      delayMs: overdue >= STANDING_INTERVAL_MS ? Math.max(overdue, standing) : standing,
      utilization: this.utilization,
      heapUsed: this.heapUsed,
    };
  }

  private schedule(): void {
    this.due = performance.now() + SAMPLE_MS;
    this.timer = setTimeout(() => this.tick(), SAMPLE_MS);
    this.timer.unref();
  }

  private tick(): void {
    const now = performance.now();
    this.delay.record(Math.max(0, now - this.due), now);
    if (now - this.lastRead >= STANDING_INTERVAL_MS) {
      const elu = performance.eventLoopUtilization();
      this.utilization = performance.eventLoopUtilization(elu, this.elu).utilization;
      this.elu = elu;
      this.heapUsed = process.memoryUsage().heapUsed / this.heapLimit;
      this.lastRead = now;
    }
    this.schedule();
  }
}
