import type { Db } from '@/server/platform/db/client';
import type { DeliveryResult } from '@/server/modules/events/callbacks/deliver';

// How a delivery's outcome moves its destination's hold (callback_destinations). No answer (a
// timeout, a host that does not resolve, a refused or reset connection) or a 429 holds the
// destination back for 1 s, then 2, 4... up to 60 s while failures go on in a row: those are what
// hold delivery slots, or what asks us to slow down. Any other answer lifts it: a quick 500 is
// the event's business, retried on its own schedule like every failure.

/** The longest hold, in seconds. */
export const MAX_HOLD_SECONDS = 60;

export function isDestinationFailure(result: DeliveryResult): boolean {
  if (result.ok || result.permanent) return false;
  return result.statusCode === null || result.statusCode === 429;
}

/** The statement that records the outcome, to run in the attempt's own transaction. */
export function destinationOutcome(prisma: Db, destination: string, result: DeliveryResult) {
  if (!isDestinationFailure(result)) {
    return prisma.$executeRaw`DELETE FROM callback_destinations WHERE destination = ${destination}`;
  }
  return prisma.$executeRaw`
    INSERT INTO callback_destinations (destination, failures, held_until, last_error, updated_at)
    VALUES (${destination}, 1, now() + interval '1 second', ${result.error}, now())
    ON CONFLICT (destination) DO UPDATE SET
      failures = callback_destinations.failures + 1,
      held_until = now() + make_interval(secs => least(${MAX_HOLD_SECONDS}, power(2, callback_destinations.failures))),
      last_error = excluded.last_error,
      updated_at = now()`;
}
