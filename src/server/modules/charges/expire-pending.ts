import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/platform/db/client';
import { anyTransactionDue, moveTransactions } from '@/server/modules/charges/moves/move-transactions';
import { STATE_REASONS } from '@/server/core/domain/state-reasons';

const BATCH = 100;

/** PENDIENTE -> EXPIRADO once expiration_date has passed (docs/DESIGN.md 6). Returns how many moved. */
export async function expirePending(prisma: Db, now = new Date()): Promise<number> {
  const where = Prisma.sql`t.expires_at <= ${now}`;
  if (!(await anyTransactionDue(prisma, 'EXPIRADO', where))) return 0;
  return prisma.$transaction((tx) =>
    moveTransactions(
      tx,
      'EXPIRADO',
      { where, orderBy: Prisma.sql`t.expires_at`, limit: BATCH },
      { stateReason: STATE_REASONS.expired },
      now,
    ),
  );
}
