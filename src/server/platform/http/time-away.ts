import { AsyncLocalStorage } from 'node:async_hooks';

// The time a request spends away from the service: on a processor or any other outbound call,
// or waiting for another request's answer (an idempotent retry waiting on the first). Admission
// control counts a request's time in the service without it (admission.ts): a charge waiting a
// second on its processor holds no connection, no thread, and costs nothing meanwhile.

/** What admission keeps of one request; `leave` and `back` bracket each stretch away (they may nest). */
export type AwayClock = { leave(now: number): void; back(now: number): void };

const current = new AsyncLocalStorage<AwayClock>();

/** Runs `work` (the request's answer) with `clock` as its request's. */
export function withAwayClock<T>(clock: AwayClock, work: () => T): T {
  return current.run(clock, work);
}

/** Runs `work` as time away for the request it is part of (nothing is counted outside a request: the worker's jobs). */
export async function away<T>(work: () => Promise<T>): Promise<T> {
  const clock = current.getStore();
  if (!clock) return work();
  clock.leave(performance.now());
  try {
    return await work();
  } finally {
    clock.back(performance.now());
  }
}

/** Waits `ms` as time away (a poll for another request's answer). */
export function waitAway(ms: number): Promise<void> {
  return away(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}
