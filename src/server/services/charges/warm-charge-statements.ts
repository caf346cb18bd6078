import type { Tx } from '@/server/db/client';
import { warmSandboxRecords } from '@/server/payments';
import { warmClaimCharge } from './claim-charge';
import { warmRecordAttempt } from './record-attempt';

// PostgreSQL plans a prepared statement afresh for each of its first five runs, then may keep a
// generic plan: the sixth run is the first a charge would see when warm.
const RUNS = 6;

/** Every statement a charge sends, each run so that it writes nothing (the warm-up, every-connection.ts). */
export async function warmChargeStatements(tx: Tx): Promise<void> {
  for (let run = 0; run < RUNS; run += 1) {
    await warmClaimCharge(tx);
    await warmRecordAttempt(tx);
    await warmSandboxRecords(tx);
  }
}
