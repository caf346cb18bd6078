-- CreateTable
CREATE TABLE "webhook_endpoint_secrets" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "hint" TEXT NOT NULL,
    "secret_key_id" TEXT NOT NULL,
    "secret_iv" BYTEA NOT NULL,
    "secret_ciphertext" BYTEA NOT NULL,
    "secret_tag" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_endpoint_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoint_secrets_endpoint_id_expires_at_idx" ON "webhook_endpoint_secrets"("endpoint_id", "expires_at");

-- AddForeignKey
ALTER TABLE "webhook_endpoint_secrets" ADD CONSTRAINT "webhook_endpoint_secrets_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
