import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { challengePayment } from '@tests/support/challenge-payment';
import { openTestDatabase, SETUP_TIMEOUT, testMerchant, type TestDatabase } from '@tests/support/procedure-test-support';
import { cardVaultKeys, keyRing, readVaultedCard, takeVaultedCard } from './card-vault';

// The card vault under CARD_VAULT_KEYS (docs/ORCHESTRATION.md 5): the first configured key
// encrypts, every configured key decrypts, and a key generated before the setting still
// decrypts the cards it holds. env() reads the configuration once per test file.
const NEW = randomBytes(32);
const OLD = randomBytes(32);
vi.stubEnv('CARD_VAULT_KEYS', `2026-02:${NEW.toString('base64')},2026-01:${OLD.toString('base64')}`);

let db: TestDatabase;
let merchantId: string;
const generated = randomBytes(32);

beforeAll(async () => {
  db = await openTestDatabase();
  merchantId = (await testMerchant(db.prisma, 'VAULTKEYS')).id;
  // As a service that ran without CARD_VAULT_KEYS left it.
  await db.prisma.serviceKey.create({
    data: { name: 'card-vault-key', value: { kid: 'local-1', key: generated.toString('base64') } },
  });
}, SETUP_TIMEOUT);

afterAll(async () => {
  vi.unstubAllEnvs();
  await db.close();
});

describe('card vault with CARD_VAULT_KEYS', () => {
  it('encrypts with the first configured key and decrypts with any, the generated one included', async () => {
    const keys = await cardVaultKeys(db.prisma);
    expect(keys.current.kid).toBe('2026-02');
    expect([...keys.byId.keys()]).toEqual(['2026-02', '2026-01', 'local-1']);

    const payment = await challengePayment(db.prisma, merchantId);
    const row = await db.prisma.cardVaultEntry.findUniqueOrThrow({ where: { transactionId: payment.transactionId } });
    expect(row.keyId).toBe('2026-02');

    const before = await challengePayment(db.prisma, merchantId, { keys: keyRing([{ kid: 'local-1', key: generated }]) });
    const older = await challengePayment(db.prisma, merchantId, { keys: keyRing([{ kid: '2026-01', key: OLD }]) });
    expect(await readVaultedCard(db.prisma, before.transactionId)).toEqual(before.card);
    expect(await takeVaultedCard(db.prisma, older.transactionId)).toEqual(older.card);
    expect(await takeVaultedCard(db.prisma, payment.transactionId)).toEqual(payment.card);
  });

  it('refuses a malformed setting when the configuration is read, without echoing it', async () => {
    const short = randomBytes(16).toString('base64');
    vi.stubEnv('CARD_VAULT_KEYS', `k1:${short}`);
    vi.resetModules();
    const { env } = await import('@/env');
    const error = (() => {
      try {
        env();
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).toMatch(/CARD_VAULT_KEYS: entry 1 must be kid:key/);
    expect(error?.message).not.toContain(short);
  });
});
