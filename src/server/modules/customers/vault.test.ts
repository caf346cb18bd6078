import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { keyRing } from '@/server/platform/security/sealed-box';
import type { VaultKeys } from '@/server/platform/security/vault-keys';
import { fingerprintOf, openCard, rewrapVault, sealCard } from './vault';
import { cardInVault } from '@tests/support/vault-records';

// The vault of saved cards: envelope encryption on a real embedded database, with keys given
// (the key file and the configuration are vault-keys.test.ts's).
const fixture = withTestDatabase();

const PAN = '4111111111111111';
const key = (kid: string) => ({ kid, key: randomBytes(32) });
const fingerprintKey = randomBytes(32);
const keysOf = (...ring: { kid: string; key: Buffer }[]): VaultKeys => ({ ring: keyRing(ring), fingerprintKey });

describe('the vault', () => {
  it('seals each card under a data key of its own, wrapped by the key-encryption key it names', () => {
    const keys = keysOf(key('k1'));
    const one = sealCard({ pan: PAN, expiryDate: '1230' }, keys);
    const two = sealCard({ pan: PAN, expiryDate: '1230' }, keys);
    expect(one.kekId).toBe('k1');
    expect(Buffer.from(one.wrappedKey)).toHaveLength(32);
    expect(Buffer.from(one.wrappedKey).equals(Buffer.from(two.wrappedKey))).toBe(false);
    expect(Buffer.from(one.ciphertext).equals(Buffer.from(two.ciphertext))).toBe(false);
    for (const part of [one.keyIv, one.wrappedKey, one.keyTag, one.iv, one.ciphertext, one.tag]) {
      expect(Buffer.from(part).includes(Buffer.from(PAN))).toBe(false);
      expect(Buffer.from(part).includes(Buffer.from(PAN.slice(-8)))).toBe(false);
    }
    expect(openCard(one, keys)).toEqual({ pan: PAN, expiryDate: '1230' });
  });

  it('opens a record only as its own row, and only with its key-encryption key', () => {
    const keys = keysOf(key('k1'));
    const record = sealCard({ pan: PAN, expiryDate: '1230' }, keys);
    const other = sealCard({ pan: '5555555555554444', expiryDate: '1130' }, keys);
    expect(() => openCard({ ...record, id: other.id }, keys)).toThrow(/does not decrypt/);
    expect(() => openCard({ ...record, ciphertext: other.ciphertext }, keys)).toThrow(/does not decrypt/);
    expect(() => openCard(record, keysOf(key('k2')))).toThrow(/no key k1/);
    expect(() => openCard(record, keysOf({ kid: 'k1', key: randomBytes(32) }))).toThrow(/does not decrypt/);
    // The message never carries card data.
    try {
      openCard({ ...record, id: other.id }, keys);
    } catch (error) {
      expect(String(error)).not.toContain(PAN.slice(-4));
    }
  });

  it('fingerprints a PAN by a keyed hash: the same under one key, unrelated under another', () => {
    const keys = keysOf(key('k1'));
    expect(Buffer.from(fingerprintOf(PAN, keys)).equals(Buffer.from(fingerprintOf(PAN, keys)))).toBe(true);
    expect(Buffer.from(fingerprintOf(PAN, keys)).equals(Buffer.from(fingerprintOf('5555555555554444', keys)))).toBe(false);
    const otherKey: VaultKeys = { ...keys, fingerprintKey: randomBytes(32) };
    expect(Buffer.from(fingerprintOf(PAN, keys)).equals(Buffer.from(fingerprintOf(PAN, otherKey)))).toBe(false);
  });

  it('re-wraps every data key under a new key-encryption key without touching a ciphertext; the old key then opens nothing', async () => {
    const { prisma } = fixture.db;
    const old = key('old');
    const records = Array.from({ length: 5 }, (_, index) => sealCard({ pan: PAN, expiryDate: `12${30 + index}` }, keysOf(old)));
    await prisma.vaultRecord.createMany({ data: records });
    const rotated = keysOf(key('new'), old);
    expect(await rewrapVault(prisma, 2, rotated)).toEqual({ rewrapped: 2, remaining: 3 });
    expect(await rewrapVault(prisma, 200, rotated)).toEqual({ rewrapped: 3, remaining: 0 });
    const stored = await prisma.vaultRecord.findMany({ where: { id: { in: records.map((each) => each.id) } } });
    expect(stored.map((row) => row.kekId)).toEqual(records.map(() => 'new'));
    for (const row of stored) {
      const before = records.find((each) => each.id === row.id)!;
      expect(Buffer.from(row.ciphertext).equals(Buffer.from(before.ciphertext))).toBe(true);
      expect(openCard(row, keysOf(rotated.ring.current))).toMatchObject({ pan: PAN });
      expect(() => openCard(row, keysOf(old))).toThrow(/no key new/);
    }
  });

  it('forgets a card whose record is deleted: its data key went with it', async () => {
    const { prisma } = fixture.db;
    const keys = keysOf(key('k1'));
    const record = sealCard({ pan: PAN, expiryDate: '1230' }, keys);
    await prisma.vaultRecord.create({ data: record });
    expect(await cardInVault(prisma, record.id, keys)).toEqual({ pan: PAN, expiryDate: '1230' });
    await prisma.vaultRecord.delete({ where: { id: record.id } });
    expect(await cardInVault(prisma, record.id, keys)).toBeNull();
  });
});
