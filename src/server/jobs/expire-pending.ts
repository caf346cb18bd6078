import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { moveTransactions } from '@/server/services/state-moves/move-transactions';

const BATCH = 100;

/** PENDIENTE -> EXPIRADO once expiration_date has passed (docs/DESIGN.md 6). Returns how many moved. */
export function expirePending(prisma: Db, now = new Date()): Promise<number> {
  return prisma.$transaction((tx) =>
    moveTransactions(
      tx,
      'EXPIRADO',
      { where: Prisma.sql`t.expires_at <= ${now}`, orderBy: Prisma.sql`t.expires_at`, limit: BATCH },
      { stateReason: 'El pago no se completó antes de su vencimiento' },
      now,
    ),
  );
}
