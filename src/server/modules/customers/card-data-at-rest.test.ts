import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { openPglite, type DatabaseHandle } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';
import { chargeRequest, SETUP_TIMEOUT, testMerchant } from '@tests/support/procedure-test-support';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { SANDBOX_CHALLENGE_CODE, verifyChallenge } from '@/server/core/three-ds/directory';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { completeChallenge } from '@/server/modules/charges/attempts/complete-challenge';
import { updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { createCustomer, removeCard } from './customers';

// No PAN in clear and no security code at all in the embedded database's files (../shared
// CARD-ON-FILE.md 6): not in a live row (the secret scan reads those), and not in what a row
// leaves behind either: dead tuples of rows deleted or updated (a charge's claim, a card save, a
// challenge's card) and the write-ahead log, which keeps every row ever written until it is
// recycled. The database is on disk with its columns stored uncompressed, so a value written in
// clear would be found as its bytes; then every file of its data directory is read.

const SAVED = '4111111111111111';
const SAVED_WITH_AUTHENTICATION = '5555555555554444';
const CHALLENGED = '4000000000003220';

let dir: string;
let handle: DatabaseHandle;
let prisma: PrismaClient;
let merchant: ActingMerchant;
let closed = false;
let sequence = 0;
const number = () => `rest-${(sequence += 1)}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'card-data-at-rest-'));
  handle = await openPglite(join(dir, 'data'));
  await deployMigrations(handle.factory);
  prisma = new PrismaClient({ adapter: handle.factory });
  const columns = await prisma.$queryRaw<{ table_name: string; column_name: string }[]>`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'bytea', 'ARRAY')`;
  for (const { table_name: table, column_name: column } of columns) {
    await prisma.$executeRawUnsafe(`ALTER TABLE "${table}" ALTER COLUMN "${column}" SET STORAGE EXTERNAL`);
  }
  merchant = await testMerchant(prisma, 'REST001');
}, SETUP_TIMEOUT);

afterAll(async () => {
  if (!closed) {
    await prisma?.$disconnect();
    await handle?.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

const threeDs = (mode: 'NEVER' | 'ALWAYS') =>
  updateThreeDs(prisma, { kind: 'all' }, { merchantCode: merchant.code, setting: { mode, overAmount: null } });

async function saveCard(pan: string): Promise<{ cardId: string; customerId: string }> {
  const { customer } = await createCustomer(prisma, merchant, {
    merchant_code: merchant.code,
    merchant_customer_id: `cus-${(sequence += 1)}`,
    email: 'cus@example.pe',
  });
  const request = chargeRequest(merchant.code, number(), 'CARD', { pan });
  if (request.payment_method.method_name !== 'CARD') throw new Error('a card request');
  request.payment_method.method_details.save_card = {
    customer_id: customer.customer_id,
    reason: 'RECURRING',
    consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '99900' },
  };
  const reply = await authorizeCharge(prisma, merchant, request);
  const saved = (reply.transaction.additional_fields as { saved_card?: { card_id: string } }).saved_card;
  if (!saved) throw new Error(`the saving charge was ${reply.transaction.state}`);
  return { cardId: saved.card_id, customerId: customer.customer_id };
}

function savedCardCharge(cardId: string, details: Record<string, string>): ChargeRequest {
  const request = chargeRequest(merchant.code, number(), 'CARD');
  return { ...request, payment_method: { method_name: 'CARD', method_details: { card_id: cardId, ...details } } };
}

async function challenged(): Promise<string> {
  const reply = await authorizeCharge(prisma, merchant, chargeRequest(merchant.code, number(), 'CARD', { pan: CHALLENGED }));
  expect(reply.transaction.state).toBe('PENDIENTE');
  return reply.transaction.transaction_id;
}

function filesUnder(path: string): string[] {
  return readdirSync(path).flatMap((name) => {
    const full = join(path, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe("the embedded database's files", () => {
  it('hold no PAN and no security code after saving, charging, challenging and removing cards', async () => {
    await threeDs('NEVER');
    const saved = await saveCard(SAVED);
    const oneClick = await authorizeCharge(prisma, merchant, savedCardCharge(saved.cardId, { security_code: '321' }));
    expect(oneClick.transaction.state).toBe('AUTORIZADO');
    const recurring = await authorizeCharge(
      prisma,
      merchant,
      savedCardCharge(saved.cardId, { initiator: 'MERCHANT', reason: 'RECURRING' }),
    );
    expect(recurring.transaction.state).toBe('AUTORIZADO');

    await threeDs('ALWAYS');
    const authenticated = await saveCard(SAVED_WITH_AUTHENTICATION);
    const completed = await challenged();
    const answer = verifyChallenge({ pan: CHALLENGED, code: SANDBOX_CHALLENGE_CODE, triesSoFar: 0 });
    if (answer.kind !== 'done') throw new Error('the sandbox code passes');
    expect((await completeChallenge(prisma, completed, answer.result)).state).toBe('AUTORIZADO');
    // One challenge still waiting: its card is in the vault as the files are read.
    const waiting = await challenged();
    expect(await prisma.cardVaultEntry.count({ where: { transactionId: waiting } })).toBe(1);
    await removeCard(prisma, merchant, saved.customerId, saved.cardId);
    expect(await prisma.savedCard.count({ where: { status: 'ACTIVE' } })).toBe(1);
    expect(authenticated.cardId).not.toBe(saved.cardId);

    // Everything written reaches the files: a checkpoint, then the database closes.
    await prisma.$executeRawUnsafe('CHECKPOINT');
    await prisma.$disconnect();
    await handle.close();
    closed = true;

    const files = filesUnder(join(dir, 'data'));
    const bytes = files.reduce((total, file) => total + statSync(file).size, 0);
    expect(files.some((file) => file.includes('pg_wal'))).toBe(true);
    const needles = [SAVED, SAVED_WITH_AUTHENTICATION, CHALLENGED, 'security_code', 'securityCode', '"cvv'];
    const found = files.flatMap((file) => {
      const content = readFileSync(file);
      return needles.filter((needle) => content.includes(needle)).map((needle) => `${needle} in ${file}`);
    });
    expect(found).toEqual([]);
    // The scan read the database, not an empty directory.
    expect(bytes).toBeGreaterThan(1_000_000);
    const masked = files.some((file) => readFileSync(file).includes(`${SAVED.slice(0, 6)}******${SAVED.slice(-4)}`));
    expect(masked).toBe(true);
  });
});
