import type { Db } from '@/server/platform/db/client';
import { env } from '@/env';
import { logError } from '@/server/platform/log';
import { claimDueDeliveries } from './claim-deliveries';
import { sendDelivery } from './send-delivery';

// The worker's callback pass: claims what it has room for (claim-deliveries.ts) and sends each
// without waiting for the slow ones (send-delivery.ts), keeping the leases of those under way.

/** Deliveries under way in this process, by delivery (endpoint delivery id, or event id). */
export type InFlight = Map<string, { delivery: Promise<void>; endpoint: boolean }>;

/**
 * Keeps the leases of deliveries still under way: a lease shorter than the callback timeout
 * (quick takeover after a crash) must not hand a live delivery to another worker, nor free its
 * destination's slot while the endpoint still holds it.
 */
export async function renewLeases(prisma: Db, inFlight: InFlight): Promise<void> {
  const ids = (endpoint: boolean) => [...inFlight].filter(([, each]) => each.endpoint === endpoint).map(([id]) => id);
  const lease = env().CALLBACK_LEASE_SECONDS;
  const [events, deliveries] = [ids(false), ids(true)];
  if (events.length > 0) {
    await prisma.$executeRaw`
      UPDATE outbox_events SET lease_until = now() + make_interval(secs => ${lease})
      WHERE id = ANY(${events}::uuid[]) AND status = 'PENDING' AND lease_until IS NOT NULL`;
  }
  if (deliveries.length > 0) {
    await prisma.$executeRaw`
      UPDATE endpoint_deliveries SET lease_until = now() + make_interval(secs => ${lease})
      WHERE id = ANY(${deliveries}::uuid[]) AND status = 'PENDING' AND lease_until IS NOT NULL`;
  }
}

/** One pass: claims what it has room for (or, when full, one per idle destination) and sends those. */
export function startDeliveries(prisma: Db, inFlight: InFlight, capacity: number): Promise<number> {
  const room = capacity - inFlight.size;
  const claim =
    room > 0 ? claimDueDeliveries(prisma, room) : claimDueDeliveries(prisma, 2 * capacity - inFlight.size, { idleOnly: true });
  return claim.then((claimed) => {
    for (const each of claimed) {
      const key = each.delivery_id ?? each.id;
      const delivery = sendDelivery(prisma, each)
        .catch((error: unknown) => logError('callback delivery failed', error, { event_id: each.id }))
        .finally(() => inFlight.delete(key));
      inFlight.set(key, { delivery, endpoint: each.delivery_id !== null });
    }
    return claimed.length;
  });
}
