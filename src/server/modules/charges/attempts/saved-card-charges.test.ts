import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chargeRequest, testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import { chargeRequest as chargeSchema, type ChargeRequest } from '@/server/core/interface/charge-request';
import { AppError } from '@/server/core/domain/errors';
import type { StoredCredentialReason } from '@/server/core/domain/stored-credentials';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { updatePolicy, updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { createCustomer, removeCard } from '@/server/modules/customers/customers';
import { sandboxStoreFor } from '@/server/payments';

// Charging a saved card (docs/DECISIONS.md "Card on file", ../shared CARD-ON-FILE.md 4 and 5) on a
// real (embedded) database and the sandbox acquirers: one-click and merchant-initiated charges,
// the refusals made before any processor, and the network transaction id an MIT sends.
const fixture = withTestMerchant('MIT');
const ALL = { kind: 'all' } as const;
let sequence = 0;
const number = () => `mit-${(sequence += 1)}`;

beforeEach(async () => {
  await updateThreeDs(fixture.db.prisma, ALL, {
    merchantCode: fixture.merchant.code,
    setting: { mode: 'NEVER', overAmount: null },
  });
  await updatePolicy(fixture.db.prisma, ALL, {
    merchantCode: fixture.merchant.code,
    method: 'CARD',
    budgetMs: 10_000,
    maxAttempts: 2,
    retrySoftDeclines: false,
  });
});

/** A card saved by an approved charge for a new customer: its id. */
async function savedCard(
  pan = '4111111111111111',
  consent: { reason?: StoredCredentialReason; max_amount?: string; installments?: string } = {},
) {
  const { customer } = await createCustomer(fixture.db.prisma, fixture.merchant, {
    merchant_code: fixture.merchant.code,
    merchant_customer_id: `cus-${(sequence += 1)}`,
    email: 'cus@example.pe',
  });
  const request = chargeRequest(fixture.merchant.code, number(), 'CARD', { pan });
  if (request.payment_method.method_name !== 'CARD') throw new Error('a card request');
  const { reason = 'RECURRING', ...limits } = consent;
  request.payment_method.method_details.save_card = {
    customer_id: customer.customer_id,
    reason,
    consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '9900', ...limits },
  };
  const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
  const saved = (reply.transaction.additional_fields as { saved_card?: { card_id: string } }).saved_card;
  if (!saved) throw new Error(`the saving charge was ${reply.transaction.state}`);
  return { cardId: saved.card_id, customerId: customer.customer_id };
}

function cardRequest(
  cardId: string,
  details: { initiator?: 'CUSTOMER' | 'MERCHANT'; reason?: 'RECURRING' | 'INSTALLMENT' | 'UNSCHEDULED'; security_code?: string },
  payment: { amount?: string; currency?: '604' | '840' } = {},
  operationNumber = number(),
): ChargeRequest {
  const request = chargeRequest(fixture.merchant.code, operationNumber, 'CARD');
  return {
    ...request,
    payment_method: { method_name: 'CARD', method_details: { card_id: cardId, ...details } },
    payment_details: { ...request.payment_details, amount: payment.amount ?? '5000', currency: payment.currency ?? '604' },
  };
}

const mit = (cardId: string, reason: 'RECURRING' | 'INSTALLMENT' | 'UNSCHEDULED' = 'RECURRING', amount = '5000') =>
  authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest(cardId, { initiator: 'MERCHANT', reason }, { amount }));

/** A recurring MIT of S/ 50.00 under `operationNumber` (its attempts are read by it). */
const recurringMit = (cardId: string, operationNumber: string) =>
  authorizeCharge(
    fixture.db.prisma,
    fixture.merchant,
    cardRequest(cardId, { initiator: 'MERCHANT', reason: 'RECURRING' }, {}, operationNumber),
  );

