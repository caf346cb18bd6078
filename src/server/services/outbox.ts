import { randomUUID } from 'node:crypto';
import type { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/db/client';
import { successMeta } from '@/server/domain/envelope';

// Events are written in the same database transaction as the move they announce (docs/DESIGN.md 9).
export const TRANSACTION_EVENT_TYPES: Record<string, string> = {
  REGISTRADO: 'transaction.registered',
  PENDIENTE: 'transaction.pending',
  AUTORIZADO: 'transaction.authorized',
  DENEGADO: 'transaction.declined',
  CANCELADO: 'transaction.cancelled',
  EXTORNADO: 'transaction.reversed',
  EXPIRADO: 'transaction.expired',
  LIQUIDADO: 'transaction.settled',
};

export const REFUND_EVENT_TYPES: Record<string, string> = {
  REGISTERED: 'refund.registered',
  IN_PROCESS: 'refund.in_process',
  RESOLVED: 'refund.resolved',
  REJECTED: 'refund.rejected',
};

export type OutboxEventInput = {
  merchantId: string;
  merchantCode: string;
  merchantOperationNumber: string;
  type: string;
  aggregateId: string;
  callbackUrl: string | null;
  body: { transaction: unknown } | { refund: unknown };
};

/** The stored rows of events: the payload is the callback body the worker will sign and send. */
export function outboxRows(events: OutboxEventInput[]) {
  return events.map((event) => {
    const id = randomUUID();
    return {
      id,
      merchantId: event.merchantId,
      type: event.type,
      aggregateId: event.aggregateId,
      callbackUrl: event.callbackUrl,
      status: event.callbackUrl ? 'PENDING' : 'SKIPPED',
      payload: {
        success: 'true',
        action: 'notify',
        merchant_code: event.merchantCode,
        merchant_operation_number: event.merchantOperationNumber,
        event_id: id,
        event_type: event.type,
        ...event.body,
        meta: successMeta(),
      } as Prisma.InputJsonObject,
    };
  });
}

export async function writeEvents(tx: Tx, events: OutboxEventInput[]): Promise<void> {
  if (events.length === 0) return;
  await tx.outboxEvent.createMany({ data: outboxRows(events) });
}
