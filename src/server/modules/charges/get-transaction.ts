import type { Tx } from '@/server/platform/db/client';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { AppError } from '@/server/core/domain/errors';
import { successMeta } from '@/server/core/domain/envelope';
import { toOperationObject, type TransactionRow } from './transaction-view';
import { isUuid, NIL_UUID } from '@/server/core/domain/uuid';
import { claimLifecycleJson, claimRowJson } from './attempts/in-flight';

// GET /charges/{merchant_code}/{merchant_operation_number}/{transaction_id} (docs/interface.md 4.3).
// One hand-written statement: the operation's transactions with their lifecycles as json_agg.
// Prisma's relation read cost a quarter of this request's thread in compiling the query and
// shaping its result (docs/BENCHMARKS.md, "The API off Next's request path").

type Row = Omit<TransactionRow, 'lifecycle'> & { lifecycle: { state: TransactionRow['state']; at: string }[] | null };

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'no such transaction in this operation');
}

// The operation's attempt in flight, if any, is its claim read as the REGISTRADO transaction it stands for.
const OPERATION_ROWS = `
    SELECT t.id, t.method::text AS "method", t.amount, t.currency, t.state::text AS "state",
           t.state_reason AS "stateReason", t.expires_at AS "expiresAt", t.continue_url AS "continueUrl",
           t.callback_url AS "callbackUrl", t.redirect_url AS "redirectUrl", t.method_details AS "methodDetails",
           t.processor_response AS "processorResponse", t.additional_fields AS "additionalFields",
           t.processor_reference AS "processorReference",
           t.capture_status AS "captureStatus", t.captured_amount AS "capturedAmount", t.capture_before AS "captureBefore",
           t.created_at AS "createdAt",
           COALESCE((SELECT json_agg(json_build_object('state', l.state, 'at', l.at) ORDER BY l.id)
              FROM lifecycle_entries l WHERE l.transaction_id = t.id), ${claimLifecycleJson('t')}) AS lifecycle
    FROM operations o
    JOIN LATERAL (
      SELECT t.*, NULL::timestamptz AS claimed_at FROM transactions t WHERE t.operation_id = o.id
      UNION ALL
      SELECT r.*, c.claimed_at FROM charge_claims c, jsonb_populate_record(NULL::transactions, ${claimRowJson('c')}) r
      WHERE c.operation_id = o.id
    ) t ON true
    WHERE o.merchant_id = $1::uuid AND o.merchant_operation_number = $2
    ORDER BY t.attempt`;

function operationRows(client: Tx, merchantId: string, merchantOperationNumber: string) {
  return client.$queryRawUnsafe<Row[]>(OPERATION_ROWS, merchantId, merchantOperationNumber);
}

/** The statement for a merchant that does not exist: it reads nothing, and readies the statement on the connection (warm-up). */
export async function warmGetTransaction(tx: Tx): Promise<void> {
  await operationRows(tx, NIL_UUID, 'warm-up');
}

export async function getTransaction(
  prisma: Tx,
  merchant: ActingMerchant,
  merchantOperationNumber: string,
  transactionId: string,
) {
  if (!isUuid(transactionId)) throw notFound();
  const rows = await operationRows(prisma, merchant.id, merchantOperationNumber);
  if (!rows.some((row) => row.id === transactionId.toLowerCase())) throw notFound();
  const transactions: TransactionRow[] = rows.map((row) => ({
    ...row,
    lifecycle: (row.lifecycle ?? []).map((entry) => ({ state: entry.state, at: new Date(entry.at) })),
  }));
  return {
    success: true as const,
    merchant_code: merchant.code,
    operation: toOperationObject(merchantOperationNumber, transactions, 'millis', true),
    meta: successMeta(),
  };
}
