import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { anyTransactionDue, moveTransactions } from './moves/move-transactions';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

const BATCH = 200;

/**
 * Settlement cut-off (docs/DESIGN.md 8): every transaction AUTORIZADO at or before `cutoff`, and
 * captured, moves to LIQUIDADO, in batches, each batch one database transaction. An operator's cut-off may name a
 * merchant, or the transactions to settle (tests settle only their own).
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
  // Only what was captured settles: an authorization to capture later waits for its capture.
  const where = Prisma.sql`t.updated_at <= ${cutoff}
    AND (t.capture_status IS NULL OR t.capture_status = 'CAPTURED')
    AND (${merchantId ?? null}::uuid IS NULL OR t.merchant_id = ${merchantId ?? null}::uuid) ${named}`;
  if (!(await anyTransactionDue(prisma, 'LIQUIDADO', where))) return 0;
  let settled = 0;
  for (;;) {
    const moved = await prisma.$transaction((tx) =>
      moveTransactions(
        tx,
        'LIQUIDADO',
        { where, orderBy: Prisma.sql`t.updated_at`, limit: BATCH },
        { stateReason: STATE_REASONS.settled },
      ),
    );
    settled += moved;
    if (moved < BATCH) return settled;
  }
}
