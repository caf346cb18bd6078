import type { Tx } from '@/server/db/client';
import { warmSandboxRecords } from '@/server/payments';
import { warmClaimCharge } from './charges/claim-charge';
import { warmRecordAttempt } from './charges/record-attempt';
import { warmGetTransaction } from './get-transaction';
import { warmListRefunds } from './list-refunds';

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
