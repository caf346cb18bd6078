-- A challenge's card moves to the vault of saved cards, and its security code is kept nowhere
-- (../shared CARD-ON-FILE.md 1, 6). Cards sealed the old way (with their code) are dropped: a
-- payment waiting for its challenge then ends as unauthenticated, or at its expiry.
DELETE FROM "card_vault";

-- AlterTable
ALTER TABLE "card_vault" DROP COLUMN "ciphertext",
DROP COLUMN "iv",
DROP COLUMN "key_id",
DROP COLUMN "tag",
ADD COLUMN     "held_connector" TEXT,
ADD COLUMN     "held_token" TEXT,
ADD COLUMN     "vault_id" UUID NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "card_vault_vault_id_key" ON "card_vault"("vault_id");

-- AddForeignKey
ALTER TABLE "card_vault" ADD CONSTRAINT "card_vault_vault_id_fkey" FOREIGN KEY ("vault_id") REFERENCES "vault_records"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The old store's key, which no row names any more.
DELETE FROM "service_keys" WHERE "name" = 'card-vault-key';
