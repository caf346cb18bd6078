-- Indexes of the console's operations table and of GET /refund at a million operations
-- (docs/BENCHMARKS.md, "Scale: 1,000,000 operations on PostgreSQL"). Each one serves a query
-- that otherwise reads every row of its table, or most of them. Made from schema.prisma by
-- db:migrate:create, then edited: comments, IF [NOT] EXISTS, and three indexes schema.prisma cannot
-- declare. No semicolon may appear in this file except at the end of a statement:
-- @prisma/adapter-pg runs a migration split at every semicolon. IF NOT EXISTS: on a large live
-- database the indexes may be made beforehand with CREATE INDEX CONCURRENTLY under the same
-- names, and this migration then only records them.

-- Newest or oldest first for one merchant: the index it replaces, with id (the page order's tie-break).
DROP INDEX IF EXISTS "transactions_merchant_id_created_at_idx";
CREATE INDEX IF NOT EXISTS "transactions_merchant_id_created_at_id_idx" ON "transactions"("merchant_id", "created_at", "id");

-- Newest or oldest first across merchants (support, platform admins).
CREATE INDEX IF NOT EXISTS "transactions_created_at_id_idx" ON "transactions"("created_at", "id");

-- By amount, for one merchant and across merchants (and amount-range filters).
CREATE INDEX IF NOT EXISTS "transactions_merchant_id_amount_id_idx" ON "transactions"("merchant_id", "amount", "id");
CREATE INDEX IF NOT EXISTS "transactions_amount_id_idx" ON "transactions"("amount", "id");

-- A state filter across merchants, newest first: without it, LIQUIDADO reads past the whole
-- last day (nothing settles before its cut-off).
CREATE INDEX IF NOT EXISTS "transactions_state_created_at_id_idx" ON "transactions"("state", "created_at", "id");

-- The search by a card's last four digits.
CREATE INDEX IF NOT EXISTS "transactions_card_last4_idx" ON "transactions"("card_last4");

-- The console's payer email search (ILIKE '%text@text%'): stored emails are valid addresses with
-- one @, so a match's local part ends with what precedes the search's @ (reversed: starts with)
-- and its domain starts with what follows it. listOperations finds candidates by these two.
CREATE INDEX IF NOT EXISTS "transactions_payer_email_local_idx" ON "transactions"((reverse(lower(split_part("payer_email", '@', 1)))) text_pattern_ops);
CREATE INDEX IF NOT EXISTS "transactions_payer_email_domain_idx" ON "transactions"((lower(split_part("payer_email", '@', 2))) text_pattern_ops);

-- Operation number equal to (GET /refund?merchant_operation_number=) or starting with (the
-- console's search) a text, across merchants. text_pattern_ops: LIKE 'prefix%' can use it in
-- any collation (the unique index on (merchant_id, number) cannot, outside the C collation).
CREATE INDEX IF NOT EXISTS "operations_merchant_operation_number_pattern_idx" ON "operations"("merchant_operation_number" text_pattern_ops);

-- GET /refund for one merchant and a state: the page in order, and its count from the index alone.
CREATE INDEX IF NOT EXISTS "refunds_merchant_id_state_created_at_id_idx" ON "refunds"("merchant_id", "state", "created_at", "id");

-- GET /refund?transaction_id=
CREATE INDEX IF NOT EXISTS "refunds_transaction_id_idx" ON "refunds"("transaction_id");
