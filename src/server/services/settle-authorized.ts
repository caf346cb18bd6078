import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { TRANSACTION_EVENT_TYPES, writeEvents } from './outbox';
import { toTransactionObject, transactionSelect } from './transaction-view';

const BATCH = 200;

/**
 * Settlement cut-off (docs/DESIGN.md 8): every transaction AUTORIZADO at or before `cutoff` moves to
 * LIQUIDADO, with its lifecycle entry and event in the same database transaction, in batches.
 * Rows are claimed with SKIP LOCKED so concurrent cut-offs never settle one twice. An operator's
 * cut-off may name a merchant, or the transactions to settle (tests settle only their own).
 */
export async function settleAuthorized(
  prisma: Db,
  cutoff: Date,
  only: { merchantId?: string; transactionIds?: string[] } = {},
): Promise<number> {
  const { merchantId, transactionIds } = only;
  // NULL keeps the list valid SQL when empty (an empty list settles nothing).
  const named = transactionIds
    ? Prisma.sql`AND t.id IN (${Prisma.join([null, ...transactionIds].map((id) => Prisma.sql`${id}::uuid`))})`
    : Prisma.empty;
  let settled = 0;
  for (;;) {
    const moved = await prisma.$transaction(async (tx) => {
      const ids = await tx.$queryRaw<{ id: string }[]>`
        SELECT t.id FROM transactions t
        WHERE t.state = 'AUTORIZADO' AND t.updated_at <= ${cutoff}
          AND (${merchantId ?? null}::uuid IS NULL OR t.merchant_id = ${merchantId ?? null}::uuid) ${named}
        ORDER BY t.updated_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
      if (ids.length === 0) return 0;
      const at = new Date();
      const idList = ids.map((row) => row.id);
      await tx.transaction.updateMany({
        where: { id: { in: idList } },
        data: { state: 'LIQUIDADO', stateReason: 'Transacción liquidada' },
      });
      await tx.lifecycleEntry.createMany({ data: idList.map((transactionId) => ({ transactionId, state: 'LIQUIDADO', at })) });
      const rows = await tx.transaction.findMany({
        where: { id: { in: idList } },
        select: {
          ...transactionSelect,
          merchantId: true,
          operation: { select: { merchantOperationNumber: true, merchant: { select: { code: true } } } },
        },
      });
      await writeEvents(
        tx,
        rows.map((row) => ({
          merchantId: row.merchantId,
          merchantCode: row.operation.merchant.code,
          merchantOperationNumber: row.operation.merchantOperationNumber,
          type: TRANSACTION_EVENT_TYPES.LIQUIDADO!,
          aggregateId: row.id,
          callbackUrl: row.callbackUrl,
          body: { transaction: toTransactionObject(row, 'millis', { queryDetails: true }) },
        })),
      );
      return idList.length;
    });
    settled += moved;
    if (moved < BATCH) return settled;
  }
}
