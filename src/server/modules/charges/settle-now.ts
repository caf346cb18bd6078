import type { Db } from '@/server/platform/db/client';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { merchantIdOf } from '@/server/modules/merchants/merchants';

/** The settlement cut-off now: every merchant's AUTORIZADO transactions, or the merchant's, or the ones named. */
export async function settleNow(prisma: Db, only: { merchantCode?: string; transactionIds?: string[] }) {
  const merchantId = await merchantIdOf(prisma, only.merchantCode);
  return { settled: await settleAuthorized(prisma, new Date(), { merchantId, transactionIds: only.transactionIds }) };
}
