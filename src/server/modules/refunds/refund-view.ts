import type { Prisma } from '@/generated/prisma/client';
import { toTimeObject } from '@/server/core/domain/time';
import type { RefundObject } from '@/server/core/interface/refund';

// One mapper from a stored refund to the interface's refund object (2.10).
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
  operation: { select: { merchantOperationNumber: true } },
  transaction: { select: { id: true, method: true, cardBrand: true, maskedPan: true } },
  lifecycle: { select: { state: true, at: true }, orderBy: { id: 'asc' } },
} satisfies Prisma.RefundSelect;

export type RefundRow = Prisma.RefundGetPayload<{ select: typeof refundSelect }>;

export function toRefundObject(row: RefundRow): RefundObject {
  return {
    refund_id: row.id,
    state: row.state,
    refund_reason: row.reason,
    type: row.type,
    merchant_operation_number: row.operation.merchantOperationNumber,
    transaction_id: row.transaction.id,
    refund_amount: row.refundAmount.toString(),
    transaction_amount: row.transactionAmount.toString(),
    currency: row.currency,
    payment_method: {
      name: row.transaction.method,
      brand: row.transaction.cardBrand ?? '',
      masked_pan: row.transaction.maskedPan ?? '',
    },
    additional_fields: row.additionalFields as RefundObject['additional_fields'],
    lifecycle: row.lifecycle.map((entry) => ({ state: entry.state, date: toTimeObject(entry.at, 'seconds') })),
  };
}
