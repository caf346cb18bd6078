-- CreateTable (unlogged: rate counts need no crash safety, and skip the WAL on every API request)
CREATE UNLOGGED TABLE "rate_buckets" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rate_buckets_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "rate_buckets_updated_at_idx" ON "rate_buckets"("updated_at");
