import type { Db } from '@/server/platform/db/client';
import { AppError } from '@/server/core/domain/errors';
import { eventSelect } from '@/server/modules/events/event-view';
import { findMerchant } from '@/server/modules/merchants/merchants';
import { claimAsTransaction } from '@/server/modules/charges/attempts/in-flight';
import { plainJson } from './plain-json';

/**
 * Everything stored about one operation, as rows: for operators, support and audits; with what
 * the sandbox processors recorded of its attempts (their record is the service's database).
 */
export async function inspectOperation(prisma: Db, input: { merchantCode: string; merchantOperationNumber: string }) {
  const merchant = await findMerchant(prisma, input.merchantCode);
  const operation = await prisma.operation.findUnique({
    where: {
      merchantId_merchantOperationNumber: { merchantId: merchant.id, merchantOperationNumber: input.merchantOperationNumber },
    },
    select: {
      id: true,
      merchantOperationNumber: true,
      createdAt: true,
      transactions: {
        orderBy: { attempt: 'asc' },
        omit: { requestHash: true, authorizationReply: true },
        include: { lifecycle: { orderBy: { id: 'asc' }, select: { state: true, at: true } } },
      },
      refunds: { orderBy: { createdAt: 'asc' } },
    },
  });
  if (!operation) throw new AppError('NOT_FOUND', 'no such operation');
  // An attempt in flight is listed last, as the REGISTRADO transaction it stands for.
  const claim = await prisma.chargeClaim.findUnique({ where: { operationId: operation.id } });
  if (claim) {
    const { requestHash: _hash, authorizationReply: _reply, ...inFlight } = claimAsTransaction(claim);
    operation.transactions.push(inFlight);
  }
  const aggregateIds = [...operation.transactions.map((row) => row.id), ...operation.refunds.map((row) => row.id)];
  const [events, sandboxRecords] = await Promise.all([
    prisma.outboxEvent.findMany({
      where: { aggregateId: { in: aggregateIds } },
      orderBy: { seq: 'asc' },
      select: { ...eventSelect, payload: true },
    }),
    prisma.sandboxProcessorRecord.findMany({
      where: { reference: { in: operation.transactions.map((row) => row.id) } },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  return plainJson({ merchant_code: merchant.code, ...operation, events, sandboxRecords }) as Record<string, unknown>;
}
