import type { Db } from '@/server/db/client';
import { moveTransaction } from '@/server/services/move-transaction';

const BATCH = 100;

/** PENDIENTE -> EXPIRADO once expiration_date has passed (docs/DESIGN.md 6). Returns how many moved. */
export async function expirePending(prisma: Db, now = new Date()): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM transactions WHERE state = 'PENDIENTE' AND expires_at <= ${now}
      ORDER BY expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
    let moved = 0;
    for (const { id } of due) {
      const row = await moveTransaction(
        tx,
        id,
        'PENDIENTE',
        'EXPIRADO',
        { stateReason: 'El pago no se completó antes de su vencimiento' },
        now,
      );
      if (row) moved += 1;
    }
    return moved;
  });
}
