import type { Db } from '@/server/db/client';
import { env } from '@/env';
import { callbackSigningKey } from '@/server/auth/service-keys';
import { deliverCallback, retryDelayMs } from '@/server/callbacks/deliver';
import { logError } from '@/server/log';

// Delivers due outbox events (docs/DESIGN.md 9). Events are claimed with FOR UPDATE SKIP LOCKED and
// a lease, so two workers never deliver one event at once, and an event whose worker died is
// claimed again when its lease (CALLBACK_LEASE_SECONDS) ends: at least once. Events of one transaction or refund go
// out in order: one is claimable only when no earlier one of its aggregate is still pending.
type Claimed = { id: string; type: string; payload: unknown; callback_url: string; attempts: number };

export async function claimDueEvents(prisma: Db, limit: number): Promise<Claimed[]> {
  if (limit <= 0) return [];
  return prisma.$queryRaw<Claimed[]>`
    UPDATE outbox_events SET lease_until = now() + make_interval(secs => ${env().CALLBACK_LEASE_SECONDS})
    WHERE id IN (
      SELECT e.id FROM outbox_events e
      WHERE e.status = 'PENDING' AND e.next_attempt_at <= now()
        AND (e.lease_until IS NULL OR e.lease_until < now())
        AND NOT EXISTS (
          SELECT 1 FROM outbox_events earlier
          WHERE earlier.aggregate_id = e.aggregate_id AND earlier.status = 'PENDING' AND earlier.seq < e.seq)
      ORDER BY e.next_attempt_at, e.seq
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, type, payload, callback_url, attempts`;
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
    privateKey: key.privateKey,
    timeoutMs: config.CALLBACK_TIMEOUT_MS,
    guardAddresses: !config.SANDBOX_MODE,
  });
  const number = event.attempts + 1;
  const delay = result.ok || result.permanent ? null : retryDelayMs(config.CALLBACK_RETRY_SECONDS, number);
  const status = result.ok ? 'DELIVERED' : delay === null ? 'FAILED' : 'PENDING';
  // Stored with the attempt, so every instance's /api/metrics counts it (observability/callback-metrics.ts).
  const outcome = result.ok ? 'delivered' : status === 'FAILED' ? 'failed' : 'retry';
  await prisma.$transaction([
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

/** One pass: claims what it has room for and sends those without waiting for the slow ones. */
export function startDeliveries(prisma: Db, inFlight: Set<Promise<void>>, capacity: number): Promise<number> {
  return claimDueEvents(prisma, capacity - inFlight.size).then((events) => {
    for (const event of events) {
      const delivery = sendEvent(prisma, event)
        .catch((error: unknown) => logError('callback delivery failed', error, { event_id: event.id }))
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
    return events.length;
  });
}