/** The error a call fails with. */
async function failure(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

const cardRow = (id: string) => fixture.db.prisma.savedCard.findUniqueOrThrow({ where: { id } });
const attemptsOf = (operationNumber: string) =>
  fixture.db.prisma.transaction.findMany({
    where: { operation: { merchantId: fixture.merchant.id, merchantOperationNumber: operationNumber } },
    orderBy: { attempt: 'asc' },
    select: { id: true, state: true, connectorId: true, additionalFields: true, processorResponse: true },
  });

describe('merchant-initiated charges', () => {
  it('an MIT sends the initial NTI, is never authenticated, counts against the consent and keeps the latest NTI', async () => {
    await updateThreeDs(fixture.db.prisma, ALL, {
      merchantCode: fixture.merchant.code,
      setting: { mode: 'ALWAYS', overAmount: null },
    });
    const { cardId } = await savedCard();
    const saved = await cardRow(cardId);
    expect(saved.initialNti).toMatch(/^[0-9]{15}$/);

    const reply = await mit(cardId);
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(reply.transaction.additional_fields).toMatchObject({
      stored_credential: { card_id: cardId, initiator: 'MERCHANT', usage: 'SUBSEQUENT', reason: 'RECURRING', nti_sent: true },
    });
    // No customer to challenge: no 3-D Secure although the merchant authenticates every payment.
    expect(reply.transaction.additional_fields).not.toHaveProperty('three_ds');
    expect(reply.transaction.payment_method.method_details).toMatchObject({ bin: '411111', last_pan: '1111' });
    const after = await cardRow(cardId);
    expect(after.mitCount).toBe(1);
    expect(after.initialNti).toBe(saved.initialNti);
    expect(after.latestNti).toMatch(/^[0-9]{15}$/);
    expect(after.latestNti).not.toBe(saved.initialNti);
    // Both charges name the card in their column: the one that saved it and the MIT.
    const charges = await fixture.db.prisma.transaction.findMany({
      where: { savedCardId: cardId },
      select: { id: true, additionalFields: true },
      orderBy: { createdAt: 'asc' },
    });
    expect(
      charges.map((charge) => (charge.additionalFields as { stored_credential: { usage: string } }).stored_credential.usage),
    ).toEqual(['FIRST', 'SUBSEQUENT']);
    expect(charges[1]!.id).toBe(reply.transaction.transaction_id);
  });

  it('refused with 409 41 before any processor when the consent does not cover it, saying why; nothing registered', async () => {
    const { cardId } = await savedCard();
    const cases: [ChargeRequest, string][] = [
      [cardRequest(cardId, { initiator: 'MERCHANT', reason: 'UNSCHEDULED' }), 'does not cover a UNSCHEDULED charge'],
      [cardRequest(cardId, { initiator: 'MERCHANT', reason: 'RECURRING' }, { currency: '840' }), 'saved for currency 604'],
      [cardRequest(cardId, { initiator: 'MERCHANT', reason: 'RECURRING' }, { amount: '9901' }), 'over the consent'],
    ];
    for (const [request, why] of cases) {
      const error = await failure(() => authorizeCharge(fixture.db.prisma, fixture.merchant, request));
      expect(error.kind).toBe('STATE_CONFLICT');
      expect(error.ilgn?.en).toContain(why);
      expect(error.ilgn?.es.length).toBeGreaterThan(10);
      expect(await attemptsOf(request.merchant_operation_number)).toEqual([]);
      expect(
        await fixture.db.prisma.operation.count({ where: { merchantOperationNumber: request.merchant_operation_number } }),
      ).toBe(0);
    }
    expect((await cardRow(cardId)).mitCount).toBe(0);
  });

  it('an INSTALLMENT consent covers its number of charges, then 409 41', async () => {
    const { cardId } = await savedCard('4111111111111111', { reason: 'INSTALLMENT', installments: '2' });
    expect((await mit(cardId, 'INSTALLMENT')).transaction.state).toBe('AUTORIZADO');
    expect((await mit(cardId, 'INSTALLMENT')).transaction.state).toBe('AUTORIZADO');
    const third = await failure(() => mit(cardId, 'INSTALLMENT'));
    expect([third.kind, third.ilgn?.en]).toEqual([
      'STATE_CONFLICT',
      'the consent covers 2 instalments and all were charged or are being charged',
    ]);
    expect(third.errors).toEqual([
      expect.objectContaining({ field: 'payment_method.method_details.card_id', code: 'consent_installments' }),
    ]);
    expect((await cardRow(cardId)).mitCount).toBe(2);
  });

  it('two MITs sent at once for the last instalment: one is carried, the other 409 41 registers nothing', async () => {
    const { cardId } = await savedCard('4111111111111111', { reason: 'INSTALLMENT', installments: '2' });
    expect((await mit(cardId, 'INSTALLMENT')).transaction.state).toBe('AUTORIZADO');
    const numbers = [number(), number()];
    const sent = numbers.map((operationNumber) =>
      authorizeCharge(
        fixture.db.prisma,
        fixture.merchant,
        cardRequest(cardId, { initiator: 'MERCHANT', reason: 'INSTALLMENT' }, {}, operationNumber),
      ),
    );
    const settled = await Promise.allSettled(sent);
    const approved = settled.flatMap((each) => (each.status === 'fulfilled' ? [each.value.transaction.state] : []));
    const refused = settled.flatMap((each) => (each.status === 'rejected' ? [each.reason as AppError] : []));
    expect(approved).toEqual(['AUTORIZADO']);
    expect(refused.map((error) => [error.kind, error.ilgn?.es])).toEqual([
      ['STATE_CONFLICT', 'el consentimiento cubre 2 cuotas y todas se cobraron o se están cobrando'],
    ]);
    const refusedNumber = numbers[settled.findIndex((each) => each.status === 'rejected')]!;
    expect(
      await fixture.db.prisma.operation.count({
        where: { merchantId: fixture.merchant.id, merchantOperationNumber: refusedNumber },
      }),
    ).toBe(0);
    expect((await cardRow(cardId)).mitCount).toBe(2);
  });

  it('the last instalment asked again is its stored answer, not a refusal', async () => {
    const { cardId } = await savedCard('4111111111111111', { reason: 'INSTALLMENT', installments: '1' });
    const request = cardRequest(cardId, { initiator: 'MERCHANT', reason: 'INSTALLMENT' });
    const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(await authorizeCharge(fixture.db.prisma, fixture.merchant, request)).toEqual(reply);
    expect((await cardRow(cardId)).mitCount).toBe(1);
  });

  it('a card whose first approval returned no NTI is declined 58 on an MIT (nti_sent false), and a hard decline does not fail over', async () => {
    const { cardId } = await savedCard('4000000000001109');
    expect((await cardRow(cardId)).initialNti).toBeNull();
    const withoutNti = await mit(cardId);
    expect(withoutNti.transaction.state).toBe('DENEGADO');
    expect(withoutNti.transaction.processor_response?.result_message.code).toBe('58');
    expect(withoutNti.transaction.additional_fields).toMatchObject({ stored_credential: { nti_sent: false } });

    const hard = await savedCard('4000000000001307');
    const operationNumber = number();
    const declined = await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      cardRequest(hard.cardId, { initiator: 'MERCHANT', reason: 'RECURRING' }, {}, operationNumber),
    );
    expect(declined.transaction.state).toBe('DENEGADO');
    expect((await attemptsOf(operationNumber)).map((row) => row.state)).toEqual(['DENEGADO']);
    expect((await cardRow(hard.cardId)).mitCount).toBe(0);
  });

  it('an MIT that fails over stays merchant-initiated at the next processor', async () => {
    // 8013 fails (96) at acquirer A and is approved at B: saved there with its NTI.
    const { cardId } = await savedCard('4000000000008013');
    const operationNumber = number();
    const reply = await recurringMit(cardId, operationNumber);
    expect(reply.transaction.state).toBe('AUTORIZADO');
    const rows = await attemptsOf(operationNumber);
    expect(rows.map((row) => [row.state, row.connectorId])).toEqual([
      ['DENEGADO', 'sandbox-acquirer-a'],
      ['AUTORIZADO', 'sandbox-acquirer-b'],
    ]);
    for (const row of rows)
      expect(row.additionalFields).toMatchObject({ stored_credential: { initiator: 'MERCHANT', nti_sent: true } });
  });
});

