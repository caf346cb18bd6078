import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargeRequest,
  openTestDatabase,
  refusal,
  SETUP_TIMEOUT,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { authorizeCharge } from './authorize-charge';
import { getTransaction } from './get-transaction';
import { toOperationObject, transactionSelect } from './transaction-view';

// GET transaction reads the operation in one hand-written statement; the ORM's select
// (transactionSelect), which the charge's own answer and the callbacks use, is the reference:
// a column added to one and not the other fails here.
let db: TestDatabase;
let merchant: ActingMerchant;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await testMerchant(db.prisma, 'GETTX');
}, SETUP_TIMEOUT);

afterAll(() => db?.close());

async function throughTheOrm(operationNumber: string) {
  const rows = await db.prisma.transaction.findMany({
    where: { operation: { merchantId: merchant.id, merchantOperationNumber: operationNumber } },
    select: transactionSelect,
    orderBy: { attempt: 'asc' },
  });
  return toOperationObject(operationNumber, rows, 'millis', true);
}

describe('GET transaction', () => {
  it.each([
    ['an approved CARD', 'CARD', 'AUTORIZADO'],
    ['a pending QR (expiration, processor response)', 'QR', 'PENDIENTE'],
  ] as const)('%s: the same operation the ORM reads', async (_case, method, state) => {
    const operationNumber = `get-${method}`;
    const reply = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, operationNumber, method));
    expect(reply.transaction.state).toBe(state);
    const id = reply.transaction.transaction_id;
    const answer = await getTransaction(db.prisma, merchant, operationNumber, id.toUpperCase());
    expect(answer.operation).toEqual(await throughTheOrm(operationNumber));
    expect(answer.operation.transactions.map((transaction) => transaction.lifecycle.length)).toEqual([
      reply.transaction.lifecycle.length,
    ]);
  });

  it("is not found for another operation's transaction, an unknown operation and a non-UUID", async () => {
    const first = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, 'get-a', 'CARD'));
    await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, 'get-b', 'CARD'));
    const id = first.transaction.transaction_id;
    expect(await refusal(() => getTransaction(db.prisma, merchant, 'get-b', id))).toBe('NOT_FOUND');
    expect(await refusal(() => getTransaction(db.prisma, merchant, 'get-none', id))).toBe('NOT_FOUND');
    expect(await refusal(() => getTransaction(db.prisma, merchant, 'get-a', 'not-a-uuid'))).toBe('NOT_FOUND');
  });
});
