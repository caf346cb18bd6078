import type { Db } from '@/server/platform/db/client';
import { env } from '@/env';

// Claims due callback deliveries (docs/DESIGN.md 9): an operation's own callback (the outbox
// event itself) and the events' deliveries to the merchant's webhook endpoints
// (endpoint_deliveries). A claim is a lease, so two workers never send one delivery at once, and
// one whose worker died is claimed again when its lease (CALLBACK_LEASE_SECONDS) ends: at least
// once. An aggregate's events go out in order: to its callback URL, and to each endpoint.
//
// No destination (a URL's origin) delays another's: each gets at most
// CALLBACK_DESTINATION_CONCURRENCY deliveries in flight across every worker (leases not yet
// over); the claim walks the destinations with pending deliveries one by one (a skip scan of the
// (status, destination, next_attempt_at) indexes, so thousands of deliveries due to a dead host
// are never read past) and takes each one's oldest first; what it takes is shared round-robin
// across destinations and merchants: a destination's k-th claim ranks as its (in flight + k)-th
// delivery, first attempts before retries. A worker whose slots are all taken still starts one
// delivery for each destination with none under way (idleOnly), and a destination that just
// failed is held back (destination-holds.ts), so a healthy endpoint never waits behind failing ones.

export type Claimed = {
  /** The event's id (the callback's `event_id`). */
  id: string;
  /** The endpoint delivery's id and its endpoint; null for the operation's own callback. */
  delivery_id: string | null;
  endpoint_id: string | null;
  type: string;
  payload: unknown;
  url: string;
  destination: string | null;
  attempts: number;
};

