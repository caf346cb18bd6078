import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { successMeta } from '@/server/core/domain/envelope';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import { toTransactionObject, transactionSelect, type TransactionRow } from '@/server/modules/charges/transaction-view';

// The answer of a charge whose attempts another request (or the worker) carries: an identical
// request sent while the first is still with the processor waits for the first's answer, so
// that both get one answer (docs/ORCHESTRATION.md 3); past the wait, it gets the operation's
// latest attempt as it stands.

const POLL_MS = 50;

export function replyOf(merchant: ActingMerchant, body: ChargeRequest, row: TransactionRow): ChargeResponse {
  return {
    success: 'true',
    action: body.action,
    merchant_code: merchant.code,
    merchant_operation_number: body.merchant_operation_number,
    transaction: toTransactionObject(row, 'millis'),
    meta: successMeta(),
  };
}

/** Waits up to `waitMs` for the stored answer of the operation's latest attempt, then answers from its row. */
export async function awaitAnswer(
  prisma: Db,
  merchant: ActingMerchant,
  body: ChargeRequest,
  waitMs: number,
): Promise<ChargeResponse> {
  const deadline = Date.now() + waitMs;
  const where = { operation: { merchantId: merchant.id, merchantOperationNumber: body.merchant_operation_number } };
  for (;;) {
    const latest = await prisma.transaction.findFirst({
      where,
      orderBy: { attempt: 'desc' },
      select: { authorizationReply: true },
    });
    if (latest?.authorizationReply) return latest.authorizationReply as ChargeResponse;
    if (Date.now() >= deadline) break;
    await sleep(POLL_MS);
  }
  const row = await prisma.transaction.findFirstOrThrow({ where, orderBy: { attempt: 'desc' }, select: transactionSelect });
  return replyOf(merchant, body, row);
}
