-- Deliveries are bounded and shared fairly per destination (the callback URL's origin), so that
-- one endpoint that hangs or does not resolve delays nobody else's callbacks. Events still
-- pending take theirs from their URL, and new events are written with it. A destination that
-- failed lately is held back for a while (callback_destinations).
-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "destination" TEXT;

UPDATE "outbox_events"
SET "destination" = lower(substring("callback_url" from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#@]+'))
WHERE "status" = 'PENDING' AND "callback_url" IS NOT NULL;

-- CreateTable
CREATE TABLE "callback_destinations" (
    "destination" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "held_until" TIMESTAMPTZ(3) NOT NULL,
    "last_error" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "callback_destinations_pkey" PRIMARY KEY ("destination")
);

-- CreateIndex
CREATE INDEX "outbox_events_status_destination_next_attempt_at_idx" ON "outbox_events"("status", "destination", "next_attempt_at");