/** Claims up to `limit` due deliveries; `idleOnly`: one each for destinations with none under way. */
export async function claimDueDeliveries(prisma: Db, limit: number, { idleOnly = false } = {}): Promise<Claimed[]> {
  if (limit <= 0) return [];
  // Most polls find nothing due: one plain read then, instead of a transaction that holds the
  // embedded database's only connection across event-loop turns (docs/BENCHMARKS.md, stalls).
  if (!(await anyDeliveryDue(prisma))) return [];
  const config = env();
  const perDestination = config.CALLBACK_DESTINATION_CONCURRENCY;
  // Each UPDATE's own checks, evaluated again on the row's newest version when another worker
  // claimed or sent it meanwhile (READ COMMITTED), keep two workers from taking one delivery; the
  // lock makes claims take turns, so that each counts the others' leases (a destination's bound
  // holds across workers). The claim's statement starts after the lock: a fresh snapshot.
  const [, claimed] = await prisma.$transaction([
    prisma.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`,
    claimStatement(prisma, limit, idleOnly, perDestination, config.CALLBACK_LEASE_SECONDS),
  ]);
  return claimed;
}

/** Whether some delivery is due and not leased (held destinations still count: the claim skips them). */
async function anyDeliveryDue(prisma: Db): Promise<boolean> {
  const [row] = await prisma.$queryRaw<{ due: boolean }[]>`
    SELECT EXISTS (
        SELECT 1 FROM outbox_events
        WHERE status = 'PENDING' AND destination IS NOT NULL AND next_attempt_at <= now()
          AND (lease_until IS NULL OR lease_until < now()))
      OR EXISTS (
        SELECT 1 FROM endpoint_deliveries
        WHERE status = 'PENDING' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())) AS due`;
  return row?.due === true;
}

/** An advisory lock key of its own (pg_advisory_xact_lock takes any bigint). */
const CLAIM_LOCK = 7_201_125_001;

function claimStatement(prisma: Db, limit: number, idleOnly: boolean, perDestination: number, leaseSeconds: number) {
  return prisma.$queryRaw<Claimed[]>`
    WITH RECURSIVE event_destinations AS (
      (SELECT destination FROM outbox_events
        WHERE status = 'PENDING' AND destination IS NOT NULL ORDER BY destination LIMIT 1)
      UNION ALL
      SELECT (SELECT e.destination FROM outbox_events e
               WHERE e.status = 'PENDING' AND e.destination > d.destination ORDER BY e.destination LIMIT 1)
      FROM event_destinations d WHERE d.destination IS NOT NULL
    ),
    endpoint_destinations AS (
      (SELECT destination FROM endpoint_deliveries WHERE status = 'PENDING' ORDER BY destination LIMIT 1)
      UNION ALL
      SELECT (SELECT x.destination FROM endpoint_deliveries x
               WHERE x.status = 'PENDING' AND x.destination > d.destination ORDER BY x.destination LIMIT 1)
      FROM endpoint_destinations d WHERE d.destination IS NOT NULL
    ),
    destinations AS (
      SELECT destination FROM event_destinations WHERE destination IS NOT NULL
      UNION
      SELECT destination FROM endpoint_destinations WHERE destination IS NOT NULL
    ),
    load AS (
      SELECT d.destination,
        (SELECT count(*)::int FROM outbox_events b
          WHERE b.status = 'PENDING' AND b.destination = d.destination AND b.lease_until >= now())
        + (SELECT count(*)::int FROM endpoint_deliveries b
          WHERE b.status = 'PENDING' AND b.destination = d.destination AND b.lease_until >= now()) AS busy
      FROM destinations d
      WHERE NOT EXISTS (
        SELECT 1 FROM callback_destinations held WHERE held.destination = d.destination AND held.held_until > now())
    ),
    candidates AS (
      SELECT c.kind, c.id, c.merchant_id, c.next_attempt_at, c.seq, c.attempts, l.destination, l.busy
      FROM load l
      CROSS JOIN LATERAL (
        (SELECT 'event' AS kind, e.id, e.merchant_id, e.next_attempt_at, e.seq, e.attempts FROM outbox_events e
          WHERE e.status = 'PENDING' AND e.destination = l.destination AND e.next_attempt_at <= now()
            AND (e.lease_until IS NULL OR e.lease_until < now())
            AND NOT EXISTS (
              SELECT 1 FROM outbox_events earlier
              WHERE earlier.aggregate_id = e.aggregate_id AND earlier.status = 'PENDING' AND earlier.seq < e.seq)
          ORDER BY e.next_attempt_at, e.seq
          LIMIT ${perDestination})
        UNION ALL
        (SELECT 'endpoint' AS kind, x.id, w.merchant_id, x.next_attempt_at, x.seq, x.attempts
          FROM endpoint_deliveries x JOIN webhook_endpoints w ON w.id = x.endpoint_id AND w.enabled
          WHERE x.status = 'PENDING' AND x.destination = l.destination AND x.next_attempt_at <= now()
            AND (x.lease_until IS NULL OR x.lease_until < now())
            AND NOT EXISTS (
              SELECT 1 FROM endpoint_deliveries earlier
              WHERE earlier.endpoint_id = x.endpoint_id AND earlier.aggregate_id = x.aggregate_id
                AND earlier.status = 'PENDING' AND earlier.seq < x.seq)
          ORDER BY x.next_attempt_at, x.seq
          LIMIT ${perDestination})
      ) c
    ),
    ranked AS (
      SELECT kind, id, next_attempt_at, attempts, busy,
        busy + row_number() OVER (PARTITION BY destination ORDER BY next_attempt_at, seq) AS slot,
        row_number() OVER (PARTITION BY merchant_id ORDER BY next_attempt_at, seq) AS in_merchant
      FROM candidates
    ),
    chosen AS (
      SELECT kind, id FROM ranked
      WHERE CASE WHEN ${idleOnly} THEN busy = 0 AND slot = 1 ELSE slot <= ${perDestination} END
      ORDER BY slot, attempts > 0, in_merchant, next_attempt_at
      LIMIT ${limit}
    ),
    claimed_events AS (
      UPDATE outbox_events SET lease_until = now() + make_interval(secs => ${leaseSeconds})
      WHERE id IN (SELECT id FROM chosen WHERE kind = 'event')
        AND status = 'PENDING' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
      RETURNING id, NULL::uuid AS delivery_id, NULL::uuid AS endpoint_id, type, payload, callback_url AS url, destination, attempts
    ),
    claimed_endpoints AS (
      UPDATE endpoint_deliveries x SET lease_until = now() + make_interval(secs => ${leaseSeconds})
      FROM outbox_events e
      WHERE x.id IN (SELECT id FROM chosen WHERE kind = 'endpoint') AND e.id = x.event_id
        AND x.status = 'PENDING' AND x.next_attempt_at <= now() AND (x.lease_until IS NULL OR x.lease_until < now())
      RETURNING e.id, x.id AS delivery_id, x.endpoint_id, e.type, e.payload, x.url, x.destination, x.attempts
    )
    SELECT * FROM claimed_events UNION ALL SELECT * FROM claimed_endpoints`;
}
