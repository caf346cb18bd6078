-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "card_save_id" UUID;

-- CreateTable
CREATE TABLE "card_saves" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "reason" "StoredCredentialReason" NOT NULL,
    "currency" TEXT NOT NULL,
    "consent_accepted_at" TIMESTAMPTZ(3) NOT NULL,
    "consent_terms_version" TEXT NOT NULL,
    "consent_max_amount" BIGINT,
    "consent_installments" INTEGER,
    "brand" TEXT NOT NULL,
    "bin" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "expiry_date" TEXT NOT NULL,
    "fingerprint" BYTEA NOT NULL,
    "vault_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "card_saves_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "card_saves_vault_id_key" ON "card_saves"("vault_id");

-- CreateIndex
CREATE INDEX "card_saves_created_at_idx" ON "card_saves"("created_at");

-- AddForeignKey
ALTER TABLE "card_saves" ADD CONSTRAINT "card_saves_vault_id_fkey" FOREIGN KEY ("vault_id") REFERENCES "vault_records"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The worker's sweep of card saves asks which payments in progress name one; few rows do.
CREATE INDEX "transactions_card_save_id_idx" ON "transactions"("card_save_id") WHERE "card_save_id" IS NOT NULL;
