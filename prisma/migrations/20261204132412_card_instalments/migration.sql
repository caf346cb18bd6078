-- An INSTALLMENT MIT's attempt in flight takes one of its card's instalments (claim-charge.ts):
-- its claim names the card, and the card's next instalment counts it.
ALTER TABLE "charge_claims" ADD COLUMN     "instalment_card_id" UUID;

-- Most claims are no instalment.
CREATE INDEX "charge_claims_instalment_card_id_idx" ON "charge_claims"("instalment_card_id") WHERE "instalment_card_id" IS NOT NULL;

-- The saved card whose instalment a charge takes: an INSTALLMENT MIT's card, else NULL. The claim,
-- a failover's next claim and card_instalments read it from the row, so all three agree.
CREATE OR REPLACE FUNCTION instalment_card_of(t transactions) RETURNS uuid
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN t.additional_fields #>> '{stored_credential,initiator}' = 'MERCHANT'
               AND t.additional_fields #>> '{stored_credential,reason}' = 'INSTALLMENT' THEN t.saved_card_id END
$$;

-- The instalments the card's consent covers, and those taken: approved (mit_count, counted by the
-- approval's statement) or still undecided (claimed, or written PENDIENTE while its processor's
-- answer is verified). The card's row lock orders the claims of one card's instalments; the count
-- is a statement of its own, so its snapshot (READ COMMITTED) is taken once the lock is held and
-- sees the claim or the approval of the charge that held it.
CREATE OR REPLACE FUNCTION card_instalments(p_card uuid)
RETURNS TABLE (covered integer, taken integer)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  PERFORM 1 FROM saved_cards c WHERE c.id = p_card FOR NO KEY UPDATE;
  RETURN QUERY
  SELECT c.consent_installments,
         c.mit_count
         + (SELECT count(*) FROM charge_claims k WHERE k.instalment_card_id = p_card)::int
         + (SELECT count(*) FROM transactions t
             WHERE t.saved_card_id = p_card AND t.state = 'PENDIENTE' AND instalment_card_of(t) = p_card)::int
  FROM saved_cards c WHERE c.id = p_card;
END $$;

-- Instalments in flight while this migration runs.
UPDATE "charge_claims" c SET "instalment_card_id" = instalment_card_of(jsonb_populate_record(NULL::transactions, c."attempt_row"))
WHERE c."attempt_row" #>> '{additional_fields,stored_credential,reason}' = 'INSTALLMENT';
