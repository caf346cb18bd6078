-- A transaction's lifecycle entries are keyed by (transaction_id, id): every read names the
-- transaction and orders by id, and nothing reads an entry by its id alone. One index instead of
-- two (the primary key on id and the index on (transaction_id, id)): a charge writes three index
-- entries fewer. On a large live database, make the unique index first with
-- CREATE UNIQUE INDEX CONCURRENTLY under the name below: this migration then only swaps the key
-- (a brief lock) and drops the old index.

CREATE UNIQUE INDEX IF NOT EXISTS "lifecycle_entries_transaction_id_id_key" ON "lifecycle_entries"("transaction_id", "id");
ALTER TABLE "lifecycle_entries" DROP CONSTRAINT "lifecycle_entries_pkey",
  ADD CONSTRAINT "lifecycle_entries_pkey" PRIMARY KEY USING INDEX "lifecycle_entries_transaction_id_id_key";
DROP INDEX IF EXISTS "lifecycle_entries_transaction_id_id_idx";
