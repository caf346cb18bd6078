import type { PrismaClient } from '@/generated/prisma/client';

// Whole-database invariants that a crash must not break: no operation without a transaction,
// no transaction without a lifecycle or whose last entry is not its state, no state change
// without its outbox event (they commit together), no unanswered attempt the status sync cannot
// find, no refund whose lifecycle disagrees, no operation approved twice (docs/ORCHESTRATION.md 3),
// and no capture in doubt the capture sync cannot find, announced twice, or other than the processor's.
export type Integrity = Record<string, number>;

const CHECKS: Record<string, string> = {
  // An operation whose attempt is in flight (its claim) is accounted for by the claim.
  operationsWithoutTransaction: `SELECT count(*)::int AS n FROM operations o
    WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.operation_id = o.id)
      AND NOT EXISTS (SELECT 1 FROM charge_claims c WHERE c.operation_id = o.id)`,
  transactionsWithoutLifecycle: `SELECT count(*)::int AS n FROM transactions t
    WHERE NOT EXISTS (SELECT 1 FROM lifecycle_entries l WHERE l.transaction_id = t.id)`,
  lifecycleNotEndingInState: `SELECT count(*)::int AS n FROM transactions t
    WHERE t.state <> (SELECT l.state FROM lifecycle_entries l WHERE l.transaction_id = t.id ORDER BY l.id DESC LIMIT 1)`,
  movesWithoutEvent: `SELECT count(*)::int AS n FROM lifecycle_entries l
    WHERE (SELECT count(*) FROM outbox_events e WHERE e.aggregate_id = l.transaction_id)
        < (SELECT count(*) FROM lifecycle_entries m WHERE m.transaction_id = l.transaction_id)`,
  // An attempt claimed and never answered must be due for the worker's status sync, or nobody settles it.
  unansweredWithoutStatusCheck: `SELECT count(*)::int AS n FROM transactions t
    WHERE t.state = 'REGISTRADO' AND t.status_check_at IS NULL`,
  // A claim is an attempt in flight: its transaction is not written yet, it is its operation's
  // latest attempt, its operation exists, and its REGISTRADO event was written with it.
  claimBesideItsTransaction: `SELECT count(*)::int AS n FROM charge_claims c
    WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.id = c.transaction_id)`,
  claimNotLatest: `SELECT count(*)::int AS n FROM charge_claims c
    WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.operation_id = c.operation_id AND t.attempt >= c.attempt)`,
  claimWithoutOperation: `SELECT count(*)::int AS n FROM charge_claims c
    WHERE NOT EXISTS (SELECT 1 FROM operations o WHERE o.id = c.operation_id)`,
  claimWithoutRegisteredEvent: `SELECT count(*)::int AS n FROM charge_claims c
    WHERE NOT EXISTS (SELECT 1 FROM outbox_events e WHERE e.aggregate_id = c.transaction_id AND e.type = 'transaction.registered')`,
  // An attempt's events belong to a transaction or to an attempt in flight: none is left by a claim deleted without its transaction.
  transactionEventOfNothing: `SELECT count(*)::int AS n FROM outbox_events e
    WHERE e.type LIKE 'transaction.%'
      AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = e.aggregate_id)
      AND NOT EXISTS (SELECT 1 FROM charge_claims c WHERE c.transaction_id = e.aggregate_id)`,
  // An approval is an AUTORIZADO entry, whatever the transaction became after (settled, reversed, refunded).
  operationsApprovedTwice: `SELECT count(*)::int AS n FROM (SELECT t.operation_id FROM transactions t
    JOIN lifecycle_entries l ON l.transaction_id = t.id AND l.state = 'AUTORIZADO'
    GROUP BY t.operation_id HAVING count(*) > 1) twice`,
  // A refund shows its own payment: the copies it was registered with are its transaction's and operation's.
  refundShowingAnotherPayment: `SELECT count(*)::int AS n FROM refunds r
    JOIN transactions t ON t.id = r.transaction_id JOIN operations o ON o.id = r.operation_id
    WHERE (r.merchant_operation_number, r.method, r.card_brand, r.masked_pan)
      IS DISTINCT FROM (o.merchant_operation_number, t.method, t.card_brand, t.masked_pan)`,
  refundLifecycleNotEndingInState: `SELECT count(*)::int AS n FROM refunds r
    WHERE r.state::text IS DISTINCT FROM r.lifecycle->-1->>'state'`,
  // A capture asked of its processor and not answered must be due for the worker's capture sync.
  capturesInDoubtWithoutCheck: `SELECT count(*)::int AS n FROM transactions t
    WHERE t.capture_status = 'CAPTURING' AND t.capture_check_at IS NULL`,
  // Each capture is announced once, with the move that recorded it.
  capturedWithoutOneEvent: `SELECT count(*)::int AS n FROM transactions t WHERE t.capture_status = 'CAPTURED'
    AND (SELECT count(*) FROM outbox_events e WHERE e.aggregate_id = t.id AND e.type = 'transaction.captured') <> 1`,
  // What the service says was captured is what the (sandbox) processor captured, once settled.
  capturesDisagreeWithProcessor: `SELECT count(*)::int AS n FROM transactions t
    JOIN sandbox_processor_records r ON r.reference = t.id::text AND r.connector_id = t.connector_id
    WHERE t.capture_status IN ('UNCAPTURED', 'CAPTURED') AND NOT r.voided
      AND r.captured_amount IS DISTINCT FROM t.captured_amount`,
};

export async function integrity(prisma: PrismaClient): Promise<Integrity> {
  const result: Integrity = {};
  for (const [name, sql] of Object.entries(CHECKS)) {
    const rows = await prisma.$queryRawUnsafe<{ n: number }[]>(sql);
    result[name] = Number(rows[0]!.n);
  }
  return result;
}

export const CLEAN: Integrity = Object.fromEntries(Object.keys(CHECKS).map((name) => [name, 0]));
