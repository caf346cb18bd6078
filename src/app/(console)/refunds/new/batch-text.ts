import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/routers/app-router';

// The shapes shared by the parts of the batch refund form (client components); their texts are
// the catalogue's refunds.new.batch messages.
export type BatchOutcome = inferRouterOutputs<AppRouter>['console']['refundBatch'];

export type Candidate = {
  transactionId: string;
  merchantOperationNumber: string;
  method: string;
  amount: string;
  currency: string;
  maskedPan: string | null;
  createdAt: string;
};

export type Fields = { canal: string; reason: string; description: string };

/**
 * One transaction to refund: from the eligible list (`candidate`) or pasted by id; `own`: its own
 * reason; `amount`: a part, as typed (empty: all of what can be refunded).
 */
export type BatchItem = { transactionId: string; candidate: Candidate | null; own: Fields | null; amount: string };

export const MAX_ITEMS = 50;

/** How an item is named on the form and in its result: its operation number, or the pasted id. */
export function itemLabel(item: BatchItem): string {
  return item.candidate?.merchantOperationNumber ?? item.transactionId;
}
