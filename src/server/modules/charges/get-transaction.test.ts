import { describe, expect, it } from 'vitest';
import { chargeRequest, refusal, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from './authorize-charge';
import { getTransaction } from './get-transaction';
import { toOperationObject, transactionSelect } from './transaction-view';

// GET transaction reads the operation in one hand-written statement; the ORM's select
// (transactionSelect), which the charge's own answer and the callbacks use, is the reference:
// a column added to one and not the other fails here.
const fixture = withTestMerchant('GETTX');

async function throughTheOrm(operationNumber: string) {
  const rows = await fixture.db.prisma.transaction.findMany({
    where: { operation: { merchantId: fixture.merchant.id, merchantOperationNumber: operationNumber } },
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
    const reply = await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      chargeRequest(fixture.merchant.code, operationNumber, method),
    );
    expect(reply.transaction.state).toBe(state);
    const id = reply.transaction.transaction_id;
    const answer = await getTransaction(fixture.db.prisma, fixture.merchant, operationNumber, id.toUpperCase());
    expect(answer.operation).toEqual(await throughTheOrm(operationNumber));
    expect(answer.operation.transactions.map((transaction) => transaction.lifecycle.length)).toEqual([
      reply.transaction.lifecycle.length,
    ]);
  });

  it("is not found for another operation's transaction, an unknown operation and a non-UUID", async () => {
    const first = await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      chargeRequest(fixture.merchant.code, 'get-a', 'CARD'),
    );
    await authorizeCharge(fixture.db.prisma, fixture.merchant, chargeRequest(fixture.merchant.code, 'get-b', 'CARD'));
    const id = first.transaction.transaction_id;
    expect(await refusal(() => getTransaction(fixture.db.prisma, fixture.merchant, 'get-b', id))).toBe('NOT_FOUND');
    expect(await refusal(() => getTransaction(fixture.db.prisma, fixture.merchant, 'get-none', id))).toBe('NOT_FOUND');
    expect(await refusal(() => getTransaction(fixture.db.prisma, fixture.merchant, 'get-a', 'not-a-uuid'))).toBe('NOT_FOUND');
  });
});
