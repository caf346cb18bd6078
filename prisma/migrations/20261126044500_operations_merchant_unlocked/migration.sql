-- Every charge inserted an operation referencing its merchant, and the foreign key's check locked
-- that merchant's row (FOR KEY SHARE) in every charge's transaction: the one row all of a
-- merchant's concurrent charges lock, the classic hot parent (a MultiXact per overlapping charge
-- on PostgreSQL, a row lock written to the WAL per charge on either database). The reference
-- stays whole without it (docs/DECISIONS.md, "The operation's merchant without a lock"):
-- the charge statement inserts an operation only for a merchant it reads, merchants are never
-- deleted by the service, and a merchant with operations can be neither deleted nor renumbered (below).
ALTER TABLE "operations" DROP CONSTRAINT "operations_merchant_id_fkey";

CREATE FUNCTION merchants_keep_operations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.id = OLD.id THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM operations WHERE merchant_id = OLD.id) THEN
    RAISE EXCEPTION 'merchant % still has operations', OLD.id
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'operations_merchant_id_fkey';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;

-- A merchant's id does not change while it has operations either (the key cascaded such a change).
CREATE TRIGGER merchants_keep_operations BEFORE DELETE OR UPDATE OF id ON "merchants"
  FOR EACH ROW EXECUTE FUNCTION merchants_keep_operations();
