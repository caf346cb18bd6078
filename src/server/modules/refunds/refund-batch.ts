import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import type { RefundObject } from '@/server/core/interface/refund';
import { requestRefunds, RefundRefusal, type ItemRefusal, type RefundItem } from '@/server/modules/refunds/request-refunds';
import { merchantInScope, type MerchantScope } from '@/server/modules/access/merchant-scope';

// Console refunds: transactions named by id, filed through POST /refund's service and rules
// (all or nothing, 1 to 50 items): TOTAL, or PARTIAL when the item names an amount.
export type RefundFields = RefundItem['additional_fields'];
export type ConsoleRefundItem = { transactionId: string; amount?: string | null; additional_fields: RefundFields };

/** The one path of every console refund; a refused request throws the API's error. */
export function fileRefunds(prisma: Db, merchant: ActingMerchant, items: ConsoleRefundItem[]) {
  return requestRefunds(prisma, merchant, {
    operations: items.map((item) => ({
      type: item.amount ? ('PARTIAL' as const) : ('TOTAL' as const),
      merchant_operation_number: null,
      transaction_id: item.transactionId,
      refund_amount: item.amount ?? null,
      additional_fields: item.additional_fields,
    })),
  });
}

export type BatchOutcome =
  | { filed: true; merchantCode: string; items: { transactionId: string; refund: RefundObject }[] }
  | {
      filed: false;
      merchantCode: string;
      /** `refusal` null: the item was valid, and not filed because others were refused. */
      items: { transactionId: string; refusal: Omit<ItemRefusal, 'index'> | null }[];
    };

/** The batch form: every item's outcome, whether the batch was filed or refused. */
export async function refundBatchFromConsole(
  prisma: Db,
  scope: MerchantScope,
  merchantCode: string | undefined,
  items: ConsoleRefundItem[],
): Promise<BatchOutcome> {
  const merchant = await merchantInScope(prisma, scope, merchantCode);
  try {
    const filed = await fileRefunds(prisma, merchant, items);
    return {
      filed: true,
      merchantCode: merchant.code,
      items: items.map((item, index) => ({ transactionId: item.transactionId, refund: filed.operations[index]! })),
    };
  } catch (error) {
    if (!(error instanceof RefundRefusal)) throw error;
    return {
      filed: false,
      merchantCode: merchant.code,
      items: items.map((item, index) => {
        const refusal = error.refusals.find((entry) => entry.index === index);
        return {
          transactionId: item.transactionId,
          refusal: refusal ? { reason: refusal.reason, detail: refusal.detail } : null,
        };
      }),
    };
  }
}
