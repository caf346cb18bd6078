import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargeRequest,
  openTestDatabase,
  SETUP_TIMEOUT,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { abandonPayment, payPayment } from './payer-actions';

// The payer page's actions with tokens that name no payment (the fuzz suite's finds).
let db: TestDatabase;
let token: string;
let transactionId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  const merchant = await testMerchant(db.prisma, 'PAYER');
  transactionId = (await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, 'qr-1', 'QR'))).transaction
    .transaction_id;
  token = (await db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } })).payerToken!;
}, SETUP_TIMEOUT);

afterAll(() => db.close());

describe('payer actions', () => {
  it('find no payment for a token of another shape, a NUL in it included (it was a 500 from PostgreSQL)', async () => {
    for (const other of [`${token}\u0000`, `\u0000${token}`, 'short', `${token}!`, 'x'.repeat(65)]) {
      expect(await payPayment(db.prisma, other)).toEqual({ kind: 'not_found' });
      expect(await abandonPayment(db.prisma, other)).toEqual({ kind: 'not_found' });
    }
    const stored = await db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    expect(stored.state).toBe('PENDIENTE');
  });

  it('still move the payment its token names', async () => {
    expect(await abandonPayment(db.prisma, token)).toEqual({ kind: 'moved', state: 'CANCELADO' });
  });
});
