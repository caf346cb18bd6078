import type { Db } from '@/server/db/client';
import { env } from '@/env';
import { callbackSigningKey } from '@/server/callbacks/signing-keys';
import { deliverCallback, retryDelayMs } from '@/server/callbacks/deliver';
import { boundedResolver, type ResolveHost } from '@/server/callbacks/resolve-host';
import { logError } from '@/server/log';
import { destinationOutcome } from './destination-holds';

// Delivers due outbox events (docs/DESIGN.md 9). Events are claimed with a lease, so two workers
// never deliver one event at once, and an event whose worker died is claimed again when its lease
// (CALLBACK_LEASE_SECONDS) ends: at least once. Events of one transaction or refund go out in
// order: one is claimable only when no earlier one of its aggregate is still pending.
//
// No destination (a callback URL's origin) delays another's: each gets at most
// CALLBACK_DESTINATION_CONCURRENCY deliveries in flight across every worker (leases not yet
// over), the claim walks the destinations with due events one by one (a skip scan of the
// (status, destination, next_attempt_at) index, so thousands of events due to a dead host are
// never read past) and takes each one's oldest first, and what it takes is shared round-robin
// across destinations and merchants: a destination's k-th claim ranks as its (in flight + k)-th
// delivery. A destination that hangs holds its own few slots until their timeouts; and a worker
// whose slots are all taken still starts one delivery for each destination with none under way
// (up to twice its capacity). First attempts go before retries of the same rank, and a
// destination that just failed is held back (destination-holds.ts), so a healthy endpoint's
// callback never waits behind failing ones.
type Claimed = {
  id: string;
  type: string;
  payload: unknown;
  callback_url: string;
  destination: string | null;
  attempts: number;
};

/**
 * Claims up to `limit` due events. `idleOnly`: only one each for destinations with nothing in
 * flight (what a worker at capacity still starts, so a healthy endpoint never waits for slots
 * that failing ones hold).
 */
export async function claimDueEvents(prisma: Db, limit: number, { idleOnly = false } = {}): Promise<Claimed[]> {
  if (limit <= 0) return [];
  const config = env();
  // The UPDATE's own lease check, evaluated again on the row's newest version when another
  // worker claimed it first (READ COMMITTED), is what keeps two workers from taking one event.
  return prisma.$queryRaw<Claimed[]>`
    WITH RECURSIVE destinations AS (
      (SELECT destination FROM outbox_events
        WHERE status = 'PENDING' AND destination IS NOT NULL ORDER BY destination LIMIT 1)
      UNION ALL
      SELECT (SELECT e.destination FROM outbox_events e
               WHERE e.status = 'PENDING' AND e.destination > d.destination ORDER BY e.destination LIMIT 1)
      FROM destinations d WHERE d.destination IS NOT NULL
    ),
    load AS (
      SELECT d.destination, (
        SELECT count(*)::int FROM outbox_events busy
        WHERE busy.status = 'PENDING' AND busy.destination = d.destination AND busy.lease_until >= now()) AS busy
      FROM destinations d
      WHERE d.destination IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM callback_destinations held WHERE held.destination = d.destination AND held.held_until > now())
    ),
    candidates AS (
      SELECT c.id, c.merchant_id, c.next_attempt_at, c.seq, c.attempts, l.destination, l.busy
      FROM load l
      CROSS JOIN LATERAL (
        SELECT e.id, e.merchant_id, e.next_attempt_at, e.seq, e.attempts FROM outbox_events e
        WHERE e.status = 'PENDING' AND e.destination = l.destination AND e.next_attempt_at <= now()
          AND (e.lease_until IS NULL OR e.lease_until < now())
          AND NOT EXISTS (
            SELECT 1 FROM outbox_events earlier
            WHERE earlier.aggregate_id = e.aggregate_id AND earlier.status = 'PENDING' AND earlier.seq < e.seq)
        ORDER BY e.next_attempt_at, e.seq
        LIMIT CASE WHEN ${idleOnly} THEN (CASE WHEN l.busy = 0 THEN 1 ELSE 0 END)
                   ELSE GREATEST(0, ${config.CALLBACK_DESTINATION_CONCURRENCY}::int - l.busy) END
      ) c
    ),
    ranked AS (
      SELECT id, next_attempt_at, attempts,
        busy + row_number() OVER (PARTITION BY destination ORDER BY next_attempt_at, seq) AS slot,
        row_number() OVER (PARTITION BY merchant_id ORDER BY next_attempt_at, seq) AS in_merchant
      FROM candidates
    )
    UPDATE outbox_events SET lease_until = now() + make_interval(secs => ${config.CALLBACK_LEASE_SECONDS})
    WHERE id IN (SELECT id FROM ranked ORDER BY slot, attempts > 0, in_merchant, next_attempt_at LIMIT ${limit})
      AND status = 'PENDING' AND (lease_until IS NULL OR lease_until < now())
    RETURNING id, type, payload, callback_url, destination, attempts`;
}

