import type { Db } from '@/server/db/client';
import type { RefundState } from '@/server/domain/states';
import { isRefundRejectingCard } from '@/server/payments/sandbox/card';
import { moveRefund } from '@/server/services/state-moves/refund-moves';

// The sandbox refund processor (docs/DESIGN.md 8): REGISTERED -> IN_PROCESS -> RESOLVED, or
// REJECTED for the card whose refunds the processor refuses. Each step waits the configured
// delay; the moves are refund-moves.ts's.
const BATCH = 100;

export async function processRefunds(prisma: Db, delaySeconds: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - delaySeconds * 1000);
  return prisma.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string; state: RefundState; card_bin: string | null; card_last4: string | null }[]>`
      SELECT r.id, r.state, t.card_bin, t.card_last4 FROM refunds r JOIN transactions t ON t.id = r.transaction_id
      WHERE r.state IN ('REGISTERED', 'IN_PROCESS') AND r.updated_at <= ${cutoff}
      ORDER BY r.updated_at LIMIT ${BATCH} FOR UPDATE OF r SKIP LOCKED`;
    for (const refund of due) {
      const rejected =
        refund.card_bin !== null && refund.card_last4 !== null && isRefundRejectingCard(refund.card_bin, refund.card_last4);
      const to: RefundState = refund.state === 'REGISTERED' ? 'IN_PROCESS' : rejected ? 'REJECTED' : 'RESOLVED';
      await moveRefund(tx, refund.id, refund.state, to, now);
    }
    return due.length;
  });
}