describe('an MIT whose answer is lost', () => {
  const store = () => sandboxStoreFor(fixture.db.prisma);
  afterEach(() => store().setMode('sandbox-acquirer-a', 'normal'));

  it('is settled by asking the same processor, never sent to another: one approval, counted once', async () => {
    const { cardId } = await savedCard();
    const saved = await cardRow(cardId);
    // A decides and records the MIT, but answers only after the service gave up waiting.
    await store().setMode('sandbox-acquirer-a', 'slow');
    const operationNumber = number();
    const reply = await recurringMit(cardId, operationNumber);
    expect(reply.transaction.state).toBe('AUTORIZADO');
    const rows = await attemptsOf(operationNumber);
    expect(rows.map((row) => [row.state, row.connectorId])).toEqual([['AUTORIZADO', 'sandbox-acquirer-a']]);
    expect(rows[0]!.additionalFields).toMatchObject({ stored_credential: { initiator: 'MERCHANT', nti_sent: true } });
    const after = await cardRow(cardId);
    expect(after.mitCount).toBe(1);
    // The status inquiry names no NTI: the latest stays the one seen before.
    expect(after.latestNti).toBe(saved.latestNti);

    // The same request again is the same answer, not a second charge.
    const again = await recurringMit(cardId, operationNumber);
    expect(again).toEqual(reply);
    expect(await attemptsOf(operationNumber)).toHaveLength(1);
    expect((await cardRow(cardId)).mitCount).toBe(1);
  });

  it('holds its instalment while its processor has it: the next MIT of the card is 409 41 until it is decided', async () => {
    const { cardId } = await savedCard('4111111111111111', { reason: 'INSTALLMENT', installments: '1' });
    await store().setMode('sandbox-acquirer-a', 'slow');
    const first = authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      cardRequest(cardId, { initiator: 'MERCHANT', reason: 'INSTALLMENT' }),
    );
    await vi.waitFor(
      async () => expect(await fixture.db.prisma.chargeClaim.count({ where: { instalmentCardId: cardId } })).toBe(1),
      { timeout: 5_000, interval: 20 },
    );
    const second = await failure(() => mit(cardId, 'INSTALLMENT'));
    expect([second.kind, second.ilgn?.en]).toEqual([
      'STATE_CONFLICT',
      'the consent covers 1 instalments and all were charged or are being charged',
    ]);
    expect((await first).transaction.state).toBe('AUTORIZADO');
    expect((await cardRow(cardId)).mitCount).toBe(1);
    expect(await fixture.db.prisma.chargeClaim.count({ where: { instalmentCardId: cardId } })).toBe(0);
  });

  it('holds its instalment while written PENDIENTE for the status sync, and frees it when declined', async () => {
    const { cardId } = await savedCard('4111111111111111', { reason: 'INSTALLMENT', installments: '1' });
    const operationNumber = number();
    await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      cardRequest(cardId, { initiator: 'MERCHANT', reason: 'INSTALLMENT' }, {}, operationNumber),
    );
    // Its answer still being verified: written PENDIENTE, not yet counted on the card.
    const [row] = await attemptsOf(operationNumber);
    await fixture.db.prisma.transaction.update({ where: { id: row!.id }, data: { state: 'PENDIENTE' } });
    await fixture.db.prisma.savedCard.update({ where: { id: cardId }, data: { mitCount: 0 } });
    expect((await failure(() => mit(cardId, 'INSTALLMENT'))).ilgn?.en).toBe(
      'the consent covers 1 instalments and all were charged or are being charged',
    );
    await fixture.db.prisma.transaction.update({ where: { id: row!.id }, data: { state: 'DENEGADO' } });
    expect((await mit(cardId, 'INSTALLMENT')).transaction.state).toBe('AUTORIZADO');
    expect((await cardRow(cardId)).mitCount).toBe(1);
  });

  it('goes on to the next processor only when the first never took it (refused connection), the MIT intact there', async () => {
    const { cardId } = await savedCard();
    await store().setMode('sandbox-acquirer-a', 'outage');
    const operationNumber = number();
    const reply = await recurringMit(cardId, operationNumber);
    expect(reply.transaction.state).toBe('AUTORIZADO');
    const rows = await attemptsOf(operationNumber);
    expect(rows.map((row) => [row.state, row.connectorId])).toEqual([
      ['DENEGADO', 'sandbox-acquirer-a'],
      ['AUTORIZADO', 'sandbox-acquirer-b'],
    ]);
    expect(rows[1]!.additionalFields).toMatchObject({ stored_credential: { initiator: 'MERCHANT', nti_sent: true } });
    expect((await cardRow(cardId)).mitCount).toBe(1);
    // A recorded no decision: the only approval is B's.
    expect(await store().find('sandbox-acquirer-a', rows[0]!.id)).toBeNull();
    expect(await store().find('sandbox-acquirer-b', rows[1]!.id)).toMatchObject({ outcome: 'approved' });
  });
});

