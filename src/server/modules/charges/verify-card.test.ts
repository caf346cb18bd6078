import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import { AppError } from '@/server/core/domain/errors';
import { sandboxStoreFor } from '@/server/payments';
import { publishDraft, saveDraft, updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { createCustomer } from '@/server/modules/customers/customers';
import { verifyAndSaveCard } from './verify-card';

// Saving a card without a payment (docs/DECISIONS.md "Card on file") when processors fail: a
// verifier that cannot answer passes the card to the next one in routing order, and none left is
// 422 `42` with nothing saved. The sandbox acquirers verify for zero; their modes make them fail.
const fixture = withTestMerchant('VERIFY');
const ACQUIRERS = ['sandbox-acquirer-a', 'sandbox-acquirer-b'] as const;
let sequence = 0;

beforeEach(() =>
  updateThreeDs(
    fixture.db.prisma,
    { kind: 'all' },
    { merchantCode: fixture.merchant.code, setting: { mode: 'NEVER', overAmount: null } },
  ),
);
afterEach(async () => {
  for (const acquirer of ACQUIRERS) await sandboxStoreFor(fixture.db.prisma).setMode(acquirer, 'normal');
});

async function verify() {
  const { customer } = await createCustomer(fixture.db.prisma, fixture.merchant, {
    merchant_code: fixture.merchant.code,
    merchant_customer_id: `verify-${(sequence += 1)}`,
    email: 'ana@example.pe',
  });
  const request = {
    merchant_code: fixture.merchant.code,
    customer_id: customer.customer_id,
    pan: '4111111111111111',
    expiry_date: '1230',
    security_code: '123',
    currency: '604' as const,
    reason: 'RECURRING' as const,
    consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '9900' },
  };
  return { customerId: customer.customer_id, run: () => verifyAndSaveCard(fixture.db.prisma, fixture.merchant, request) };
}

const cardsOf = (customerId: string) => fixture.db.prisma.savedCard.count({ where: { customerId } });

describe('saving a card without a payment when verifiers fail', () => {
  it('moves on to the next verifier in routing order when the first cannot answer', async () => {
    await sandboxStoreFor(fixture.db.prisma).setMode('sandbox-acquirer-a', 'outage');
    const { customerId, run } = await verify();
    const { card } = await run();
    expect(card).toMatchObject({ status: 'ACTIVE', last4: '1111' });
    expect(await cardsOf(customerId)).toBe(1);
  });

  it('is 422 42 with nothing saved when no verifier can answer', async () => {
    for (const acquirer of ACQUIRERS) await sandboxStoreFor(fixture.db.prisma).setMode(acquirer, 'outage');
    const { customerId, run } = await verify();
    const vaulted = await fixture.db.prisma.vaultRecord.count();
    const error = await run().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe('METHOD_RULE');
    expect((error as AppError).message).toMatch(/no processor can verify this card/);
    expect(await cardsOf(customerId)).toBe(0);
    expect(await fixture.db.prisma.vaultRecord.count()).toBe(vaulted);
  });

  it('is 422 42 without asking further when the first verifier declines', async () => {
    await sandboxStoreFor(fixture.db.prisma).setMode('sandbox-acquirer-a', 'declining');
    const { customerId, run } = await verify();
    const error = await run().then(
      () => null,
      (caught: unknown) => caught,
    );
    expect((error as AppError).message).toMatch(/the issuer declined the card/);
    expect(await cardsOf(customerId)).toBe(0);
  });
});

describe("the verifier follows the merchant's rule", () => {
  it('asks a route whose conditions hold for the card first, and skips one whose conditions do not', async () => {
    const merchant = await testMerchant(fixture.db.prisma, `VRULE${Date.now()}`);
    const scope = { kind: 'one' as const, merchantId: merchant.id };
    await updateThreeDs(
      fixture.db.prisma,
      { kind: 'all' },
      { merchantCode: merchant.code, setting: { mode: 'NEVER', overAmount: null } },
    );
    // B, which declines everything, carries only Mastercard under the rule; A approves.
    await saveDraft(
      fixture.db.prisma,
      scope,
      { method: 'CARD', routes: [{ connector: 'sandbox-acquirer-b', priority: 1, conditions: { brands: ['MASTERCARD'] } }] },
      'test',
    );
    await publishDraft(fixture.db.prisma, scope, { method: 'CARD' });
    await sandboxStoreFor(fixture.db.prisma).setMode('sandbox-acquirer-b', 'declining');
    const verifyAt = async (pan: string) => {
      const { customer } = await createCustomer(fixture.db.prisma, merchant, {
        merchant_code: merchant.code,
        merchant_customer_id: `rule-${(sequence += 1)}`,
        email: 'ana@example.pe',
      });
      return verifyAndSaveCard(fixture.db.prisma, merchant, {
        merchant_code: merchant.code,
        customer_id: customer.customer_id,
        pan,
        expiry_date: '1230',
        security_code: '123',
        currency: '604',
        reason: 'RECURRING',
        consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '9900' },
      }).then(
        ({ card }) => card.status,
        (caught: unknown) => (caught as AppError).message,
      );
    };
    // A Visa card: the rule's route does not hold, the platform's order asks A, which approves.
    expect(await verifyAt('4111111111111111')).toBe('ACTIVE');
    // A Mastercard: the rule's route holds, B is asked first and declines.
    expect(await verifyAt('5555555555554444')).toMatch(/the issuer declined the card/);
  });
});
