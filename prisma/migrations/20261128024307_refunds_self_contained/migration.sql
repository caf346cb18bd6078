-- A refund's row holds everything its object shows (docs/DECISIONS.md, "A page of refunds from
-- their own rows"): its lifecycle (at most three entries, always read whole, written only with a
-- move of that row) and what it shows of its operation and transaction (the operation's number,
-- the method, brand and masked PAN of a settled transaction, which never change). A page of
-- refunds then reads the refunds alone: no lookup of each refund's operation and transaction,
-- and no lookup and sort of its lifecycle entries in another table. The entries keep their order
-- (by id) and their instants, to the millisecond, in the form JavaScript's toISOString writes.
-- No semicolon may appear in this file except at the end of a statement: @prisma/adapter-pg runs
-- a migration split at every semicolon.

ALTER TABLE "refunds"
  ADD COLUMN IF NOT EXISTS "merchant_operation_number" TEXT,
  ADD COLUMN IF NOT EXISTS "method" "PaymentMethod",
  ADD COLUMN IF NOT EXISTS "card_brand" TEXT,
  ADD COLUMN IF NOT EXISTS "masked_pan" TEXT,
  ADD COLUMN IF NOT EXISTS "lifecycle" JSONB NOT NULL DEFAULT '[]';

UPDATE "refunds" r
SET "merchant_operation_number" = o.merchant_operation_number,
    "method" = t.method,
    "card_brand" = t.card_brand,
    "masked_pan" = t.masked_pan,
    "lifecycle" = COALESCE((
      SELECT jsonb_agg(jsonb_build_object('state', e.state, 'at', to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                       ORDER BY e.id)
      FROM "refund_lifecycle_entries" e WHERE e.refund_id = r.id), '[]')
FROM "operations" o, "transactions" t
WHERE o.id = r.operation_id AND t.id = r.transaction_id;

ALTER TABLE "refunds"
  ALTER COLUMN "merchant_operation_number" SET NOT NULL,
  ALTER COLUMN "method" SET NOT NULL;

DROP TABLE IF EXISTS "refund_lifecycle_entries";
