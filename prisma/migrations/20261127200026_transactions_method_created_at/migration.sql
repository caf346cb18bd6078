-- The console's operations table filtered by method across merchants (support), at ten million
-- operations: without it the page and its bounded count skipped through the (merchant_id, method)
-- index of every merchant (11,765 buffers, 43 ms). IF NOT EXISTS as in the migration before.

-- CreateIndex
CREATE INDEX IF NOT EXISTS "transactions_method_created_at_id_idx" ON "transactions"("method", "created_at", "id");
