import { waitAway } from '@/server/platform/http/time-away';
import type { Db } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { successMeta } from '@/server/core/domain/envelope';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ChargeResponse } from '@/server/core/interface/transaction';
import { requestHashKey } from '@/server/platform/security/service-keys';
import { requestHash } from '@/server/modules/charges/request-hash';
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

/** The answer the operation's latest attempt stored for this very request (the same keyed hash); null when none. */
export async function storedReply(prisma: Db, merchant: ActingMerchant, body: ChargeRequest): Promise<ChargeResponse | null> {
  const hash = requestHash(await requestHashKey(prisma), body);
  const [latest] = await prisma.$queryRaw<{ reply: unknown; request_hash: string }[]>`
    SELECT t.authorization_reply AS reply, t.request_hash FROM operations o JOIN transactions t ON t.operation_id = o.id
    WHERE o.merchant_id = ${merchant.id}::uuid AND o.merchant_operation_number = ${body.merchant_operation_number}
      AND NOT EXISTS (SELECT 1 FROM charge_claims c WHERE c.operation_id = o.id)
    ORDER BY t.attempt DESC LIMIT 1`;
  return latest?.reply && latest.request_hash === hash ? (latest.reply as ChargeResponse) : null;
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
