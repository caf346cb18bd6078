import { describe, expect, it } from 'vitest';
import { consoleCallerOf, refusal, sessionAs, testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import { createCustomer } from '@/server/modules/customers/customers';
import { saveCard } from '@/server/modules/customers/save-card';

// The console's customers (docs/DECISIONS.md "Card on file"): each role in its scope, a search by
// customer id, e-mail or last 4, and a card removed only by those who act for the merchant.
const fixture = withTestMerchant('CCUS');

async function customerWithCard(merchant: typeof fixture.merchant, id: string, pan: string) {
  const { customer } = await createCustomer(fixture.db.prisma, merchant, {
    merchant_code: merchant.code,
    merchant_customer_id: id,
    email: `${id}@example.pe`,
  });
  const { row } = await fixture.db.prisma.$transaction((tx) =>
    saveCard(tx, {
      merchant,
      customerId: customer.customer_id,
      pan,
      expiryDate: '1230',
      currency: '604',
      reason: 'RECURRING',
      consent: { acceptedAt: new Date('2026-12-01T10:00:00Z'), termsVersion: 'v1', maxAmount: null, installments: null },
      savedByTransactionId: null,
      nti: null,
    }),
  );
  return { customerId: customer.customer_id, cardId: row.id };
}

describe('console customers', () => {
  it('finds customers by id, e-mail or last 4 within the scope; another merchant’s is not found', async () => {
    const own = await customerWithCard(fixture.merchant, 'ana-77', '5555555555554444');
    const other = await testMerchant(fixture.db.prisma, 'CCUSX');
    const theirs = await customerWithCard(other, 'ana-78', '4111111111111111');
    const viewer = consoleCallerOf(fixture.db.prisma, sessionAs('MERCHANT_VIEWER', fixture.merchant.id));
    for (const q of ['ana-77', 'ANA-77@EXAMPLE', '4444']) {
      expect((await viewer.console.customers({ q })).customers.map((each) => each.customerId)).toEqual([own.customerId]);
    }
    expect((await viewer.console.customers({ q: 'ana-78' })).customers).toEqual([]);
    expect(await refusal(() => viewer.console.customerDetail({ customerId: theirs.customerId }))).toBe('NOT_FOUND');
    // Support staff see every merchant's.
    const support = consoleCallerOf(fixture.db.prisma, sessionAs('SUPPORT'));
    expect((await support.console.customers({ q: 'ana-7' })).customers.map((each) => each.merchantCode).sort()).toEqual([
      'CCUS',
      'CCUSX',
    ]);
    const detail = await viewer.console.customerDetail({ customerId: own.customerId });
    expect(detail.cards).toMatchObject([{ cardId: own.cardId, status: 'ACTIVE', last4: '4444', ntiKept: false, tokensAt: [] }]);
  });

  it('a viewer or support cannot remove a card; an admin can, and the card is REMOVED with its number destroyed', async () => {
    const { customerId, cardId } = await customerWithCard(fixture.merchant, 'luis-1', '4111111111111111');
    for (const role of ['MERCHANT_VIEWER', 'SUPPORT'] as const) {
      const caller = consoleCallerOf(fixture.db.prisma, sessionAs(role, role === 'SUPPORT' ? null : fixture.merchant.id));
      expect(await refusal(() => caller.console.removeSavedCard({ customerId, cardId }))).toBe('FORBIDDEN');
    }
    const admin = consoleCallerOf(fixture.db.prisma, sessionAs('MERCHANT_ADMIN', fixture.merchant.id));
    expect(await admin.console.removeSavedCard({ customerId, cardId })).toEqual({ cardId, status: 'REMOVED' });
    const card = await fixture.db.prisma.savedCard.findUniqueOrThrow({ where: { id: cardId } });
    expect([card.status, card.vaultId, card.fingerprint]).toEqual(['REMOVED', null, null]);
  });
});