describe('one-click charges and the saved card itself', () => {
  it('a one-click charge needs no security code, follows the merchant’s 3-D Secure, and is not an MIT', async () => {
    await updateThreeDs(fixture.db.prisma, ALL, {
      merchantCode: fixture.merchant.code,
      setting: { mode: 'ALWAYS', overAmount: null },
    });
    const { cardId } = await savedCard();
    const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest(cardId, {}));
    expect(reply.transaction.state).toBe('AUTORIZADO');
    expect(reply.transaction.additional_fields).toMatchObject({
      stored_credential: { card_id: cardId, initiator: 'CUSTOMER', usage: 'SUBSEQUENT', reason: 'ONE_CLICK', nti_sent: false },
      three_ds: { status: 'Y' },
    });
    expect((await cardRow(cardId)).mitCount).toBe(0);
    // A security code of the wrong length for the saved card's brand is 400 10.
    expect(
      (await failure(() => authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest(cardId, { security_code: '1234' }))))
        .kind,
    ).toBe('VALIDATION');
  });

  it('a removed card, another merchant’s or an unknown one is 404 30, and registers nothing', async () => {
    const { cardId, customerId } = await savedCard();
    const other = await testMerchant(fixture.db.prisma, `MITX${Date.now().toString(36).toUpperCase()}`);
    const otherRequest = { ...cardRequest(cardId, {}), merchant_code: other.code };
    expect((await failure(() => authorizeCharge(fixture.db.prisma, other, otherRequest))).kind).toBe('NOT_FOUND');
    expect(
      (await failure(() => authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest('no-such-card', {})))).kind,
    ).toBe('NOT_FOUND');
    await removeCard(fixture.db.prisma, fixture.merchant, customerId, cardId);
    const request = cardRequest(cardId, { initiator: 'MERCHANT', reason: 'RECURRING' });
    expect((await failure(() => authorizeCharge(fixture.db.prisma, fixture.merchant, request))).kind).toBe('NOT_FOUND');
    expect(
      await fixture.db.prisma.operation.count({ where: { merchantOperationNumber: request.merchant_operation_number } }),
    ).toBe(0);
  });

  it('a charge answered before and asked again once its card is removed is its stored answer; another request is 404 30', async () => {
    const { cardId, customerId } = await savedCard();
    const request = cardRequest(cardId, { initiator: 'MERCHANT', reason: 'RECURRING' });
    const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
    expect(reply.transaction.state).toBe('AUTORIZADO');
    await removeCard(fixture.db.prisma, fixture.merchant, customerId, cardId);
    expect(await authorizeCharge(fixture.db.prisma, fixture.merchant, request)).toEqual(reply);
    const changed = { ...request, payment_details: { ...request.payment_details, amount: '4000' } };
    expect((await failure(() => authorizeCharge(fixture.db.prisma, fixture.merchant, changed))).kind).toBe('NOT_FOUND');
    expect(await attemptsOf(request.merchant_operation_number)).toHaveLength(1);
    expect((await cardRow(cardId)).mitCount).toBe(1);
  });

  it('read in one statement with its merchant’s charge of it, another merchant’s charge of a card is still 404 30', async () => {
    const { cardId } = await savedCard();
    const other = await testMerchant(fixture.db.prisma, `MITY${Date.now().toString(36).toUpperCase()}`);
    const reads = vi.spyOn(fixture.db.prisma, '$queryRaw');
    const [own, others, upperCase] = await Promise.allSettled([
      authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest(cardId, {})),
      authorizeCharge(fixture.db.prisma, other, { ...cardRequest(cardId, {}), merchant_code: other.code }),
      authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest(cardId.toUpperCase(), {})),
    ]);
    // The three cards' reads were one statement (the first the charges sent).
    const texts = reads.mock.calls.map(([strings]) => (strings as readonly string[]).join('?'));
    expect(texts[0]).toContain('AS wanted(id)');
    expect(texts.filter((text) => text.includes('AS wanted(id)'))).toHaveLength(1);
    reads.mockRestore();
    expect(own.status === 'fulfilled' && own.value.transaction.state).toBe('AUTORIZADO');
    expect(others.status === 'rejected' && (others.reason as AppError).kind).toBe('NOT_FOUND');
    expect(upperCase.status === 'fulfilled' && upperCase.value.transaction.state).toBe('AUTORIZADO');
  });

  it('reads the card with one plan for every charge, not one planned per charge', async () => {
    const { cardId } = await savedCard();
    for (let charge = 0; charge < 8; charge += 1) {
      const reply = await authorizeCharge(fixture.db.prisma, fixture.merchant, cardRequest(cardId, {}));
      expect(reply.transaction.state).toBe('AUTORIZADO');
    }
    // PostgreSQL plans a prepared statement's first five runs for their values, then keeps its
    // generic plan when that is estimated no dearer; the embedded database has one session.
    const reads = await fixture.db.prisma.$queryRaw<{ generic_plans: bigint; custom_plans: bigint }[]>`
      SELECT generic_plans, custom_plans FROM pg_prepared_statements
       WHERE statement LIKE '%AS wanted(id)%' AND statement NOT LIKE '%pg_prepared_statements%'`;
    expect(reads).toHaveLength(1);
    const [read] = reads;
    expect(read!.custom_plans).toBeLessThanOrEqual(5n);
    expect(read!.generic_plans).toBeGreaterThanOrEqual(3n);
  });

  it('the request names a new card or a saved one, never both or neither; an MIT carries no security code', () => {
    const base = chargeRequest('M1', 'x-1', 'CARD');
    const withDetails = (details: Record<string, unknown>) =>
      chargeSchema.safeParse({ ...base, payment_method: { method_name: 'CARD', method_details: details } });
    const fields = (details: Record<string, unknown>) => {
      const parsed = withDetails(details);
      return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
    };
    const card = { pan: '4111111111111111', expiry_date: '1230', security_code: '123' };
    expect(fields(card)).toEqual([]);
    expect(fields({ card_id: 'c1' })).toEqual([]);
    expect(fields({ card_id: 'c1', initiator: 'MERCHANT', reason: 'RECURRING' })).toEqual([]);
    expect(fields({ ...card, card_id: 'c1' })).toEqual([
      'payment_method.method_details.pan',
      'payment_method.method_details.expiry_date',
    ]);
    expect(fields({})).toEqual([
      'payment_method.method_details.pan',
      'payment_method.method_details.expiry_date',
      'payment_method.method_details.security_code',
    ]);
    expect(fields({ card_id: 'c1', initiator: 'MERCHANT', reason: 'RECURRING', security_code: '123' })).toEqual([
      'payment_method.method_details.security_code',
    ]);
    expect(fields({ card_id: 'c1', initiator: 'MERCHANT' })).toEqual(['payment_method.method_details.reason']);
    expect(fields({ card_id: 'c1', reason: 'RECURRING' })).toEqual(['payment_method.method_details.reason']);
    expect(fields({ ...card, initiator: 'CUSTOMER' })).toEqual(['payment_method.method_details.initiator']);
  });
});
