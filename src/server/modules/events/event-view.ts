import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';

// One way to read an outbox event with its delivery attempts: the operator's inspect, the
// console's operation page and its callback delivery log all select and show the same fields.
export const eventSelect = {
  id: true,
  type: true,
  aggregateId: true,
  status: true,
  callbackUrl: true,
  attempts: true,
  nextAttemptAt: true,
  deliveredAt: true,
  lastError: true,
  createdAt: true,
  deliveries: {
    orderBy: { number: 'asc' },
    select: {
      number: true,
      startedAt: true,
      latencyMs: true,
      statusCode: true,
      error: true,
      responseSnippet: true,
      manual: true,
    },
  },
} satisfies Prisma.OutboxEventSelect;

export type EventRow = Prisma.OutboxEventGetPayload<{ select: typeof eventSelect }>;

/** An event as the console shows it: instants as ISO text. */
export function toEventView(event: EventRow) {
  return {
    ...event,
    nextAttemptAt: event.nextAttemptAt.toISOString(),
    deliveredAt: event.deliveredAt?.toISOString() ?? null,
    createdAt: event.createdAt.toISOString(),
    deliveries: event.deliveries.map((delivery) => ({ ...delivery, startedAt: delivery.startedAt.toISOString() })),
  };
}

export type EventView = ReturnType<typeof toEventView>;

/** The events of transactions or refunds, in creation order, with every delivery attempt. */
export async function eventsOf(prisma: Db, aggregateIds: string[]): Promise<EventView[]> {
  const events = await prisma.outboxEvent.findMany({
    where: { aggregateId: { in: aggregateIds } },
    orderBy: { seq: 'asc' },
    select: eventSelect,
  });
  return events.map(toEventView);
}
