-- CreateEnum
CREATE TYPE "ConnectorMode" AS ENUM ('normal', 'outage', 'slow', 'flaky', 'declining');

-- CreateEnum
CREATE TYPE "RuleStatus" AS ENUM ('DRAFT', 'PUBLISHED', 'RETIRED');

-- CreateEnum
CREATE TYPE "ThreeDsMode" AS ENUM ('NEVER', 'ALWAYS', 'OVER', 'WHEN_REQUIRED');

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "three_ds_mode" "ThreeDsMode" NOT NULL DEFAULT 'WHEN_REQUIRED',
ADD COLUMN     "three_ds_over_amount" BIGINT;

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "connector_id" TEXT,
ADD COLUMN     "decline_class" TEXT,
ADD COLUMN     "latency_ms" INTEGER,
ADD COLUMN     "routing" JSONB,
ADD COLUMN     "status_check_at" TIMESTAMPTZ(3),
ADD COLUMN     "status_checks" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "three_ds" JSONB,
ALTER COLUMN "authorization_reply" DROP NOT NULL;

-- CreateTable
CREATE TABLE "connector_settings" (
    "connector_id" TEXT NOT NULL,
    "mode" "ConnectorMode" NOT NULL DEFAULT 'normal',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "connector_settings_pkey" PRIMARY KEY ("connector_id")
);

-- CreateTable
CREATE TABLE "sandbox_processor_records" (
    "connector_id" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "authorization_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_processor_records_pkey" PRIMARY KEY ("connector_id","reference")
);

-- CreateTable
CREATE TABLE "routing_rules" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "method" "PaymentMethod" NOT NULL,
    "version" INTEGER NOT NULL,
    "status" "RuleStatus" NOT NULL,
    "routes" JSONB NOT NULL,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "routing_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_policies" (
    "merchant_id" UUID NOT NULL,
    "method" "PaymentMethod" NOT NULL,
    "max_attempts" INTEGER NOT NULL DEFAULT 2,
    "budget_ms" INTEGER NOT NULL DEFAULT 10000,
    "retry_soft_declines" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payment_policies_pkey" PRIMARY KEY ("merchant_id","method")
);

-- CreateTable
CREATE TABLE "card_vault" (
    "transaction_id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "iv" BYTEA NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "tag" BYTEA NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "card_vault_pkey" PRIMARY KEY ("transaction_id")
);

-- CreateIndex
CREATE INDEX "routing_rules_merchant_id_method_status_idx" ON "routing_rules"("merchant_id", "method", "status");

-- CreateIndex
CREATE UNIQUE INDEX "routing_rules_merchant_id_method_version_key" ON "routing_rules"("merchant_id", "method", "version");

-- CreateIndex
CREATE INDEX "card_vault_expires_at_idx" ON "card_vault"("expires_at");

-- CreateIndex
CREATE INDEX "transactions_connector_id_created_at_idx" ON "transactions"("connector_id", "created_at");

-- CreateIndex
CREATE INDEX "transactions_status_check_at_idx" ON "transactions"("status_check_at");

-- AddForeignKey
ALTER TABLE "routing_rules" ADD CONSTRAINT "routing_rules_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_policies" ADD CONSTRAINT "payment_policies_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "card_vault" ADD CONSTRAINT "card_vault_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- At most one draft and one published version per merchant and method (schema.prisma cannot
-- declare partial indexes).
CREATE UNIQUE INDEX "routing_rules_one_draft_idx" ON "routing_rules"("merchant_id", "method") WHERE "status" = 'DRAFT';
CREATE UNIQUE INDEX "routing_rules_one_published_idx" ON "routing_rules"("merchant_id", "method") WHERE "status" = 'PUBLISHED';
