-- Attempts a processor has now (docs/DECISIONS.md, "A charge written once"). This release reads
-- them everywhere an attempt in flight is read and settles them in the status sync, and still
-- writes each attempt as a REGISTRADO transaction; the next release writes claims instead, so
-- that each transaction is written once, with its outcome. A deployment goes through this
-- release: an instance of a release before it does not see claims, and could number an attempt
-- twice beside one (DEPLOYMENT.md). Additive: instances of the previous release ignore it.

CREATE TABLE IF NOT EXISTS "charge_claims" (
    "transaction_id" UUID NOT NULL,
    "operation_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "merchant_id" UUID NOT NULL,
    "connector_id" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "attempt_row" JSONB NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL,
    "status_check_at" TIMESTAMPTZ(3) NOT NULL,
    "status_checks" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "charge_claims_pkey" PRIMARY KEY ("transaction_id")
);

-- At most one attempt in flight per operation; the backstop of the claim's decision below.
CREATE UNIQUE INDEX IF NOT EXISTS "charge_claims_operation_id_key" ON "charge_claims"("operation_id");

-- The status sync's lease: claims whose processor must be asked.
CREATE INDEX IF NOT EXISTS "charge_claims_status_check_at_idx" ON "charge_claims"("status_check_at");

-- A row per charge is inserted and deleted within a second or so: vacuumed every thousand.
ALTER TABLE "charge_claims" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 1000);

-- An operation's latest attempt, its claim or its latest transaction, read with a snapshot of its
-- own. The claim statement calls it after its upsert has locked the operation's row: a read in
-- the statement's own snapshot (taken before the lock was granted) would miss a claim or an
-- outcome another request committed meanwhile, and number an attempt twice. VOLATILE and
-- plpgsql, so it is never inlined into the statement and keeps its plan per connection.
CREATE OR REPLACE FUNCTION charge_attempt_latest(p_operation uuid)
RETURNS TABLE (attempt integer, state "TransactionState", request_hash text, authorization_reply jsonb,
               updated_at timestamptz, in_flight boolean)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT l.attempt, l.state, l.request_hash, l.authorization_reply, l.updated_at, l.in_flight
  FROM (
    SELECT c.attempt, 'REGISTRADO'::"TransactionState" AS state, c.request_hash, NULL::jsonb AS authorization_reply,
           c.claimed_at AS updated_at, true AS in_flight
    FROM charge_claims c WHERE c.operation_id = p_operation
    UNION ALL
    (SELECT t.attempt, t.state, t.request_hash, t.authorization_reply, t.updated_at, false
     FROM transactions t WHERE t.operation_id = p_operation ORDER BY t.attempt DESC LIMIT 1)
  ) l
  ORDER BY l.attempt DESC LIMIT 1;
END $$;
