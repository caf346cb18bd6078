import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { sendDelivery } from './delivery/send-delivery';

/** A manual resend (console or CLI): delivers the event now, whatever its status, and reports the attempt. */
export async function resendEvent(prisma: Db, eventId: string) {
  const event = await prisma.outboxEvent.findUnique({
    where: { id: eventId },
    select: { id: true, type: true, payload: true, callbackUrl: true, destination: true, attempts: true },
  });
  if (!event) throw new AppError('NOT_FOUND', 'no such event');
  if (!event.callbackUrl) throw new AppError('STATE_CONFLICT', 'the operation has no callback_url');
  const now = new Date();
  const claimed = await prisma.outboxEvent.updateMany({
    where: { id: eventId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil: new Date(now.getTime() + env().CALLBACK_LEASE_SECONDS * 1000) },
  });
  if (claimed.count === 0) throw new AppError('CONFLICT', 'the event is being delivered right now');
  await sendDelivery(
    prisma,
    {
      id: event.id,
      type: event.type,
      payload: event.payload,
      delivery_id: null,
      endpoint_id: null,
      url: event.callbackUrl,
      destination: event.destination,
      attempts: event.attempts,
    },
    true,
  );
  return prisma.outboxEvent.findUniqueOrThrow({
    where: { id: eventId },
    select: {
      id: true,
      status: true,
      attempts: true,
      deliveries: {
        orderBy: { number: 'desc' },
        take: 1,
        select: { number: true, statusCode: true, latencyMs: true, error: true, manual: true },
      },
    },
  });
}
