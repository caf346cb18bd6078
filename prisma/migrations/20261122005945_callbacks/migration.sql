-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "delivered_at" TIMESTAMPTZ(3),
ADD COLUMN     "last_error" TEXT,
ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateTable
CREATE TABLE "callback_attempts" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "latency_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "response_snippet" TEXT NOT NULL DEFAULT '',
    "manual" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "callback_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "callback_attempts_event_id_number_idx" ON "callback_attempts"("event_id", "number");

-- CreateIndex
CREATE INDEX "outbox_events_aggregate_id_seq_idx" ON "outbox_events"("aggregate_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_events_seq_key" ON "outbox_events"("seq");

-- AddForeignKey
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "outbox_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
