-- GET /refund's operations_count at ten million operations (docs/DECISIONS.md, "Refund counts at
-- ten million operations"): counting every match was the first page's whole cost (137,300 refunds
-- of one merchant joined and counted before LIMIT). refund_day_counts holds, per merchant, state
-- and UTC day of creation, how many refunds there are: the triggers below keep it in the
-- transaction of every statement that inserts, moves or deletes refunds, whichever code runs it,
-- so a rolled-back move leaves it as it was. A count sums the whole days of its range here and
-- counts the refunds of the partial days at its ends (docs/DESIGN.md 11's business days start
-- at any hour of a UTC day).
CREATE TABLE "refund_day_counts" (
    "merchant_id" UUID NOT NULL,
    "state" "RefundState" NOT NULL,
    "day" DATE NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "refund_day_counts_pkey" PRIMARY KEY ("merchant_id","state","day")
);

-- The counters across merchants (support): by state, and by days alone.
CREATE INDEX "refund_day_counts_state_day_idx" ON "refund_day_counts"("state", "day");
CREATE INDEX "refund_day_counts_day_idx" ON "refund_day_counts"("day");

-- GET /refund?state= across merchants (support), newest first: the page in order.
CREATE INDEX "refunds_state_created_at_id_idx" ON "refunds"("state", "created_at", "id");

-- Each statement's changes are summed per key and applied in key order: two transactions that
-- change the same counters lock them in the same order (no deadlock between them), and a statement
-- that leaves every key's total as it was (an update of other columns) locks none.
CREATE FUNCTION refund_day_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO refund_day_counts (merchant_id, state, day, count)
  SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM new_refunds
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, state, day) DO UPDATE SET count = refund_day_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE FUNCTION refund_day_counts_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO refund_day_counts (merchant_id, state, day, count)
  SELECT merchant_id, state, day, sum(delta) FROM (
    SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date AS day, -1 AS delta FROM old_refunds
    UNION ALL
    SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date, 1 FROM new_refunds
  ) AS moves
  GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, state, day) DO UPDATE SET count = refund_day_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE FUNCTION refund_day_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO refund_day_counts (merchant_id, state, day, count)
  SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date, -count(*) FROM old_refunds
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, state, day) DO UPDATE SET count = refund_day_counts.count + EXCLUDED.count;
  RETURN NULL;
END $$;

CREATE TRIGGER refund_day_counts_insert AFTER INSERT ON "refunds"
  REFERENCING NEW TABLE AS new_refunds FOR EACH STATEMENT EXECUTE FUNCTION refund_day_counts_insert();
CREATE TRIGGER refund_day_counts_update AFTER UPDATE ON "refunds"
  REFERENCING OLD TABLE AS old_refunds NEW TABLE AS new_refunds FOR EACH STATEMENT EXECUTE FUNCTION refund_day_counts_update();
CREATE TRIGGER refund_day_counts_delete AFTER DELETE ON "refunds"
  REFERENCING OLD TABLE AS old_refunds FOR EACH STATEMENT EXECUTE FUNCTION refund_day_counts_delete();

-- The refunds already there.
INSERT INTO refund_day_counts (merchant_id, state, day, count)
SELECT merchant_id, state, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM refunds GROUP BY 1, 2, 3;
