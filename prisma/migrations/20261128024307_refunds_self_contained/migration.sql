-- A refund's row holds everything its object shows (docs/DECISIONS.md, "A page of refunds from
-- its own rows"): its lifecycle (at most three entries, always read whole, written only with a
-- move of that row) and what it shows of its operation and transaction (the operation's number,
-- the method, brand and masked PAN of a settled transaction, which never change). A page of
-- refunds then reads the refunds alone: no lookup of each refund's operation and transaction,
-- and no lookup and sort of its lifecycle entries in another table. The entries keep their order
-- (by id) and their instants, to the millisecond, in the form JavaScript's toISOString writes.

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

-- During a rolling deploy the previous release's instances still register refunds without the
-- copies, write each move's entry to refund_lifecycle_entries, and read lifecycles from there
-- (docs/DEPLOYMENT.md: migrations keep old instances working). Until the next release drops that
-- table and these triggers: a refund inserted without its copies gets them from its transaction
-- (before the NOT NULL check); an entry written to the old table is appended to its refund's
-- row; an entry appended to a row is written to the old table. Each skips the change the other
-- made (pg_trigger_depth), so nothing is written twice.
-- The old table's entries go with their refund (it is no longer a table the service cleans up).
ALTER TABLE "refund_lifecycle_entries"
  DROP CONSTRAINT IF EXISTS "refund_lifecycle_entries_refund_id_fkey",
  ADD CONSTRAINT "refund_lifecycle_entries_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "refunds"("id")
    ON DELETE CASCADE ON UPDATE CASCADE;

CREATE OR REPLACE FUNCTION refunds_copy_payment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o.merchant_operation_number, t.method, t.card_brand, t.masked_pan
  INTO NEW.merchant_operation_number, NEW.method, NEW.card_brand, NEW.masked_pan
  FROM transactions t JOIN operations o ON o.id = t.operation_id
  WHERE t.id = NEW.transaction_id;
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS refunds_copy_payment ON "refunds";
CREATE TRIGGER refunds_copy_payment BEFORE INSERT ON "refunds"
  FOR EACH ROW WHEN (NEW.merchant_operation_number IS NULL) EXECUTE FUNCTION refunds_copy_payment();

CREATE OR REPLACE FUNCTION refund_lifecycle_entries_to_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  UPDATE refunds
  SET lifecycle = lifecycle || jsonb_build_array(jsonb_build_object(
    'state', NEW.state, 'at', to_char(NEW.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
  WHERE id = NEW.refund_id;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS refund_lifecycle_entries_to_row ON "refund_lifecycle_entries";
CREATE TRIGGER refund_lifecycle_entries_to_row AFTER INSERT ON "refund_lifecycle_entries"
  FOR EACH ROW EXECUTE FUNCTION refund_lifecycle_entries_to_row();

CREATE OR REPLACE FUNCTION refunds_lifecycle_to_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  INSERT INTO refund_lifecycle_entries (refund_id, state, at)
  SELECT NEW.id, (entry.value->>'state')::"RefundState", (entry.value->>'at')::timestamptz
  FROM jsonb_array_elements(NEW.lifecycle) WITH ORDINALITY AS entry(value, n)
  WHERE entry.n > CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE jsonb_array_length(OLD.lifecycle) END
  ORDER BY entry.n;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS refunds_lifecycle_to_entries ON "refunds";
CREATE TRIGGER refunds_lifecycle_to_entries AFTER INSERT OR UPDATE OF lifecycle ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION refunds_lifecycle_to_entries();

ALTER TABLE "refunds"
  ALTER COLUMN "merchant_operation_number" SET NOT NULL,
  ALTER COLUMN "method" SET NOT NULL;
