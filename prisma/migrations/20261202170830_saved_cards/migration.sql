-- CreateEnum
CREATE TYPE "SavedCardStatus" AS ENUM ('ACTIVE', 'REMOVED');

-- CreateEnum
CREATE TYPE "StoredCredentialReason" AS ENUM ('ONE_CLICK', 'RECURRING', 'INSTALLMENT', 'UNSCHEDULED');

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "merchant_customer_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "phone" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saved_cards" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "status" "SavedCardStatus" NOT NULL DEFAULT 'ACTIVE',
    "reason" "StoredCredentialReason" NOT NULL,
    "brand" TEXT NOT NULL,
    "bin" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "expiry_date" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "consent_accepted_at" TIMESTAMPTZ(3) NOT NULL,
    "consent_terms_version" TEXT NOT NULL,
    "consent_max_amount" BIGINT,
    "consent_installments" INTEGER,
    "mit_count" INTEGER NOT NULL DEFAULT 0,
    "initial_nti" TEXT,
    "latest_nti" TEXT,
    "saved_by_transaction_id" UUID,
    "fingerprint" BYTEA,
    "vault_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removed_at" TIMESTAMPTZ(3),

    CONSTRAINT "saved_cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vault_records" (
    "id" UUID NOT NULL,
    "kek_id" TEXT NOT NULL,
    "key_iv" BYTEA NOT NULL,
    "wrapped_key" BYTEA NOT NULL,
    "key_tag" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "tag" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vault_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processor_card_tokens" (
    "card_id" UUID NOT NULL,
    "connector_id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "processor_customer_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processor_card_tokens_pkey" PRIMARY KEY ("card_id","connector_id")
);

-- CreateIndex
CREATE INDEX "customers_merchant_id_email_idx" ON "customers"("merchant_id", "email");

-- CreateIndex
CREATE UNIQUE INDEX "customers_merchant_id_merchant_customer_id_key" ON "customers"("merchant_id", "merchant_customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "saved_cards_vault_id_key" ON "saved_cards"("vault_id");

-- CreateIndex
CREATE INDEX "saved_cards_customer_id_status_idx" ON "saved_cards"("customer_id", "status");

-- CreateIndex
CREATE INDEX "saved_cards_merchant_id_last4_idx" ON "saved_cards"("merchant_id", "last4");

-- CreateIndex
CREATE INDEX "vault_records_kek_id_idx" ON "vault_records"("kek_id");

-- AddForeignKey
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saved_cards" ADD CONSTRAINT "saved_cards_vault_id_fkey" FOREIGN KEY ("vault_id") REFERENCES "vault_records"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "processor_card_tokens" ADD CONSTRAINT "processor_card_tokens_card_id_fkey" FOREIGN KEY ("card_id") REFERENCES "saved_cards"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One ACTIVE card per customer and PAN (its keyed fingerprint): saving the same PAN again finds it,
-- and two saves of one PAN at once cannot both insert. A removed card keeps no fingerprint.
CREATE UNIQUE INDEX "saved_cards_customer_id_fingerprint_active_key" ON "saved_cards"("customer_id", "fingerprint") WHERE "status" = 'ACTIVE';
