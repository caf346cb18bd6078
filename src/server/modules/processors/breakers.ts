import { BreakerBoard } from '@/server/core/orchestration';

// One circuit breaker per connector and instance (docs/ORCHESTRATION.md 4). Route handlers and
// the instrumentation hook are separate bundles of one process: the board lives on globalThis
// so that they share it.
const slot = globalThis as typeof globalThis & { __payBreakers?: BreakerBoard };

export function breakers(): BreakerBoard {
  slot.__payBreakers ??= new BreakerBoard({ now: () => Date.now() });
  return slot.__payBreakers;
}

/**
 * Starts every breaker afresh: the start-up's own charges (startup/warm-charge.ts), made before
 * the instance serves any request, are not the processors' health.
 */
export function forgetBreakers(): void {
  slot.__payBreakers = undefined;
}
