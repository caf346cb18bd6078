-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "saved_card_id" UUID;

-- The charges that used or saved a card, named until now only inside additional_fields.
UPDATE "transactions"
SET "saved_card_id" = ("additional_fields"->'stored_credential'->>'card_id')::uuid
WHERE "additional_fields"->'stored_credential'->>'card_id' IS NOT NULL;

-- A customer's page lists its cards' charges, newest first; most charges use no saved card.
CREATE INDEX "transactions_saved_card_id_partial_idx" ON "transactions"("saved_card_id", "created_at" DESC) WHERE "saved_card_id" IS NOT NULL;
