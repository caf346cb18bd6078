import { describe, expect, it } from 'vitest';
import { refusal, testMerchant, withTestMerchant } from '@tests/support/procedure-test-support';
import { createCustomer, getCustomer, removeCard } from './customers';
import { saveCard, type CardToSave } from './save-card';
import { cardInVault } from '@tests/support/vault-records';

// Customers and saved cards on a real embedded database (docs/DECISIONS.md "Card on file").
const fixture = withTestMerchant('CUST');

const PAN = '4111111111111111';
const consent = { acceptedAt: new Date('2026-12-01T10:00:00Z'), termsVersion: 'v1', maxAmount: 5000n, installments: null };

async function newCustomer(id: string) {
  const { customer } = await createCustomer(fixture.db.prisma, fixture.merchant, {
    merchant_code: fixture.merchant.code,
    merchant_customer_id: id,
    email: `${id}@example.pe`,
  });
  return customer;
}

function save(customerId: string, change: Partial<CardToSave> = {}) {
  return fixture.db.prisma.$transaction((tx) =>
    saveCard(tx, {
      merchant: fixture.merchant,
      customerId,
      pan: PAN,
      expiryDate: '1230',
      currency: '604',
      reason: 'RECURRING',
      consent,
      savedByTransactionId: null,
      nti: 'NTI-FIRST',
      ...change,
    }),
  );
}

const eventsOf = (cardId: string) =>
  fixture.db.prisma.outboxEvent.findMany({ where: { aggregateId: cardId }, orderBy: { seq: 'asc' } });

describe('customers', () => {
  it('one per merchant_customer_id: a second POST answers it, with the fields it sent replaced and the others kept', async () => {
    const { prisma } = fixture.db;
    const first = await createCustomer(prisma, fixture.merchant, {
      merchant_code: fixture.merchant.code,
      merchant_customer_id: 'ana-1',
      email: 'ana@example.pe',
      first_name: 'Ana',
      phone: { country_code: '+51', subscriber: '987654321' },
    });
    const second = await createCustomer(prisma, fixture.merchant, {
      merchant_code: fixture.merchant.code,
      merchant_customer_id: 'ana-1',
      email: 'ana.quispe@example.pe',
      last_name: 'Quispe',
    });
    expect(second.customer).toEqual({
      ...first.customer,
      email: 'ana.quispe@example.pe',
      last_name: 'Quispe',
    });
    expect(second.customer.first_name).toBe('Ana');
    expect(await prisma.customer.count({ where: { merchantCustomerId: 'ana-1' } })).toBe(1);
  });

  it("another merchant's customer or card is not found, as an unknown one", async () => {
    const customer = await newCustomer('luis');
    const { row } = await save(customer.customer_id);
    const other = await testMerchant(fixture.db.prisma, 'CUSTX');
    expect(await refusal(() => getCustomer(fixture.db.prisma, other, customer.customer_id))).toBe('NOT_FOUND');
    expect(await refusal(() => getCustomer(fixture.db.prisma, fixture.merchant, 'not-a-uuid'))).toBe('NOT_FOUND');
    expect(await refusal(() => removeCard(fixture.db.prisma, other, customer.customer_id, row.id))).toBe('NOT_FOUND');
    const stranger = await newCustomer('stranger');
    expect(await refusal(() => removeCard(fixture.db.prisma, fixture.merchant, stranger.customer_id, row.id))).toBe('NOT_FOUND');
  });
});

describe('saved cards', () => {
  it('one per PAN and customer: saving it again answers the same card with the new expiry and consent', async () => {
    const customer = await newCustomer('rosa');
    const first = await save(customer.customer_id);
    const again = await save(customer.customer_id, {
      expiryDate: '1131',
      consent: { ...consent, termsVersion: 'v2' },
      nti: 'NTI-LATER',
    });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, row: { id: first.row.id, expiryDate: '1131', consentTermsVersion: 'v2' } });
    const stored = await fixture.db.prisma.savedCard.findUniqueOrThrow({ where: { id: first.row.id } });
    expect([stored.initialNti, stored.latestNti]).toEqual(['NTI-FIRST', 'NTI-LATER']);
    expect(await cardInVault(fixture.db.prisma, stored.vaultId!)).toEqual({ pan: PAN, expiryDate: '1131' });
    // The record of the old expiry is gone, not left behind.
    expect(await fixture.db.prisma.vaultRecord.count({ where: { card: { customerId: customer.customer_id } } })).toBe(1);
    expect((await eventsOf(first.row.id)).map((event) => event.type)).toEqual(['card.saved', 'card.updated']);
    // Another customer gets a card of its own.
    const other = await newCustomer('rosa-2');
    expect((await save(other.customer_id)).row.id).not.toBe(first.row.id);
  });

  it('two saves of one PAN at once make one card', async () => {
    const customer = await newCustomer('pedro');
    const saved = await Promise.all([save(customer.customer_id), save(customer.customer_id), save(customer.customer_id)]);
    expect(new Set(saved.map((each) => each.row.id)).size).toBe(1);
    expect(saved.filter((each) => each.created)).toHaveLength(1);
    expect(await fixture.db.prisma.savedCard.count({ where: { customerId: customer.customer_id } })).toBe(1);
  });

  it('removing destroys the number (its vault record and fingerprint), keeps brand, BIN, last 4 and dates, and answers the same twice', async () => {
    const { prisma } = fixture.db;
    const customer = await newCustomer('maria');
    const { row } = await save(customer.customer_id);
    const vaultId = (await prisma.savedCard.findUniqueOrThrow({ where: { id: row.id } })).vaultId!;
    const removed = await removeCard(prisma, fixture.merchant, customer.customer_id, row.id);
    expect(removed.card).toMatchObject({ card_id: row.id, status: 'REMOVED', bin: '411111', last4: '1111', brand: 'VISA' });
    expect(removed.card.removed_at).not.toBeNull();
    expect(await prisma.vaultRecord.findUnique({ where: { id: vaultId } })).toBeNull();
    const stored = await prisma.savedCard.findUniqueOrThrow({ where: { id: row.id } });
    expect([stored.fingerprint, stored.vaultId]).toEqual([null, null]);
    expect(await removeCard(prisma, fixture.merchant, customer.customer_id, row.id)).toEqual(removed);
    const events = await eventsOf(row.id);
    expect(events.map((event) => [event.type, event.status, event.callbackUrl])).toEqual([
      ['card.saved', 'SKIPPED', null],
      ['card.removed', 'SKIPPED', null],
    ]);
    expect(JSON.stringify(events.map((event) => event.payload))).not.toContain(PAN.slice(6));
    // The same PAN saved again is a new card.
    const resaved = await save(customer.customer_id);
    expect(resaved).toMatchObject({ created: true });
    expect(resaved.row.id).not.toBe(row.id);
    // ACTIVE first.
    const listed = await getCustomer(prisma, fixture.merchant, customer.customer_id);
    expect(listed.cards.map((card) => [card.card_id, card.status])).toEqual([
      [resaved.row.id, 'ACTIVE'],
      [row.id, 'REMOVED'],
    ]);
  });
});
