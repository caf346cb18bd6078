-- The release before this one (refunds_self_contained) kept refund_lifecycle_entries and three
-- triggers so that the release before it could read and write refunds during the roll
-- (DEPLOYMENT.md). No instance of that release runs beside this one: they go, and a refund move
-- writes its own row alone again.

DROP TRIGGER IF EXISTS refunds_lifecycle_to_entries ON "refunds";
DROP TRIGGER IF EXISTS refunds_copy_payment ON "refunds";
DROP TABLE IF EXISTS "refund_lifecycle_entries";
DROP FUNCTION IF EXISTS refunds_lifecycle_to_entries();
DROP FUNCTION IF EXISTS refunds_copy_payment();
DROP FUNCTION IF EXISTS refund_lifecycle_entries_to_row();
