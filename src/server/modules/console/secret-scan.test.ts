import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengePayment } from '@tests/support/challenge-payment';
import { openTestDatabase, SETUP_TIMEOUT, testMerchant, type TestDatabase } from '@tests/support/procedure-test-support';
import { secretScan } from './secret-scan';

// The table scan covers the vault (docs/DECISIONS.md "The vault"): it reads vault_records' bytea
// columns, where a challenge's card is too, and finds nothing there because the card is
// encrypted; a card kept in clear is found.
let db: TestDatabase;
let merchantId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  merchantId = (await testMerchant(db.prisma, 'SCAN')).id;
}, SETUP_TIMEOUT);

afterAll(() => db.close());

describe('secret scan of the tables', () => {
  it('scans the card vault and reports no vaulted card', async () => {
    const payment = await challengePayment(db.prisma, merchantId);
    expect(await db.prisma.cardVaultEntry.count()).toBe(1);
    const scan = await secretScan(db.prisma, { PAN: [payment.card.pan] });
    const vaultColumns = await db.prisma.$queryRaw<{ column_name: string }[]>`
      SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = 'card_vault' AND data_type = 'bytea' ORDER BY column_name`;
    expect(vaultColumns).toEqual([]);
    expect(scan.findings).toEqual([]);
  });

  it('would report a card kept in clear in the vault', async () => {
    const payment = await challengePayment(db.prisma, merchantId, { pan: '4000000000003063' });
    const { vaultId } = await db.prisma.cardVaultEntry.findUniqueOrThrow({ where: { transactionId: payment.transactionId } });
    await db.prisma.vaultRecord.update({
      where: { id: vaultId },
      data: { ciphertext: new Uint8Array(Buffer.from(JSON.stringify(payment.card))) },
    });
    const scan = await secretScan(db.prisma, { PAN: [payment.card.pan] });
    expect(scan.findings).toContainEqual(expect.objectContaining({ where: 'vault_records', column: 'ciphertext', kind: 'PAN' }));
    await db.prisma.vaultRecord.delete({ where: { id: vaultId } });
  });
});
