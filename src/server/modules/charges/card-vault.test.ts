import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengePayment } from '@tests/support/challenge-payment';
import { withTestMerchant } from '@tests/support/procedure-test-support';
import { parseSealingKeys } from '@/env';
import {
  cardVaultKeys,
  dropExpiredCards,
  dropVaultedCard,
  keyRing,
  readVaultedCard,
  takeVaultedCard,
  vaultCard,
} from './card-vault';

// The card vault of payments waiting for their challenge (docs/ORCHESTRATION.md 5), on a real
// embedded database. No CARD_VAULT_KEYS here: the generated key (local-1) encrypts.
const fixture = withTestMerchant('VAULT');

const key = (kid: string) => ({ kid, key: randomBytes(32) });
const storedRow = (transactionId: string) => fixture.db.prisma.cardVaultEntry.findUniqueOrThrow({ where: { transactionId } });

describe('card vault', () => {
  it('keeps the card only encrypted, under the generated key local-1, with a 12-byte IV and a 16-byte tag', async () => {
    const payment = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    const row = await storedRow(payment.transactionId);
    expect(row.keyId).toBe('local-1');
    expect(row.iv).toHaveLength(12);
    expect(row.tag).toHaveLength(16);
    const everything = Buffer.concat([row.iv, row.ciphertext, row.tag]);
    for (const secret of [payment.card.pan, payment.card.pan.slice(-8), payment.card.security_code, payment.card.expiry_date]) {
      expect(everything.includes(Buffer.from(secret))).toBe(false);
      expect(everything.toString('hex')).not.toContain(Buffer.from(secret).toString('hex'));
    }
    const [asText] = await fixture.db.prisma.$queryRaw<{ text: string }[]>`
      SELECT concat(encode(iv, 'escape'), encode(ciphertext, 'escape'), encode(tag, 'escape')) AS text
      FROM card_vault WHERE transaction_id = ${payment.transactionId}::uuid`;
    expect(asText!.text).not.toContain(payment.card.pan);
    const kept = await fixture.db.prisma.serviceKey.findUniqueOrThrow({ where: { name: 'card-vault-key' } });
    expect((kept.value as { kid: string }).kid).toBe('local-1');
  });

  it('gives the card to its transaction once: take decrypts and deletes', async () => {
    const payment = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    expect(await readVaultedCard(fixture.db.prisma, payment.transactionId)).toEqual(payment.card);
    expect(await takeVaultedCard(fixture.db.prisma, payment.transactionId)).toEqual(payment.card);
    expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: payment.transactionId } })).toBe(0);
    expect(await takeVaultedCard(fixture.db.prisma, payment.transactionId)).toBeNull();
    expect(await readVaultedCard(fixture.db.prisma, payment.transactionId)).toBeNull();
  });

  it('gives one of two concurrent takes the card', async () => {
    const payment = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    const taken = await Promise.all([1, 2, 3].map(() => takeVaultedCard(fixture.db.prisma, payment.transactionId)));
    expect(taken.filter((card) => card !== null)).toEqual([payment.card]);
  });

  it('refuses a row with an altered tag, IV or ciphertext, or moved to another transaction, without card data in the error', async () => {
    const payment = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    const row = await storedRow(payment.transactionId);
    const flip = (bytes: Uint8Array) => {
      const copy = new Uint8Array(bytes);
      copy[0] = copy[0]! ^ 1;
      return copy;
    };
    for (const altered of [{ tag: flip(row.tag) }, { iv: flip(row.iv) }, { ciphertext: flip(row.ciphertext) }]) {
      await fixture.db.prisma.cardVaultEntry.update({ where: { transactionId: payment.transactionId }, data: altered });
      const error = await readVaultedCard(fixture.db.prisma, payment.transactionId).catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/does not decrypt/);
      expect((error as Error).message).not.toContain(payment.card.pan);
      await fixture.db.prisma.cardVaultEntry.update({
        where: { transactionId: payment.transactionId },
        data: { tag: row.tag, iv: row.iv, ciphertext: row.ciphertext },
      });
    }
    expect(await readVaultedCard(fixture.db.prisma, payment.transactionId)).toEqual(payment.card);

    const other = await challengePayment(fixture.db.prisma, fixture.merchant.id, { vault: false });
    await fixture.db.prisma.cardVaultEntry.create({
      data: {
        transactionId: other.transactionId,
        keyId: row.keyId,
        iv: row.iv,
        ciphertext: row.ciphertext,
        tag: row.tag,
        expiresAt: row.expiresAt,
      },
    });
    await expect(takeVaultedCard(fixture.db.prisma, other.transactionId)).rejects.toThrow(/does not decrypt/);
    expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: other.transactionId } })).toBe(0);
  });

  it('decrypts with an old key after rotation, encrypts with the first, and refuses an unknown key id', async () => {
    const old = key('2026-01');
    const next = key('2026-02');
    const before = await challengePayment(fixture.db.prisma, fixture.merchant.id, { keys: keyRing([old]) });
    const rotated = keyRing([next, old]);
    const after = await challengePayment(fixture.db.prisma, fixture.merchant.id, { keys: rotated });
    expect((await storedRow(before.transactionId)).keyId).toBe('2026-01');
    expect((await storedRow(after.transactionId)).keyId).toBe('2026-02');
    expect(await readVaultedCard(fixture.db.prisma, before.transactionId, rotated)).toEqual(before.card);
    expect(await readVaultedCard(fixture.db.prisma, after.transactionId, rotated)).toEqual(after.card);
    await expect(readVaultedCard(fixture.db.prisma, before.transactionId, keyRing([next]))).rejects.toThrow(
      'no key 2026-01 opens a card vault row',
    );
    // The same id with other bytes is not the key either.
    await expect(readVaultedCard(fixture.db.prisma, after.transactionId, keyRing([key('2026-02')]))).rejects.toThrow(
      /does not decrypt/,
    );
  });

  it('keeps the generated key decrypting once keys are configured', async () => {
    const payment = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    const generated = (await cardVaultKeys(fixture.db.prisma)).current;
    expect(await readVaultedCard(fixture.db.prisma, payment.transactionId, keyRing([key('ops-1'), generated]))).toEqual(
      payment.card,
    );
  });

  it("drops a cancelled payment's card, and every card past its expiry", async () => {
    const cancelled = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    expect(await dropVaultedCard(fixture.db.prisma, cancelled.transactionId)).toBe(true);
    expect(await dropVaultedCard(fixture.db.prisma, cancelled.transactionId)).toBe(false);
    expect(await dropVaultedCard(fixture.db.prisma, 'not-a-uuid')).toBe(false);

    const now = new Date();
    const expired = await challengePayment(fixture.db.prisma, fixture.merchant.id, { expiresAt: new Date(now.getTime() - 1000) });
    const live = await challengePayment(fixture.db.prisma, fixture.merchant.id, { expiresAt: new Date(now.getTime() + 60_000) });
    expect(await readVaultedCard(fixture.db.prisma, expired.transactionId)).toBeNull();
    expect(await dropExpiredCards(fixture.db.prisma, now)).toBeGreaterThanOrEqual(1);
    expect(await fixture.db.prisma.cardVaultEntry.count({ where: { transactionId: expired.transactionId } })).toBe(0);
    expect(await readVaultedCard(fixture.db.prisma, live.transactionId)).toEqual(live.card);
    expect(await dropExpiredCards(fixture.db.prisma, now)).toBe(0);
  });

  it('takes nothing past the expiry, and refuses to hold a second card for one transaction', async () => {
    const payment = await challengePayment(fixture.db.prisma, fixture.merchant.id, { expiresAt: new Date(Date.now() + 60_000) });
    expect(await takeVaultedCard(fixture.db.prisma, payment.transactionId, undefined, new Date(Date.now() + 120_000))).toBeNull();
    const again = await challengePayment(fixture.db.prisma, fixture.merchant.id);
    await expect(vaultCard(fixture.db.prisma, again.transactionId, again.card, new Date(Date.now() + 60_000))).rejects.toThrow();
  });
});

describe('CARD_VAULT_KEYS', () => {
  const base64 = randomBytes(32).toString('base64');

  it('parses kid:base64 entries in order, the first encrypting', () => {
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
