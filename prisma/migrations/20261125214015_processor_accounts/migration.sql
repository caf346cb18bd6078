-- CreateTable
CREATE TABLE "processor_accounts" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "processor" TEXT NOT NULL,
    "connector_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "public_key" TEXT NOT NULL,
    "secret_hint" TEXT NOT NULL,
    "secret_key_id" TEXT NOT NULL,
    "secret_iv" BYTEA NOT NULL,
    "secret_ciphertext" BYTEA NOT NULL,
    "secret_tag" BYTEA NOT NULL,
    "webhook_username" TEXT,
    "methods" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "checked_at" TIMESTAMPTZ(3),
    "check_ok" BOOLEAN,
    "check_message" TEXT,
    "created_by" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "processor_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "processor_notifications" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processor_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "processor_accounts_connector_id_key" ON "processor_accounts"("connector_id");

-- CreateIndex
CREATE INDEX "processor_accounts_merchant_id_idx" ON "processor_accounts"("merchant_id");

-- CreateIndex
CREATE INDEX "processor_notifications_account_id_received_at_idx" ON "processor_notifications"("account_id", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "processor_notifications_account_id_external_id_key" ON "processor_notifications"("account_id", "external_id");

-- AddForeignKey
ALTER TABLE "processor_accounts" ADD CONSTRAINT "processor_accounts_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "processor_notifications" ADD CONSTRAINT "processor_notifications_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "processor_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
