-- Processors' tokens no card uses any more, waiting for the worker to delete them at their
-- processors (docs/DECISIONS.md "A processor's token no card uses"): a removed card's, and one a
-- newer token of the same card replaced (a renewed card registered again). Before, a removed
-- card's tokens waited in processor_card_tokens, and a replaced token was overwritten and stayed
-- at its processor, charged by nothing and never deleted.
CREATE TABLE "retired_card_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "card_id" UUID NOT NULL,
    "connector_id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "processor_customer_id" TEXT,
    "retired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delete_after" TIMESTAMPTZ(3),
    "delete_attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "retired_card_tokens_pkey" PRIMARY KEY ("id")
);

-- The worker's order: never asked first, then those whose backoff ended earliest.
CREATE INDEX "retired_card_tokens_delete_after_retired_at_idx" ON "retired_card_tokens"("delete_after", "retired_at");

ALTER TABLE "retired_card_tokens" ADD CONSTRAINT "retired_card_tokens_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "saved_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Removed cards' tokens not deleted yet move, with their backoff.
INSERT INTO "retired_card_tokens" ("card_id", "connector_id", "token", "processor_customer_id", "retired_at", "delete_after", "delete_attempts")
SELECT t."card_id", t."connector_id", t."token", t."processor_customer_id", coalesce(c."removed_at", now()), t."delete_after", t."delete_attempts"
FROM "processor_card_tokens" t JOIN "saved_cards" c ON c."id" = t."card_id"
WHERE c."status" = 'REMOVED';

DELETE FROM "processor_card_tokens" t USING "saved_cards" c WHERE c."id" = t."card_id" AND c."status" = 'REMOVED';

ALTER TABLE "processor_card_tokens" DROP COLUMN "delete_after",
DROP COLUMN "delete_attempts";

-- Whatever statement deletes a card's token or replaces it with another (a card's removal, an
-- upsert of a newer token, in Prisma or in SQL), the token it drops is retired in that statement's
-- transaction: no path can forget one.
CREATE FUNCTION processor_card_tokens_retire() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD."token" IS DISTINCT FROM NEW."token" THEN
    INSERT INTO "retired_card_tokens" ("card_id", "connector_id", "token", "processor_customer_id")
    VALUES (OLD."card_id", OLD."connector_id", OLD."token", OLD."processor_customer_id");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER processor_card_tokens_retire AFTER UPDATE OR DELETE ON "processor_card_tokens"
  FOR EACH ROW EXECUTE FUNCTION processor_card_tokens_retire();

-- A token kept for a card that is no longer ACTIVE (a charge's provisioning that ends after the
-- card's removal) is no card's: deleted at once, so the trigger above retires it. The card's row
-- is read FOR SHARE: a removal under way (its row locked FOR UPDATE) is waited for and seen, and
-- a removal that starts after waits for this token's transaction, then deletes it with the others.
CREATE FUNCTION processor_card_tokens_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "saved_cards" WHERE "id" = NEW."card_id" AND "status" = 'ACTIVE' FOR SHARE;
  IF NOT FOUND THEN
    DELETE FROM "processor_card_tokens" WHERE "card_id" = NEW."card_id" AND "connector_id" = NEW."connector_id";
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER processor_card_tokens_kept AFTER INSERT OR UPDATE OF "token" ON "processor_card_tokens"
  FOR EACH ROW EXECUTE FUNCTION processor_card_tokens_kept();
