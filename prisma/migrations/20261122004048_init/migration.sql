-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "facilitators" (
    "id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "facilitators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merchants" (
    "id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "facilitator_id" UUID,
    "enabled_methods" TEXT[] DEFAULT ARRAY['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR']::TEXT[],
    "expiry_seconds" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "merchants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_credentials" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "scopes" TEXT[],
    "token_ttl_seconds" INTEGER,
    "rate_limit_per_second" INTEGER,
    "merchant_id" UUID,
    "facilitator_id" UUID,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operations" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "merchant_operation_number" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "transactions" (
    "id" UUID NOT NULL,
    "operation_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "merchant_id" UUID NOT NULL,
    "method" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "state_reason" TEXT NOT NULL DEFAULT '',
    "expires_at" TIMESTAMPTZ(3),
    "continue_url" TEXT,
    "payer_token" TEXT,
    "card_bin" TEXT,
    "card_last4" TEXT,
    "masked_pan" TEXT,
    "card_brand" TEXT,
    "card_type" TEXT,
    "card_country" TEXT,
    "card_issuer" TEXT,
    "payer_email" TEXT,
    "callback_url" TEXT,
    "redirect_url" TEXT,
    "method_details" JSONB NOT NULL DEFAULT '{}',
    "processor_response" JSONB,
    "additional_fields" JSONB,
    "request_hash" TEXT NOT NULL,
    "authorization_reply" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lifecycle_entries" (
    "id" BIGSERIAL NOT NULL,
    "transaction_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lifecycle_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "operation_id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    "active_transaction_id" UUID,
    "type" TEXT NOT NULL,
    "refund_amount" BIGINT NOT NULL,
    "transaction_amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "additional_fields" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refund_lifecycle_entries" (
    "id" BIGSERIAL NOT NULL,
    "refund_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "refund_lifecycle_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "aggregate_id" UUID NOT NULL,
    "payload" JSONB NOT NULL,
    "callback_url" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "console_users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "merchant_id" UUID,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "service_keys" (
    "name" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_keys_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "facilitators_code_key" ON "facilitators"("code");

-- CreateIndex
CREATE UNIQUE INDEX "merchants_code_key" ON "merchants"("code");

-- CreateIndex
CREATE UNIQUE INDEX "api_credentials_client_id_key" ON "api_credentials"("client_id");

-- CreateIndex
CREATE INDEX "api_credentials_merchant_id_idx" ON "api_credentials"("merchant_id");

-- CreateIndex
CREATE UNIQUE INDEX "operations_merchant_id_merchant_operation_number_key" ON "operations"("merchant_id", "merchant_operation_number");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_payer_token_key" ON "transactions"("payer_token");

-- CreateIndex
CREATE INDEX "transactions_merchant_id_created_at_idx" ON "transactions"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "transactions_state_expires_at_idx" ON "transactions"("state", "expires_at");

-- CreateIndex
CREATE INDEX "transactions_state_updated_at_idx" ON "transactions"("state", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_operation_id_attempt_key" ON "transactions"("operation_id", "attempt");

-- CreateIndex
CREATE INDEX "lifecycle_entries_transaction_id_id_idx" ON "lifecycle_entries"("transaction_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_active_transaction_id_key" ON "refunds"("active_transaction_id");

-- CreateIndex
CREATE INDEX "refunds_merchant_id_created_at_id_idx" ON "refunds"("merchant_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "refunds_created_at_id_idx" ON "refunds"("created_at", "id");

-- CreateIndex
CREATE INDEX "refunds_operation_id_idx" ON "refunds"("operation_id");

-- CreateIndex
CREATE INDEX "refunds_state_updated_at_idx" ON "refunds"("state", "updated_at");

-- CreateIndex
CREATE INDEX "refund_lifecycle_entries_refund_id_id_idx" ON "refund_lifecycle_entries"("refund_id", "id");

-- CreateIndex
CREATE INDEX "outbox_events_status_next_attempt_at_idx" ON "outbox_events"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "outbox_events_merchant_id_created_at_idx" ON "outbox_events"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "idempotency_records_created_at_idx" ON "idempotency_records"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_records_scope_key_key" ON "idempotency_records"("scope", "key");

-- CreateIndex
CREATE UNIQUE INDEX "console_users_email_key" ON "console_users"("email");

-- AddForeignKey
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_facilitator_id_fkey" FOREIGN KEY ("facilitator_id") REFERENCES "facilitators"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_credentials" ADD CONSTRAINT "api_credentials_facilitator_id_fkey" FOREIGN KEY ("facilitator_id") REFERENCES "facilitators"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operations" ADD CONSTRAINT "operations_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_operation_id_fkey" FOREIGN KEY ("operation_id") REFERENCES "operations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lifecycle_entries" ADD CONSTRAINT "lifecycle_entries_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_operation_id_fkey" FOREIGN KEY ("operation_id") REFERENCES "operations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refund_lifecycle_entries" ADD CONSTRAINT "refund_lifecycle_entries_refund_id_fkey" FOREIGN KEY ("refund_id") REFERENCES "refunds"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "console_users" ADD CONSTRAINT "console_users_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE SET NULL ON UPDATE CASCADE;
