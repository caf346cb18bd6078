import type { Prisma } from '@/generated/prisma/client';
import type { RefundState } from '@/server/core/domain/states';
import { toTimeObject } from '@/server/core/domain/time';
import type { RefundObject } from '@/server/core/interface/refund';

// One mapper from a stored refund to the interface's refund object (2.10): the refund's row holds all of it.
export const refundSelect = {
  id: true,
  state: true,
  reason: true,
  type: true,
  refundAmount: true,
  transactionAmount: true,
  currency: true,
  additionalFields: true,
  createdAt: true,
  merchantOperationNumber: true,
  transactionId: true,
  method: true,
  cardBrand: true,
  maskedPan: true,
  lifecycle: true,
} satisfies Prisma.RefundSelect;

export type RefundRow = Prisma.RefundGetPayload<{ select: typeof refundSelect }>;

/** The refunds.lifecycle column, as refund-moves.ts writes it. */
export type RefundLifecycle = { state: RefundState; at: string }[];

/** A lifecycle entry of the column: `at` as JavaScript's toISOString wrote it. */
export function lifecycleEntry(state: RefundState, at: Date): RefundLifecycle[number] {
  return { state, at: at.toISOString() };
}

export function toRefundObject(row: RefundRow): RefundObject {
  return {
    refund_id: row.id,
    state: row.state,
    refund_reason: row.reason,
    type: row.type,
    merchant_operation_number: row.merchantOperationNumber,
    transaction_id: row.transactionId,
    refund_amount: row.refundAmount.toString(),
    transaction_amount: row.transactionAmount.toString(),
    currency: row.currency,
    payment_method: {
      name: row.method,
      brand: row.cardBrand ?? '',
      masked_pan: row.maskedPan ?? '',
    },
    additional_fields: row.additionalFields as RefundObject['additional_fields'],
    lifecycle: (row.lifecycle as RefundLifecycle).map((entry) => ({
      state: entry.state,
      date: toTimeObject(new Date(entry.at), 'seconds'),
    })),
  };
}
