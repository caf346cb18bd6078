import type { operatorClient } from '../../scripts/support/api-client';

export type StoredEvent = { id: string; status: string };

/**
 * The callback events stored for these operations, in their order, read again until none is
 * PENDING (or `timeoutMs` passes): the merchant's receiver sees a delivery before the worker
 * has stored the answer, so a read right after the last arrival can still find one PENDING.
 */
export async function settledEvents(
  operator: ReturnType<typeof operatorClient>,
  operations: { number: string }[],
  timeoutMs = 15_000,
): Promise<StoredEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events: StoredEvent[] = [];
    for (const { number } of operations) {
      const stored = await operator.inspectOperation.query({ merchantCode: 'DEMO001', merchantOperationNumber: number });
      events.push(...(stored.events as StoredEvent[]));
    }
    if (events.every((event) => event.status !== 'PENDING') || Date.now() > deadline) return events;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function countBy(values: string[]): Record<string, number> {
  return values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});
}
