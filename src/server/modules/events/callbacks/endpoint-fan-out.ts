import type { Db } from '@/server/platform/db/client';

// Events of operations that name no callback_url go to the merchant's webhook endpoints
// subscribed to their type: one endpoint_deliveries row per event and endpoint, written in the
// event's own transaction (the outbox rule, docs/DESIGN.md 9), so a delivery exists exactly
// when its event does.

/** The CTE clause that fans out the events an INSERT ... RETURNING named `events` wrote. */
export function endpointFanOutClause(events: string): string {
  return `${events}_endpoints AS (
  INSERT INTO endpoint_deliveries (id, event_id, endpoint_id, aggregate_id, seq, url, destination)
  SELECT gen_random_uuid(), e.id, w.id, e.aggregate_id, e.seq, w.url, w.destination
  FROM ${events} e
  JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.enabled
    AND (e.type = ANY(w.event_types) OR '*' = ANY(w.event_types))
  WHERE e.callback_url IS NULL
)`;
}

/** What an events INSERT returns for endpointFanOutClause. */
export const FAN_OUT_RETURNING = 'RETURNING id, merchant_id, type, aggregate_id, seq, callback_url';

type Tx = Pick<Db, '$executeRaw'>;

/** The same for events already written in this transaction (the ORM's createMany paths). */
export async function fanOutEvents(tx: Tx, events: { id: string; callbackUrl: string | null }[]): Promise<void> {
  const ids = events.filter((event) => event.callbackUrl === null).map((event) => event.id);
  if (ids.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO endpoint_deliveries (id, event_id, endpoint_id, aggregate_id, seq, url, destination)
    SELECT gen_random_uuid(), e.id, w.id, e.aggregate_id, e.seq, w.url, w.destination
    FROM outbox_events e
    JOIN webhook_endpoints w ON w.merchant_id = e.merchant_id AND w.enabled
      AND (e.type = ANY(w.event_types) OR '*' = ANY(w.event_types))
    WHERE e.id = ANY(${ids}::uuid[])`;
}
