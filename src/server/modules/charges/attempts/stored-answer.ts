import { waitAway } from '@/server/platform/http/time-away';
import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { successMeta } from '@/server/core/domain/envelope';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import { claimAsTransaction } from './in-flight';
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

/**
 * Waits up to `waitMs` for the stored answer of the operation's latest attempt (none while an
 * attempt is in flight: an earlier attempt's answer is not this one's), then answers from the
 * latest attempt as it stands: its claim, or its row.
 */
export async function awaitAnswer(
  prisma: Db,
  merchant: ActingMerchant,
  body: ChargeRequest,
  waitMs: number,
): Promise<ChargeResponse> {
  const deadline = Date.now() + waitMs;
  const operation = { merchantId: merchant.id, merchantOperationNumber: body.merchant_operation_number };
  const where = { operation };
  for (;;) {
    const [latest] = await prisma.$queryRaw<{ reply: unknown; in_flight: boolean }[]>`
      SELECT (SELECT t.authorization_reply FROM transactions t WHERE t.operation_id = o.id ORDER BY t.attempt DESC LIMIT 1) AS reply,
             EXISTS (SELECT 1 FROM charge_claims c WHERE c.operation_id = o.id) AS in_flight
      FROM operations o WHERE o.merchant_id = ${operation.merchantId}::uuid
        AND o.merchant_operation_number = ${operation.merchantOperationNumber}`;
    if (latest?.reply && !latest.in_flight) return latest.reply as ChargeResponse;
    if (Date.now() >= deadline) break;
    await waitAway(POLL_MS);
  }
  const found = await prisma.operation.findUnique({
    where: { merchantId_merchantOperationNumber: operation },
    select: { id: true },
  });
  const claim = found ? await prisma.chargeClaim.findUnique({ where: { operationId: found.id } }) : null;
  if (claim) return replyOf(merchant, body, claimAsTransaction(claim));
  const row = await prisma.transaction.findFirstOrThrow({ where, orderBy: { attempt: 'desc' }, select: transactionSelect });
  return replyOf(merchant, body, row);
}
