import { databaseQueue } from '@/server/platform/db/database-queue';
import { EventLoopWatch } from '@/server/platform/observability/event-loop';

// What admission control sheds by (docs/DECISIONS.md, "Overload: admission from the service's own
// queues"): only what the service itself cannot serve in time. Its event loop (a standing delay:
// every callback waits), its database (a standing wait for a connection or the embedded
// database's thread), its heap (nearly full). Time a request spends on a processor or any other
// outbound call, or waiting for another request's answer, is in none of them: those requests
// hold no connection, no thread and little memory while they wait.

export type PressureSignal = 'event_loop' | 'database' | 'memory';

export type PressureLimits = {
  /** A standing delay of the event loop or the database at or past this sheds. */
  waitMs: number;
  /** The heap in use over its limit at or past this sheds. */
  heapUsed: number;
};

export type PressureReading = {
  eventLoopDelayMs: number;
  eventLoopUtilization: number;
  databaseWaitMs: number;
  heapUsed: number;
};

/** Past this share of its limit, the heap's next requests would soon wait on the collector, then fail. */
export const HEAP_USED_LIMIT = 0.9;

const slot = globalThis as typeof globalThis & { __payEventLoop?: EventLoopWatch };

function eventLoop(): EventLoopWatch {
  slot.__payEventLoop ??= new EventLoopWatch().start();
  return slot.__payEventLoop;
}

export function pressureReading(): PressureReading {
  const loop = eventLoop().reading();
  return {
    eventLoopDelayMs: loop.delayMs,
    eventLoopUtilization: loop.utilization,
    databaseWaitMs: databaseQueue().waitMs(),
    heapUsed: loop.heapUsed,
  };
}

/** The first of the service's queues that is past its limit, or null. */
export function pressureOver(reading: PressureReading, limits: PressureLimits): PressureSignal | null {
  if (reading.eventLoopDelayMs >= limits.waitMs) return 'event_loop';
  if (reading.databaseWaitMs >= limits.waitMs) return 'database';
  if (reading.heapUsed >= limits.heapUsed) return 'memory';
  return null;
}
