import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengePayment, vaultChallengeCard } from '@tests/support/challenge-payment';
import { withTestMerchant } from '@tests/support/procedure-test-support';
import { parseSealingKeys } from '@/env';
import { keyRing } from '@/server/platform/security/sealed-box';
import { vaultPlaintext } from '@tests/support/vault-records';
import { vaultKeys } from '@/server/platform/security/vault-keys';
import { dropExpiredCards, dropVaultedCard, readVaultedCard, takeVaultedCard } from './card-vault';

// The cards of payments waiting for their challenge (docs/ORCHESTRATION.md 5), in the one vault
// (customers/vault.ts), on a real embedded database with the test key file.
const fixture = withTestMerchant('VAULT');
const prisma = () => fixture.db.prisma;

const recordOf = async (transactionId: string) => {
  const entry = await prisma().cardVaultEntry.findUniqueOrThrow({ where: { transactionId } });
  return prisma().vaultRecord.findUniqueOrThrow({ where: { id: entry.vaultId } });
};

describe('a challenge card in the vault', () => {
  it('is a vault record of its own holding the PAN and expiry only: no security code, no bytes in card_vault', async () => {
    const payment = await challengePayment(prisma(), fixture.merchant.id);
    const record = await recordOf(payment.transactionId);
    expect(record.kekId).toBe(vaultKeys().ring.current.kid);
    expect(vaultPlaintext(record)).toEqual({ pan: payment.card.pan, expiry_date: payment.card.expiryDate });
    const everything = Buffer.concat([record.keyIv, record.wrappedKey, record.keyTag, record.iv, record.ciphertext, record.tag]);
    for (const secret of [payment.card.pan, payment.card.pan.slice(-8)])
      expect(everything.includes(Buffer.from(secret))).toBe(false);
    const columns = await prisma().$queryRaw<{ column_name: string }[]>`
      SELECT column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = 'card_vault' ORDER BY column_name`;
    expect(columns.map((each) => each.column_name)).toEqual([
      'expires_at',
      'held_connector',
      'held_token',
      'transaction_id',
      'vault_id',
    ]);
  });

  it('gives the card and its held token to its transaction once: take opens and destroys the record', async () => {
    const held = { connectorId: 'culqi-test', token: 'tkn_test_held0001' };
    const payment = await challengePayment(prisma(), fixture.merchant.id, { held });
    const { id } = await recordOf(payment.transactionId);
    const expected = { pan: payment.card.pan, expiryDate: payment.card.expiryDate, held };
    expect(await readVaultedCard(prisma(), payment.transactionId)).toEqual(expected);
    expect(await takeVaultedCard(prisma(), payment.transactionId)).toEqual(expected);
    expect(await prisma().cardVaultEntry.count({ where: { transactionId: payment.transactionId } })).toBe(0);
    expect(await prisma().vaultRecord.count({ where: { id } })).toBe(0);
    expect(await takeVaultedCard(prisma(), payment.transactionId)).toBeNull();
    expect(await readVaultedCard(prisma(), payment.transactionId)).toBeNull();
  });

  it('gives one of three concurrent takes the card', async () => {
    const payment = await challengePayment(prisma(), fixture.merchant.id);
    const taken = await Promise.all([1, 2, 3].map(() => takeVaultedCard(prisma(), payment.transactionId)));
    expect(taken.filter((card) => card !== null)).toEqual([
      { pan: payment.card.pan, expiryDate: payment.card.expiryDate, held: null },
    ]);
  });

  it('refuses an altered record without card data in the error, and a take destroys it all the same', async () => {
    const payment = await challengePayment(prisma(), fixture.merchant.id);
    const record = await recordOf(payment.transactionId);
    const flipped = new Uint8Array(record.ciphertext);
    flipped[0] = flipped[0]! ^ 1;
    await prisma().vaultRecord.update({ where: { id: record.id }, data: { ciphertext: flipped } });
    const error = await readVaultedCard(prisma(), payment.transactionId).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/does not decrypt/);
    expect((error as Error).message).not.toContain(payment.card.pan);
    await expect(takeVaultedCard(prisma(), payment.transactionId)).rejects.toThrow(/does not decrypt/);
    expect(await prisma().vaultRecord.count({ where: { id: record.id } })).toBe(0);
  });

  it("drops a cancelled payment's card with its record, and every card past its expiry", async () => {
    const cancelled = await challengePayment(prisma(), fixture.merchant.id);
    const { id } = await recordOf(cancelled.transactionId);
    expect(await dropVaultedCard(prisma(), cancelled.transactionId)).toBe(true);
    expect(await prisma().vaultRecord.count({ where: { id } })).toBe(0);
    expect(await dropVaultedCard(prisma(), cancelled.transactionId)).toBe(false);
    expect(await dropVaultedCard(prisma(), 'not-a-uuid')).toBe(false);

    const now = new Date();
    const expired = await challengePayment(prisma(), fixture.merchant.id, { expiresAt: new Date(now.getTime() - 1000) });
    const live = await challengePayment(prisma(), fixture.merchant.id, { expiresAt: new Date(now.getTime() + 60_000) });
    expect(await readVaultedCard(prisma(), expired.transactionId)).toBeNull();
    expect(await dropExpiredCards(prisma(), now)).toBeGreaterThanOrEqual(1);
    expect(await prisma().cardVaultEntry.count({ where: { transactionId: expired.transactionId } })).toBe(0);
    expect(await readVaultedCard(prisma(), live.transactionId)).toEqual({
      pan: live.card.pan,
      expiryDate: live.card.expiryDate,
      held: null,
    });
    expect(await dropExpiredCards(prisma(), now)).toBe(0);
  });

  it('takes nothing past the expiry, and refuses a second card for one transaction', async () => {
    const payment = await challengePayment(prisma(), fixture.merchant.id, { expiresAt: new Date(Date.now() + 60_000) });
    expect(await takeVaultedCard(prisma(), payment.transactionId, new Date(Date.now() + 120_000))).toBeNull();
    const again = await challengePayment(prisma(), fixture.merchant.id);
    await expect(vaultChallengeCard(prisma(), again.transactionId, again.card, new Date(Date.now() + 60_000))).rejects.toThrow();
  });
});

describe('sealing key settings (VAULT_KEYS, PROCESSOR_SECRET_KEYS)', () => {
  const base64 = randomBytes(32).toString('base64');

  it('parses kid:base64 entries in order, the first sealing', () => {
    const parsed = parseSealingKeys(`2026-02:${base64}, 2026-01:${randomBytes(32).toString('base64')}`);
    expect(Array.isArray(parsed)).toBe(true);
    expect((parsed as { kid: string }[]).map((each) => each.kid)).toEqual(['2026-02', '2026-01']);
    expect(keyRing(parsed as never).current.kid).toBe('2026-02');
  });

  it('refuses short or long keys, missing ids and repeated ids, without echoing the key', () => {
    for (const value of [
      `k1:${randomBytes(16).toString('base64')}`,
      `k1:${randomBytes(33).toString('base64')}`,
      base64,
      `:${base64}`,
      `k1:${base64},`,
      `bad id:${base64}`,
    ]) {
      const problem = parseSealingKeys(value);
      expect(typeof problem).toBe('string');
      expect(problem).not.toContain(base64);
    }
    expect(parseSealingKeys(`k1:${base64},k1:${base64}`)).toBe('entry 2 repeats the key id k1');
  });
});
