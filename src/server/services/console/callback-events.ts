import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';

/** What the console and the operator's inspection show of a callback event and its delivery attempts. */
export const callbackEventSelect = {
  id: true,
  type: true,
  aggregateId: true,
  status: true,
  callbackUrl: true,
  attempts: true,
  nextAttemptAt: true,
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

/** The callback events of transactions or refunds, in creation order, with every delivery attempt. */
export async function callbackEvents(prisma: Db, aggregateIds: string[]) {
  const events = await prisma.outboxEvent.findMany({
    where: { aggregateId: { in: aggregateIds } },
    orderBy: { seq: 'asc' },
    select: callbackEventSelect,
  });
  return events.map((event) => ({
    ...event,
    nextAttemptAt: event.nextAttemptAt.toISOString(),
    createdAt: event.createdAt.toISOString(),
    deliveries: event.deliveries.map((delivery) => ({ ...delivery, startedAt: delivery.startedAt.toISOString() })),
  }));
}
