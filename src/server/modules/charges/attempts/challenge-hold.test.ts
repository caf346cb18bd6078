import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  chargeRequest,
  openTestDatabase,
  SETUP_TIMEOUT,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import { startCulqiSimulator, type CulqiSimulator } from '@tests/simulators/culqi/culqi-simulator';
import { connectCulqiAccount } from '@tests/support/culqi-account';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { publishDraft, saveDraft, updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { SANDBOX_CHALLENGE_CODE, verifyChallenge } from '@/server/core/three-ds/directory';
import { vaultPlaintext } from '@tests/support/vault-records';
import { authorizeCharge } from '../authorize-charge';
import { createCustomer } from '@/server/modules/customers/customers';
import { completeChallenge } from './complete-challenge';

// The authorization after a 3-D Secure challenge has no security code: the vault never keeps
// one (../shared CARD-ON-FILE.md 1). End to end over a merchant's Culqi account and its
// simulator: Culqi cannot take a card without its cvv, so before the challenge it is asked for a
// token of the card (held, one use, 5 minutes), and after it that token is charged with the
// authentication; when Culqi cannot be reached then, the payment fails over to a sandbox acquirer,
// which takes the card without its code.

const CULQI_PORT = 45_350;
vi.stubEnv('CULQI_API_URL', `http://127.0.0.1:${CULQI_PORT}`);
vi.stubEnv('CULQI_SECURE_URL', `http://127.0.0.1:${CULQI_PORT + 2}`);

/** The sandbox directory's card that is always challenged (directory.ts). */
const CHALLENGED = '4000000000003220';

let db: TestDatabase;
let culqi: CulqiSimulator;
let merchant: ActingMerchant;
let connectorId: string;
let secretKey: string;
let sequence = 0;

beforeAll(async () => {
  culqi = await startCulqiSimulator({ port: CULQI_PORT, securePort: CULQI_PORT + 2 });
  db = await openTestDatabase();
  merchant = await testMerchant(db.prisma, `HOLD${Date.now()}`);
  const scope = { kind: 'one' as const, merchantId: merchant.id };
  const connected = await connectCulqiAccount(db.prisma, culqi, scope);
  connectorId = connected.account.connectorId;
  secretKey = connected.keys.secretKey;
  await saveDraft(
    db.prisma,
    scope,
    {
      method: 'CARD',
      routes: [
        { connector: connectorId, priority: 1 },
        { connector: 'sandbox-acquirer-a', priority: 2 },
      ],
    },
    'a',
  );
  await publishDraft(db.prisma, scope, { method: 'CARD' });
  await updateThreeDs(db.prisma, { kind: 'all' }, { merchantCode: merchant.code, setting: { mode: 'ALWAYS', overAmount: null } });
}, SETUP_TIMEOUT);

afterAll(async () => {
  await db.close();
  await culqi.close();
});

const culqiPosts = (path: string) =>
  culqi.requests
    .filter((request) => request.method === 'POST' && request.path === path)
    .map((request) => JSON.parse(request.body) as Record<string, unknown>);

/** A challenged card charge, waiting for its challenge; the Culqi requests it made. */
async function waitingCharge() {
  const before = { tokens: culqiPosts('/v2/tokens').length, charges: culqiPosts('/v2/charges').length };
  const request = chargeRequest(merchant.code, `hold-${Date.now()}-${(sequence += 1)}`, 'CARD', { pan: CHALLENGED });
  const reply = await authorizeCharge(db.prisma, merchant, request);
  expect(reply.transaction.state).toBe('PENDIENTE');
  const transactionId = reply.transaction.transaction_id;
  const tokens = culqiPosts('/v2/tokens').slice(before.tokens);
  expect(culqiPosts('/v2/charges').slice(before.charges)).toEqual([]);
  return { transactionId, tokens, before };
}

const passed = () => {
  const answer = verifyChallenge({ pan: CHALLENGED, code: SANDBOX_CHALLENGE_CODE, triesSoFar: 0 });
  if (answer.kind !== 'done') throw new Error('the sandbox code passes');
  return answer.result;
};

describe('the authorization after a 3-D Secure challenge, without the security code', () => {
  it('charges at Culqi the token it held before the challenge, with the authentication, and keeps no code meanwhile', async () => {
    const { transactionId, tokens, before } = await waitingCharge();
    // The hold: one token, made with the cvv while it was in memory.
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.card_number).toBe(CHALLENGED);
    expect(tokens[0]?.cvv).toMatch(/^\d{3}$/);
    const entry = await db.prisma.cardVaultEntry.findUniqueOrThrow({ where: { transactionId }, include: { vault: true } });
    expect(entry.heldConnector).toBe(connectorId);
    expect(entry.heldToken).toMatch(/^tkn_test_/);
    // The challenge ends no later than Culqi's token (5 minutes).
    expect(entry.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    const record = entry.vault;
    expect(Object.keys(vaultPlaintext(record)).sort()).toEqual(['expiry_date', 'pan']);

    const completed = await completeChallenge(db.prisma, transactionId, passed());
    expect(completed.state).toBe('AUTORIZADO');
    const charges = culqiPosts('/v2/charges').slice(before.charges);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.source_id).toBe(entry.heldToken);
    expect(charges[0]?.authentication_3DS).toHaveProperty('eci');
    expect(charges[0]?.authentication_3DS).toHaveProperty('cavv');
    // No second token: the card's number and code went to Culqi once, before the challenge.
    expect(culqiPosts('/v2/tokens').length).toBe(before.tokens + 1);
    const row = await db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    expect(row.connectorId).toBe(connectorId);
    expect(await db.prisma.cardVaultEntry.count({ where: { transactionId } })).toBe(0);
    expect(await db.prisma.vaultRecord.count({ where: { id: record.id } })).toBe(0);
  });

  it('fails over to a processor that takes the card without its code when Culqi cannot take the held token', async () => {
    const { transactionId, before } = await waitingCharge();
    culqi.setMode('rate_limited', { key: secretKey });
    try {
      const completed = await completeChallenge(db.prisma, transactionId, passed());
      expect(completed.state).toBe('AUTORIZADO');
    } finally {
      culqi.setMode('normal', { key: secretKey });
    }
    const attempts = await db.prisma.transaction.findMany({
      where: { operation: { transactions: { some: { id: transactionId } } } },
      orderBy: { attempt: 'asc' },
      select: { connectorId: true, state: true },
    });
    expect(attempts).toEqual([
      { connectorId, state: 'DENEGADO' },
      { connectorId: 'sandbox-acquirer-a', state: 'AUTORIZADO' },
    ]);
    expect(culqiPosts('/v2/tokens').length).toBe(before.tokens + 1);
  });

  it("holds a saved card at Culqi for a one-click charge's challenge when Culqi keeps no card of it", async () => {
    // Saved by a challenged charge at Culqi: approved by the held token, so Culqi made no card
    // (its card needs the cvv, gone by then) and the vault's PAN is all there is.
    const { customer } = await createCustomer(db.prisma, merchant, {
      merchant_code: merchant.code,
      merchant_customer_id: `cus-hold-${(sequence += 1)}`,
      email: 'ana.quispe@example.pe',
    });
    const saving = chargeRequest(merchant.code, `hold-${Date.now()}-${(sequence += 1)}`, 'CARD', { pan: CHALLENGED });
    if (saving.payment_method.method_name !== 'CARD') throw new Error('a card request');
    saving.payment_method.method_details.save_card = {
      customer_id: customer.customer_id,
      reason: 'RECURRING',
      consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '99900' },
    };
    const waiting = await authorizeCharge(db.prisma, merchant, saving);
    expect((await completeChallenge(db.prisma, waiting.transaction.transaction_id, passed())).state).toBe('AUTORIZADO');
    const saved = await db.prisma.transaction.findUniqueOrThrow({ where: { id: waiting.transaction.transaction_id } });
    const card = await db.prisma.savedCard.findUniqueOrThrow({ where: { id: saved.savedCardId! } });
    expect(await db.prisma.processorCardToken.count({ where: { cardId: card.id } })).toBe(0);

    const tokensBefore = culqiPosts('/v2/tokens').length;
    const chargesBefore = culqiPosts('/v2/charges').length;
    const request = chargeRequest(merchant.code, `hold-${Date.now()}-${(sequence += 1)}`, 'CARD');
    const oneClick = await authorizeCharge(db.prisma, merchant, {
      ...request,
      payment_method: { method_name: 'CARD', method_details: { card_id: card.id, security_code: '123' } },
    });
    expect(oneClick.transaction.state).toBe('PENDIENTE');
    const entry = await db.prisma.cardVaultEntry.findUniqueOrThrow({
      where: { transactionId: oneClick.transaction.transaction_id },
    });
    expect(entry.heldConnector).toBe(connectorId);
    expect(culqiPosts('/v2/tokens').slice(tokensBefore)).toHaveLength(1);
    expect((await completeChallenge(db.prisma, oneClick.transaction.transaction_id, passed())).state).toBe('AUTORIZADO');
    expect(
      culqiPosts('/v2/charges')
        .slice(chargesBefore)
        .map((charge) => charge.source_id),
    ).toEqual([entry.heldToken]);
  });

  it('declines as unauthenticated, asking nobody, when no processor can take the card without its code', async () => {
    const { transactionId, before } = await waitingCharge();
    // The held token is gone (as if Culqi had expired it): only Culqi's row would carry it.
    await db.prisma.cardVaultEntry.update({ where: { transactionId }, data: { heldConnector: null, heldToken: null } });
    await saveDraft(
      db.prisma,
      { kind: 'one', merchantId: merchant.id },
      { method: 'CARD', routes: [{ connector: connectorId, priority: 1 }] },
      'a',
    );
    await publishDraft(db.prisma, { kind: 'one', merchantId: merchant.id }, { method: 'CARD' });
    const completed = await completeChallenge(db.prisma, transactionId, passed());
    expect(completed.state).toBe('DENEGADO');
    const row = await db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    expect(row.threeDs).toMatchObject({ status: 'U' });
    expect(culqiPosts('/v2/charges').length).toBe(before.charges);
  });
});
