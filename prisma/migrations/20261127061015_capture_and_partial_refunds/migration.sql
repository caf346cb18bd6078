-- DropIndex
DROP INDEX "refunds_active_transaction_id_key";

-- AlterTable
ALTER TABLE "merchants" ADD COLUMN     "capture_modes" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "capture_window_days" INTEGER NOT NULL DEFAULT 7;

-- AlterTable
ALTER TABLE "transactions" ADD COLUMN     "capture_before" TIMESTAMPTZ(3),
ADD COLUMN     "capture_check_at" TIMESTAMPTZ(3),
ADD COLUMN     "capture_requested" BIGINT,
ADD COLUMN     "capture_status" TEXT,
ADD COLUMN     "captured_amount" BIGINT,
ADD COLUMN     "refunded_amount" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
-- What each transaction's refunds that are not REJECTED add up to (one at most until now).
UPDATE "transactions" t SET "refunded_amount" = r.total
FROM (SELECT "transaction_id", SUM("refund_amount") AS total FROM "refunds" WHERE "state" <> 'REJECTED' GROUP BY "transaction_id") r
WHERE r."transaction_id" = t."id";

-- The database itself keeps the sums: a refund never takes more than was captured, and a
-- capture never more than was authorized, whatever a request or a worker does.
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_capture_status_check"
  CHECK ("capture_status" IS NULL OR "capture_status" IN ('UNCAPTURED', 'CAPTURING', 'CAPTURED'));
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_captured_amount_check"
  CHECK ("captured_amount" IS NULL OR ("captured_amount" >= 1 AND "captured_amount" <= "amount"));
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_refunded_amount_check"
  CHECK ("refunded_amount" >= 0 AND "refunded_amount" <= COALESCE("captured_amount", "amount"));
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_capture_window_days_check"
  CHECK ("capture_window_days" BETWEEN 1 AND 29);

-- Partial refunds: a transaction may have several refunds that are not REJECTED (refunded_amount
-- bounds them), so the one-live-refund key goes.
ALTER TABLE "refunds" DROP COLUMN "active_transaction_id";

-- AlterTable
ALTER TABLE "sandbox_processor_records" ADD COLUMN     "captured_amount" BIGINT,
ADD COLUMN     "uncaptured" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "voided" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "transactions_capture_status_capture_before_idx" ON "transactions"("capture_status", "capture_before");

-- CreateIndex
CREATE INDEX "transactions_capture_check_at_idx" ON "transactions"("capture_check_at");
