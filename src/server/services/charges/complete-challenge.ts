import type { Db } from '@/server/db/client';
import type { ThreeDsResult } from '@/server/three-ds/directory';

// Placeholder: the orchestration loop replaces this file with the authorization after a
// 3-D Secure challenge (docs/ORCHESTRATION.md 5). The challenge page imports it from here.
export async function completeChallenge(
  _db: Db,
  _transactionId: string,
  _result: ThreeDsResult,
): Promise<{ state: string; redirectUrl: string | null }> {
  throw new Error('not wired');
}
