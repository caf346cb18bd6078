-- The console's operations table filtered by state or by method for one merchant, at ten million
-- operations (docs/BENCHMARKS.md, "Scale: 10,000,000 operations on PostgreSQL"): without them the
-- page walked the merchant's (merchant_id, created_at, id) index past every row of other states
-- (39,200 rows and 0.3-4 s for LIQUIDADO). IF NOT EXISTS: on a large live database they may be
-- made beforehand with CREATE INDEX CONCURRENTLY under the same names, and this migration then
-- only records them.

-- CreateIndex
CREATE INDEX IF NOT EXISTS "transactions_merchant_id_state_created_at_id_idx" ON "transactions"("merchant_id", "state", "created_at", "id");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "transactions_merchant_id_method_created_at_id_idx" ON "transactions"("merchant_id", "method", "created_at", "id");
