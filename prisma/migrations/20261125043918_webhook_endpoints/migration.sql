-- Webhook endpoints per merchant (Stripe's model): events of operations that name no callback_url
-- go to each enabled endpoint subscribed to their type, one delivery per event and endpoint,
-- written in the event's own transaction.
-- AlterTable
ALTER TABLE "callback_attempts" ADD COLUMN     "endpoint_delivery_id" UUID;

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "event_types" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "failing_since" TIMESTAMPTZ(3),
    "disabled_at" TIMESTAMPTZ(3),
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "endpoint_deliveries" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "aggregate_id" UUID NOT NULL,
    "seq" BIGINT NOT NULL,
    "url" TEXT NOT NULL,
    "destination" TEXT NOT NULL,
    "status" "EventStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "endpoint_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_merchant_id_idx" ON "webhook_endpoints"("merchant_id");

-- CreateIndex
CREATE INDEX "endpoint_deliveries_status_destination_next_attempt_at_idx" ON "endpoint_deliveries"("status", "destination", "next_attempt_at");

-- CreateIndex
CREATE INDEX "endpoint_deliveries_endpoint_id_aggregate_id_seq_idx" ON "endpoint_deliveries"("endpoint_id", "aggregate_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "endpoint_deliveries_event_id_endpoint_id_key" ON "endpoint_deliveries"("event_id", "endpoint_id");

-- CreateIndex
CREATE INDEX "callback_attempts_endpoint_delivery_id_idx" ON "callback_attempts"("endpoint_delivery_id");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_deliveries" ADD CONSTRAINT "endpoint_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "outbox_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "endpoint_deliveries" ADD CONSTRAINT "endpoint_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_endpoint_delivery_id_fkey" FOREIGN KEY ("endpoint_delivery_id") REFERENCES "endpoint_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