let resolver: { timeoutMs: number; resolve: ResolveHost } | undefined;

/** One resolver per process (c-ares channels are not free), with the configured bound. */
function resolveHost(): ResolveHost {
  const timeoutMs = env().CALLBACK_DNS_TIMEOUT_MS;
  if (resolver?.timeoutMs !== timeoutMs) resolver = { timeoutMs, resolve: boundedResolver(timeoutMs) };
  return resolver.resolve;
}

/** Sends one claimed event and records the attempt; `manual` attempts come from a resend. */
export async function sendEvent(prisma: Db, event: Claimed, manual = false): Promise<void> {
  const config = env();
  const key = await callbackSigningKey(prisma);
  const body = JSON.stringify(event.payload);
  const startedAt = new Date();
  const result = await deliverCallback(event.callback_url, body, {
    eventId: event.id,
    eventType: event.type,
    keyId: key.kid,
    privateKey: key.privateKey,
    timeoutMs: config.CALLBACK_TIMEOUT_MS,
    guardAddresses: !config.SANDBOX_MODE,
    resolveHost: resolveHost(),
  });
  const number = event.attempts + 1;
  const delay = result.ok || result.permanent ? null : retryDelayMs(config.CALLBACK_RETRY_SECONDS, number);
  const status = result.ok ? 'DELIVERED' : delay === null ? 'FAILED' : 'PENDING';
  // Stored with the attempt, so every instance's /api/metrics counts it (observability/callback-metrics.ts).
  const outcome = result.ok ? 'delivered' : status === 'FAILED' ? 'failed' : 'retry';
  await prisma.$transaction([
    ...(event.destination ? [destinationOutcome(prisma, event.destination, result)] : []),
    prisma.callbackAttempt.create({
      data: {
        eventId: event.id,
        number,
        startedAt,
        latencyMs: result.latencyMs,
        statusCode: result.statusCode,
        error: result.error,
        responseSnippet: result.responseSnippet,
        manual,
        outcome,
      },
    }),
    prisma.outboxEvent.update({
      where: { id: event.id },
      data: {
        attempts: number,
        status,
        leaseUntil: null,
        lastError: result.error,
        ...(result.ok ? { deliveredAt: new Date() } : {}),
        ...(delay !== null ? { nextAttemptAt: new Date(Date.now() + delay) } : {}),
      },
    }),
  ]);
}

/** Deliveries under way in this process, by event id. */
export type InFlight = Map<string, Promise<void>>;

/**
 * Keeps the leases of deliveries still under way: a lease shorter than the callback timeout
 * (quick takeover after a crash) must not hand a live delivery to another worker, nor free its
 * destination's slot while the endpoint still holds it.
 */
export async function renewLeases(prisma: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await prisma.$executeRaw`
    UPDATE outbox_events SET lease_until = now() + make_interval(secs => ${env().CALLBACK_LEASE_SECONDS})
    WHERE id = ANY(${ids}::uuid[]) AND status = 'PENDING' AND lease_until IS NOT NULL`;
}

/** One pass: claims what it has room for and sends those without waiting for the slow ones. */
export function startDeliveries(prisma: Db, inFlight: InFlight, capacity: number): Promise<number> {
  const room = capacity - inFlight.size;
  const claim =
    room > 0 ? claimDueEvents(prisma, room) : claimDueEvents(prisma, 2 * capacity - inFlight.size, { idleOnly: true });
  return claim.then((events) => {
    for (const event of events) {
      const delivery = sendEvent(prisma, event)
        .catch((error: unknown) => logError('callback delivery failed', error, { event_id: event.id }))
        .finally(() => inFlight.delete(event.id));
      inFlight.set(event.id, delivery);
    }
    return events.length;
  });
}
