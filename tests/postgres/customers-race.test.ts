import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { createCustomer } from '@/server/modules/customers/customers';
import { saveCard } from '@/server/modules/customers/save-card';
import { deleteRetiredCardTokens, keepCardToken } from '@/server/modules/customers/card-tokens';
import type { PaymentConnector } from '@/server/payments';
import type * as Connectors from '@/server/modules/processors/connectors';
import { testMerchant } from '@tests/support/procedure-test-support';

// Customers and saved cards on two PostgreSQL sessions at once (docs/DECISIONS.md "Card on
// file"): one customer per merchant_customer_id and one ACTIVE card per PAN, however many
// requests race, and none of them fails; a processor's token that another replaces is retired
// for deletion however the replacements interleave, and deleted at its processor once however
// many workers run.

/** The processor of the race's tokens: each deletion asked of it, answered a little later. */
const processor = vi.hoisted(() => ({ deletions: [] as string[] }));
vi.mock('@/server/modules/processors/connectors', async (importOriginal) => ({
  ...(await importOriginal<typeof Connectors>()),
  connectorById: async (_db: unknown, id: string) =>
    id === 'culqi-race'
      ? ({
          deleteCardToken: async ({ token }: { token: string }) => {
            processor.deletions.push(token);
            await new Promise((resolve) => setTimeout(resolve, 20));
            return { outcome: 'deleted' };
          },
        } as unknown as PaymentConnector)
      : null,
}));
let handles: DatabaseHandle[];
let clients: [PrismaClient, PrismaClient];
let merchant: ActingMerchant;

beforeAll(async () => {
  handles = await Promise.all([1, 2].map(() => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, pgliteDir: '' })));
  await deployMigrations(handles[0]!.factory);
  clients = handles.map((handle) => new PrismaClient({ adapter: handle.factory })) as [PrismaClient, PrismaClient];
  merchant = await testMerchant(clients[0], `CUSRACE${Date.now().toString(36).toUpperCase()}`);
});

afterAll(async () => {
  await Promise.all(clients?.map((client) => client.$disconnect()) ?? []);
  await Promise.all(handles?.map((handle) => handle.close()) ?? []);
});

/** A ONE_CLICK card of the customer's, as a save without a payment makes it. */
const savedCardOf = (customerId: string, pan: string) => ({
  merchant,
  customerId,
  pan,
  expiryDate: '1230',
  currency: '604',
  reason: 'ONE_CLICK' as const,
  consent: { acceptedAt: new Date(), termsVersion: 'v1', maxAmount: null, installments: null },
  savedByTransactionId: null,
  nti: null,
});

/** A new customer's ONE_CLICK card (its row). */
async function customerWithCard(merchantCustomerId: string, pan: string) {
  const { customer } = await createCustomer(clients[0], merchant, {
    merchant_code: merchant.code,
    merchant_customer_id: merchantCustomerId,
    email: 'r@example.pe',
  });
  const { row } = await clients[0].$transaction((tx) => saveCard(tx, savedCardOf(customer.customer_id, pan)));
  return row;
}

describe('on two sessions at once', () => {
  it('ten POSTs of one merchant_customer_id make one customer, and each answers it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        createCustomer(clients[index % 2]!, merchant, {
          merchant_code: merchant.code,
          merchant_customer_id: 'race-1',
          email: `r${index}@example.pe`,
        }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.customer.customer_id)).size).toBe(1);
    expect(await clients[0].customer.count({ where: { merchantId: merchant.id, merchantCustomerId: 'race-1' } })).toBe(1);
  });

  it('six saves of one PAN make one card: one saved, the others updated it', async () => {
    const { customer } = await createCustomer(clients[0], merchant, {
      merchant_code: merchant.code,
      merchant_customer_id: 'race-2',
      email: 'r@example.pe',
    });
    const saved = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        clients[index % 2]!.$transaction((tx) => saveCard(tx, savedCardOf(customer.customer_id, '4111111111111111'))),
      ),
    );
    expect(new Set(saved.map((each) => each.row.id)).size).toBe(1);
    expect(saved.filter((each) => each.created)).toHaveLength(1);
    expect(await clients[0].savedCard.count({ where: { customerId: customer.customer_id } })).toBe(1);
    // Each update replaced the vault record: one left, the card's.
    expect(await clients[0].vaultRecord.count({ where: { card: { customerId: customer.customer_id } } })).toBe(1);
  });

  it('six tokens of one card at one processor kept at once: the last one stays, the five it replaced are retired once each', async () => {
    const row = await customerWithCard('race-3', '5111111111111118');
    const tokens = Array.from({ length: 6 }, (_, index) => `crd_race_${index}`);
    await Promise.all(
      tokens.map((token, index) =>
        keepCardToken(clients[index % 2]!, row.id, { connectorId: 'culqi-race', token, processorCustomerId: 'cus_race' }),
      ),
    );
    const [kept] = await clients[0].processorCardToken.findMany({ where: { cardId: row.id }, select: { token: true } });
    const retired = await clients[0].retiredCardToken.findMany({ where: { cardId: row.id }, select: { token: true } });
    expect(retired.map((each) => each.token).sort()).toEqual(tokens.filter((token) => token !== kept!.token).sort());
  });

  it('two workers deleting the retired tokens at once ask the processor for each deletion once', async () => {
    const row = await customerWithCard('race-4', '4012888888881881');
    // The tokens the tests before retired go first, so that only this card's are left.
    await deleteRetiredCardTokens(clients[0]);
    const tokens = Array.from({ length: 9 }, (_, index) => `crd_gone_${index}`);
    for (const token of tokens) {
      await keepCardToken(clients[0], row.id, { connectorId: 'culqi-race', token, processorCustomerId: 'cus_race' });
    }
    const retired = tokens.slice(0, -1);
    expect(await clients[0].retiredCardToken.count()).toBe(retired.length);
    processor.deletions.length = 0;
    const forgotten = await Promise.all(clients.map((client) => deleteRetiredCardTokens(client)));
    // Each worker took some of them, and no token was asked of the processor twice.
    expect(forgotten.every((count) => count > 0)).toBe(true);
    expect(forgotten.reduce((sum, count) => sum + count, 0)).toBe(retired.length);
    expect([...processor.deletions].sort()).toEqual([...retired].sort());
    expect(await clients[0].retiredCardToken.count({ where: { cardId: row.id } })).toBe(0);
  });
});
