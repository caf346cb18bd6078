import type { Tx } from '@/server/platform/db/client';
import { warmSandboxRecords } from '@/server/payments';
import { warmClaimCharge } from '@/server/modules/charges/attempts/claim-charge';
import { warmRecordAttempt } from '@/server/modules/charges/attempts/record-attempt';
import { warmGetTransaction } from '@/server/modules/charges/get-transaction';
import { warmListRefunds } from '@/server/modules/refunds/list-refunds';

// PostgreSQL plans a prepared statement afresh for each of its first five runs, then may keep a
// generic plan: the sixth run is the first a request would see when warm.
const RUNS = 6;

/**
 * Every statement of the hot paths (a charge, a transaction's read, a refund page), each run so
 * that it writes and finds nothing (the warm-up, every-connection.ts).
 */
export async function warmHotStatements(tx: Tx): Promise<void> {
  for (let run = 0; run < RUNS; run += 1) {
    await warmClaimCharge(tx);
    await warmRecordAttempt(tx);
    await warmSandboxRecords(tx);
    await warmGetTransaction(tx);
    await warmListRefunds(tx);
  }
}
