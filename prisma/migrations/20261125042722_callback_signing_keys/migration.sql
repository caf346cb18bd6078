-- Callback signing keys that can be rotated, with an overlap during which both are published.
-- The key kept until now in service_keys ('callback-signing-key') moves here at first start.
-- CreateTable
CREATE TABLE "callback_signing_keys" (
    "kid" TEXT NOT NULL,
    "private_pem" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retires_at" TIMESTAMPTZ(3),

    CONSTRAINT "callback_signing_keys_pkey" PRIMARY KEY ("kid")
);
