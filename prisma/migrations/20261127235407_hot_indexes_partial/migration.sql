-- Every index of the hot tables serves a query (docs/DECISIONS.md, "Indexes of the hot tables").
-- The worker's jobs each read a column that most rows leave empty, and the delivery worker reads
-- only deliveries still due: their indexes hold those rows alone, so a charge approved with
-- automatic capture, and an event with no callback to go to, write four and two index entries
-- fewer (docs/BENCHMARKS.md, "Fewer index entries per charge"). Each query's condition implies
-- its index's predicate with its parameters unknown (a comparison is false on NULL, and 'PENDING' is
-- written in each query), so generic plans use them too. No semicolon may appear in this file
-- except at the end of a statement: @prisma/adapter-pg runs a migration split at every semicolon.
-- IF [NOT] EXISTS: on a large live database the new indexes may be made beforehand with
-- CREATE INDEX CONCURRENTLY under the same names, and the old ones dropped CONCURRENTLY after.

-- Pending payments past their expiry (expire-pending.ts: expires_at <= now).
CREATE INDEX IF NOT EXISTS "transactions_state_expires_at_partial_idx" ON "transactions"("state", "expires_at") WHERE "expires_at" IS NOT NULL;
DROP INDEX IF EXISTS "transactions_state_expires_at_idx";

-- Attempts whose processor must be asked (sync-status.ts: status_check_at <= now).
CREATE INDEX IF NOT EXISTS "transactions_status_check_at_partial_idx" ON "transactions"("status_check_at") WHERE "status_check_at" IS NOT NULL;
DROP INDEX IF EXISTS "transactions_status_check_at_idx";

-- Authorizations past their capture window (capture-jobs.ts: capture_status = 'UNCAPTURED').
CREATE INDEX IF NOT EXISTS "transactions_capture_status_capture_before_partial_idx" ON "transactions"("capture_status", "capture_before") WHERE "capture_status" IS NOT NULL;
DROP INDEX IF EXISTS "transactions_capture_status_capture_before_idx";

-- Captures in doubt (capture-jobs.ts: capture_check_at <= now).
CREATE INDEX IF NOT EXISTS "transactions_capture_check_at_partial_idx" ON "transactions"("capture_check_at") WHERE "capture_check_at" IS NOT NULL;
DROP INDEX IF EXISTS "transactions_capture_check_at_idx";

-- Whether any callback is due (claim-deliveries.ts, anyDeliveryDue).
CREATE INDEX IF NOT EXISTS "outbox_events_pending_next_attempt_at_idx" ON "outbox_events"("next_attempt_at") WHERE "status" = 'PENDING' AND "destination" IS NOT NULL;
DROP INDEX IF EXISTS "outbox_events_status_next_attempt_at_idx";

-- The destinations with callbacks pending, and each one's due deliveries (claim-deliveries.ts, callback-metrics.ts).
CREATE INDEX IF NOT EXISTS "outbox_events_pending_destination_next_attempt_at_idx" ON "outbox_events"("destination", "next_attempt_at") WHERE "status" = 'PENDING';
DROP INDEX IF EXISTS "outbox_events_status_destination_next_attempt_at_idx";

-- The same for deliveries to webhook endpoints.
CREATE INDEX IF NOT EXISTS "endpoint_deliveries_pending_destination_next_attempt_at_idx" ON "endpoint_deliveries"("destination", "next_attempt_at") WHERE "status" = 'PENDING';
DROP INDEX IF EXISTS "endpoint_deliveries_status_destination_next_attempt_at_idx";
