import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { DEMO_CUSTOMER, seedDemo } from './seed-demo';

// The demo's seed (README's first command): stable across restarts, with a customer whose card is
// saved for monthly charges, so the README's walk can charge it by MIT at once.
const fixture = withTestDatabase();

describe('the demo seed', () => {
  it('makes the merchant, its customer and one saved card with an NTI once, however often it runs', async () => {
    const { prisma } = fixture.db;
    const first = await seedDemo(prisma);
    const again = await seedDemo(prisma);
    expect(again).toEqual(first);
    expect(first.customer.cardId).not.toBeNull();
    const cards = await prisma.savedCard.findMany({ where: { customer: { merchantCustomerId: DEMO_CUSTOMER } } });
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ id: first.customer.cardId, status: 'ACTIVE', reason: 'RECURRING', last4: '1111' });
    expect(cards[0]!.initialNti).toMatch(/^[0-9]{15}$/);
  });
});
