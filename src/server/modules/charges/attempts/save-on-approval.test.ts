import { beforeEach, describe, expect, it } from 'vitest';
import { chargeRequest, refusal, withTestMerchant } from '@tests/support/procedure-test-support';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import { sandboxStoreFor } from '@/server/payments';
import { verifyChallenge } from '@/server/core/three-ds/directory';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { syncStatuses } from '@/server/modules/charges/sync-status';
import { updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { createCustomer } from '@/server/modules/customers/customers';
import { prepareCardSave, sweepCardSaves } from '@/server/modules/customers/card-saves';
import { completeChallenge } from './complete-challenge';
import { claimCharge } from './claim-charge';
import { attemptRows, newAttempt } from './attempt-rows';
import { claimAsTransaction } from './in-flight';
import { applyVerdict, type Answered } from './apply-verdict';
import { inquiryVerdict } from '../verdict';

// A CARD charge's save_card on a real (embedded) database and the sandbox processors (docs/DECISIONS.md
// "Card on file"): the card is saved with the approval, whichever path records it, and never otherwise.
const fixture = withTestMerchant('SAVE');
const ALL = { kind: 'all' } as const;
let sequence = 0;
const number = () => `save-${(sequence += 1)}`;
const CONSENT = { accepted_at: '2026-12-01T10:00:00-05:00', terms_version: 'v3', max_amount: '9900' };

beforeEach(() =>
  updateThreeDs(fixture.db.prisma, ALL, {
    merchantCode: fixture.merchant.code,
    setting: { mode: 'WHEN_REQUIRED', overAmount: null },
  }),
);

async function newCustomer(id = `cus-${(sequence += 1)}`) {
  const { customer } = await createCustomer(fixture.db.prisma, fixture.merchant, {
    merchant_code: fixture.merchant.code,
    merchant_customer_id: id,
    email: `${id}@example.pe`,
  });
  return customer.customer_id;
}

function savingRequest(customerId: string, pan = '4111111111111111', operationNumber = number()): ChargeRequest {
  const request = chargeRequest(fixture.merchant.code, operationNumber, 'CARD', { pan });
  if (request.payment_method.method_name !== 'CARD') throw new Error('a card request');
  request.payment_method.method_details.save_card = { customer_id: customerId, reason: 'RECURRING', consent: CONSENT };
  return request;
}

const cardsOf = (customerId: string) =>
  fixture.db.prisma.savedCard.findMany({ where: { customerId }, orderBy: { createdAt: 'asc' } });
const pendingSaves = (customerId: string) => fixture.db.prisma.cardSave.count({ where: { customerId } });
const cardEvents = (cardId: string) =>
  fixture.db.prisma.outboxEvent.findMany({ where: { aggregateId: cardId }, orderBy: { seq: 'asc' }, select: { type: true } });

/** A saving charge claimed and in flight at the sandbox acquirer, which approved it: its instance lost it. */
async function claimedSavingCharge() {
  const customerId = await newCustomer();
  const operationNumber = number();
  const body = savingRequest(customerId, '4111111111111111', operationNumber);
  if (body.payment_method.method_name !== 'CARD') throw new Error('a card request');
  const saveId = await prepareCardSave(
    fixture.db.prisma,
    fixture.merchant,
    { pan: '4111111111111111', expiryDate: '1230', currency: '604' },
    body.payment_method.method_details.save_card!,
  );
  const base = {
    merchant: fixture.merchant,
    body,
    requestHash: `hash-${operationNumber}`,
    card: null,
    methodDetails: {},
    authentication: null,
    captureMode: 'AUTOMATIC' as const,
    cardSaveId: saveId,
    storedCredential: null,
  };
  const attempt = newAttempt(
    base,
    { connectorId: 'sandbox-acquirer-a', routing: { rule_version: null, route: null, reason: 'test' } },
    0,
    new Date(),
  );
  await claimCharge(
    fixture.db.prisma,
    { merchantId: fixture.merchant.id, merchantOperationNumber: operationNumber, requestHash: base.requestHash },
    attemptRows(base, attempt, new Date(Date.now() - 1_000)),
  );
  await sandboxStoreFor(fixture.db.prisma).record('sandbox-acquirer-a', attempt.row.id, {
    outcome: 'approved',
    authorizationCode: '123456',
    brandTransactionId: '401234567890123',
  });
  return { customerId, attempt, saveId, operationNumber };
}

/** The claim as the status sync reads it (an attempt in flight). */
async function inFlight(transactionId: string, operationNumber: string): Promise<Answered> {
  const claim = await fixture.db.prisma.chargeClaim.findUniqueOrThrow({ where: { transactionId } });
  const row = claimAsTransaction(claim);
  return {
    row,
    audience: { merchantId: fixture.merchant.id, merchantCode: fixture.merchant.code, merchantOperationNumber: operationNumber },
    written: 'claim',
  };
}

const approved = inquiryVerdict({ outcome: 'approved', authorizationCode: '123456', brandTransactionId: '401234567890123' })!;

describe('save_card on a CARD charge', () => {
  it('an approval saves the card in its transaction: the answer names it, the vault holds it, card.saved announces it', async () => {
    const customerId = await newCustomer();
    const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, savingRequest(customerId));
    expect(reply.transaction.state).toBe('AUTORIZADO');
    const [card] = await cardsOf(customerId);
    expect(card).toMatchObject({
      status: 'ACTIVE',
      reason: 'RECURRING',
      brand: 'VISA',
      bin: '411111',
      last4: '1111',
      expiryDate: '1230',
      currency: '604',
      consentTermsVersion: 'v3',
      consentMaxAmount: 9900n,
      savedByTransactionId: reply.transaction.transaction_id,
    });
    // The sandbox acquirer's network transaction id, which the card's MITs will send.
    expect(card!.initialNti).toMatch(/^[0-9]{15}$/);
    expect(card!.vaultId).not.toBeNull();
    expect(reply.transaction.additional_fields).toMatchObject({
      saved_card: {
        card_id: card!.id,
        brand: 'VISA',
        bin: '411111',
        last4: '1111',
        expiry_date: '1230',
        status: 'ACTIVE',
        reason: 'RECURRING',
      },
      stored_credential: { card_id: card!.id, initiator: 'CUSTOMER', usage: 'FIRST', reason: 'RECURRING', nti_sent: false },
      // Saving a card authenticates it, though the merchant's setting asks only when required.
      three_ds: { status: 'Y' },
    });
    expect(await pendingSaves(customerId)).toBe(0);
    expect(await cardEvents(card!.id)).toEqual([{ type: 'card.saved' }]);
    // The stored answer and the transaction's events carry the same card.
    const row = await fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id: reply.transaction.transaction_id } });
    expect(row.cardSaveId).not.toBeNull();
    expect((row.additionalFields as { saved_card: { card_id: string } }).saved_card.card_id).toBe(card!.id);
  });

  it('the same PAN saved again is the same card, with the new consent (card.updated); a declined charge saves nothing', async () => {
    const customerId = await newCustomer();
    await authorizeCharge(fixture.db.prisma, fixture.merchant, savingRequest(customerId));
    const again = await authorizeCharge(fixture.db.prisma, fixture.merchant, savingRequest(customerId));
    const cards = await cardsOf(customerId);
    expect(cards).toHaveLength(1);
    expect((again.transaction.additional_fields as { saved_card: { card_id: string } }).saved_card.card_id).toBe(cards[0]!.id);
    expect(await cardEvents(cards[0]!.id)).toEqual([{ type: 'card.saved' }, { type: 'card.updated' }]);
    // One vault record: the update's replaced the first.
    expect(await fixture.db.prisma.vaultRecord.count({ where: { card: { customerId } } })).toBe(1);

    const declined = await authorizeCharge(fixture.db.prisma, fixture.merchant, savingRequest(customerId, '4000000000000002'));
    expect(declined.transaction.state).toBe('DENEGADO');
    expect(declined.transaction.additional_fields).not.toHaveProperty('saved_card');
    expect(await cardsOf(customerId)).toHaveLength(1);
    // Its save waits for the sweep, which takes it with its vault record once it is old enough.
    expect(await pendingSaves(customerId)).toBe(1);
    const save = await fixture.db.prisma.cardSave.findFirstOrThrow({ where: { customerId } });
    await sweepCardSaves(fixture.db.prisma);
    expect(await pendingSaves(customerId)).toBe(1);
    await fixture.db.prisma.cardSave.update({ where: { id: save.id }, data: { createdAt: new Date(Date.now() - 3_600_000) } });
    expect(await sweepCardSaves(fixture.db.prisma)).toBeGreaterThanOrEqual(1);
    expect(await pendingSaves(customerId)).toBe(0);
    expect(await fixture.db.prisma.vaultRecord.findUnique({ where: { id: save.vaultId } })).toBeNull();
  });

  it('a customer not the merchant’s is 404 30 before any processor: no operation, no save', async () => {
    const operationNumber = number();
    const savesBefore = await fixture.db.prisma.cardSave.count();
    expect(
      await refusal(() =>
        authorizeCharge(
          fixture.db.prisma,
          fixture.merchant,
          savingRequest('6f1c1c2e-8d7a-4b53-9b1e-0c7d2b3a4f5e', undefined, operationNumber),
        ),
      ),
    ).toBe('NOT_FOUND');
    expect(await fixture.db.prisma.operation.count({ where: { merchantOperationNumber: operationNumber } })).toBe(0);
    expect(await fixture.db.prisma.cardSave.count()).toBe(savesBefore);
  });

  it('a replay of the request saves nothing twice', async () => {
    const customerId = await newCustomer();
    const request = savingRequest(customerId);
    const first = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
    const replay = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
    expect(replay).toEqual(first);
    const [card] = await cardsOf(customerId);
    expect(await cardEvents(card!.id)).toEqual([{ type: 'card.saved' }]);
    expect(await pendingSaves(customerId)).toBe(0);
  });

  it('a 3-D Secure challenge saves the card once passed, not while it waits', async () => {
    const customerId = await newCustomer();
    const waiting = await authorizeCharge(fixture.db.prisma, fixture.merchant, savingRequest(customerId, '4000000000003220'));
    expect(waiting.transaction.state).toBe('PENDIENTE');
    expect(await cardsOf(customerId)).toHaveLength(0);
    const answer = verifyChallenge({ pan: '4000000000003220', code: '123456', triesSoFar: 0 });
    if (answer.kind !== 'done') throw new Error('the sandbox code passes');
    expect((await completeChallenge(fixture.db.prisma, waiting.transaction.transaction_id, answer.result)).state).toBe(
      'AUTORIZADO',
    );
    const [card] = await cardsOf(customerId);
    expect(card).toMatchObject({ status: 'ACTIVE', last4: '3220', savedByTransactionId: waiting.transaction.transaction_id });
    expect(await pendingSaves(customerId)).toBe(0);
  });

  it('with 3-D Secure NEVER the saving charge is not authenticated', async () => {
    await updateThreeDs(fixture.db.prisma, ALL, {
      merchantCode: fixture.merchant.code,
      setting: { mode: 'NEVER', overAmount: null },
    });
    const customerId = await newCustomer();
    const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, savingRequest(customerId, '4000000000003220'));
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(reply.transaction.additional_fields).not.toHaveProperty('three_ds');
    expect(await cardsOf(customerId)).toHaveLength(1);
  });

  it("the status sync's approval of a charge its instance lost saves the card without its PAN", async () => {
    const { customerId, attempt, saveId } = await claimedSavingCharge();
    // A sweep while the attempt is in flight leaves its save.
    await fixture.db.prisma.cardSave.update({ where: { id: saveId }, data: { createdAt: new Date(Date.now() - 3_600_000) } });
    await sweepCardSaves(fixture.db.prisma);
    expect(await pendingSaves(customerId)).toBe(1);

    await syncStatuses(fixture.db.prisma);
    const row = await fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id: attempt.row.id } });
    expect(row.state).toBe('AUTORIZADO');
    const [card] = await cardsOf(customerId);
    expect(card).toMatchObject({ status: 'ACTIVE', savedByTransactionId: attempt.row.id, initialNti: null });
    expect((row.additionalFields as { saved_card: { card_id: string } }).saved_card.card_id).toBe(card!.id);
    expect(await pendingSaves(customerId)).toBe(0);
  });

  it("an approval recorded in a caller's transaction (a notification's) saves the card with it; one recorded first elsewhere undoes its save alone", async () => {
    const saving = await claimedSavingCharge();
    const claimed = await inFlight(saving.attempt.row.id, saving.operationNumber);
    const recorded = await fixture.db.prisma.$transaction((tx) =>
      applyVerdict(tx, claimed, approved, new Date(), { inTransaction: true }),
    );
    expect(recorded).toBe(true);
    const [card] = await cardsOf(saving.customerId);
    expect(card).toMatchObject({ status: 'ACTIVE', savedByTransactionId: saving.attempt.row.id });
    expect(await pendingSaves(saving.customerId)).toBe(0);

    // Another process declined the attempt first: the stale approval, recorded in the caller's
    // transaction, saves the card and then fails to move the attempt; the savepoint undoes the
    // save alone, and the caller's own write commits.
    const late = await claimedSavingCharge();
    const answered = await inFlight(late.attempt.row.id, late.operationNumber);
    const declined = inquiryVerdict({ outcome: 'declined', code: '05', declineClass: 'hard' })!;
    expect(await applyVerdict(fixture.db.prisma, answered, declined, new Date())).toBe(true);
    const lateRecorded = await fixture.db.prisma.$transaction(async (tx) => {
      const moved = await applyVerdict(tx, answered, approved, new Date(), { inTransaction: true });
      await tx.customer.update({ where: { id: late.customerId }, data: { firstName: 'Caller' } });
      return moved;
    });
    expect(lateRecorded).toBe(false);
    expect(await cardsOf(late.customerId)).toEqual([]);
    expect(await pendingSaves(late.customerId)).toBe(1);
    const customer = await fixture.db.prisma.customer.findUniqueOrThrow({ where: { id: late.customerId } });
    expect(customer.firstName).toBe('Caller');
    const row = await fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id: late.attempt.row.id } });
    expect(row.state).toBe('DENEGADO');
  });
});
