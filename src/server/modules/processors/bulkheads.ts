import { getHeapStatistics } from 'node:v8';
import { env } from '@/env';
import { BulkheadBoard, defaultBulkheadLimit } from '@/server/core/orchestration';

// One bulkhead per connector and instance (core/orchestration/bulkhead.ts), its limit set per
// connector by PROCESSOR_CALL_LIMITS or sized from the connector's timeout and this process's
// heap. Route handlers and the instrumentation hook are separate bundles of one process: the
// board lives on globalThis so that they share it.
const slot = globalThis as typeof globalThis & { __payBulkheads?: BulkheadBoard };

export function bulkheads(): BulkheadBoard {
  slot.__payBulkheads ??= new BulkheadBoard((connectorId, timeoutMs) => {
    return env().PROCESSOR_CALL_LIMITS[connectorId] ?? defaultBulkheadLimit(timeoutMs, getHeapStatistics().heap_size_limit);
  });
  return slot.__payBulkheads;
}

/**
 * A call that gives money back (a reversal, a refund): counted in the connector's bulkhead, never
 * refused by it, since refusing would keep the payer's money held.
 */
export async function moneyBackCall<T>(connector: { id: string; timeoutMs: number }, call: () => Promise<T>): Promise<T> {
  const release = bulkheads().for(connector).enterAlways();
  try {
    return await call();
  } finally {
    release();
  }
}

/** This instance's calls in flight to a connector, its bulkhead's limit and the calls it kept back (the console's figures). */
export function callsOf(connector: { id: string; timeoutMs: number }) {
  const bulkhead = bulkheads().for(connector);
  return { inFlight: bulkhead.inFlight, limit: bulkhead.limit, refused: bulkhead.refused };
}
