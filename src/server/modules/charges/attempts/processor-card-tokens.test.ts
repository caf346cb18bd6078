import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  chargeRequest,
  openTestDatabase,
  SETUP_TIMEOUT,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import { startCulqiSimulator, type CulqiSimulator } from '@tests/simulators/culqi/culqi-simulator';
import { startIzipaySimulator, type IzipaySimulator } from '@tests/simulators/izipay/izipay-simulator';
import { izipayKeys } from '@tests/support/izipay-harness';
import { startNiubizSimulator, type NiubizSimulator } from '@tests/simulators/niubiz/niubiz-simulator';
import { niubizKeys } from '@tests/support/niubiz-harness';
import { connectAccount } from '@/server/modules/processors/processor-accounts';
import { verifyAndSaveCard } from '../verify-card';
import { connectCulqiAccount } from '@tests/support/culqi-account';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { publishDraft, saveDraft, updateThreeDs } from '@/server/modules/routing/merchant-routing';
import { createCustomer, removeCard } from '@/server/modules/customers/customers';
import { deleteRetiredCardTokens, keepCardToken } from '@/server/modules/customers/card-tokens';
import { authorizeCharge } from '../authorize-charge';
import type * as CulqiCards from '@/server/payments/culqi/culqi-cards';

// A processor's own tokens for saved cards (../shared CARD-ON-FILE.md 5 and 6), end to end over a
// merchant's Culqi account and its simulator: the saving charge's approval leaves Culqi's card
// (`crd_`) beside the vault's PAN, an MIT reaches Culqi through it, a second card joins the
// customer Culqi has, and removing the card deletes it at Culqi by the worker, again after an outage.

const CULQI_PORT = 45_340;
const IZIPAY_PORT = 45_344;
const NIUBIZ_PORT = 45_346;
vi.stubEnv('CULQI_API_URL', `http://127.0.0.1:${CULQI_PORT}`);
vi.stubEnv('NIUBIZ_TEST_API_URL', `http://127.0.0.1:${NIUBIZ_PORT}`);
vi.stubEnv('CULQI_SECURE_URL', `http://127.0.0.1:${CULQI_PORT + 2}`);
vi.stubEnv('IZIPAY_API_URL', `http://127.0.0.1:${IZIPAY_PORT}`);
// Every call's limit (the simulators answer in milliseconds): a provisioning that never answers ends in it.
vi.stubEnv('PROCESSOR_TIMEOUT_MS', '2000');

// Culqi's provisioning, replaced while a test sets `instead` (a module mock: the connector object
// itself is rebuilt whenever its cached read is a second old, so a spy on one could miss the charge).
const provisioning = vi.hoisted(() => ({ instead: null as ((transactionId: string) => Promise<never>) | null }));
vi.mock('@/server/payments/culqi/culqi-cards', async (original) => {
  const actual = await original<typeof CulqiCards>();
  return {
    ...actual,
    provisionCard: (...args: Parameters<typeof actual.provisionCard>) =>
      provisioning.instead ? provisioning.instead(args[2].transactionId) : actual.provisionCard(...args),
  };
});

let db: TestDatabase;
let culqi: CulqiSimulator;
let izipay: IzipaySimulator;
let niubiz: NiubizSimulator;
let merchant: ActingMerchant;
let connectorId: string;
let secretKey: string;
let sequence = 0;
const number = () => `tok-${Date.now()}-${(sequence += 1)}`;

const PAYER = {
  first_name: 'Ana',
  last_name: 'Quispe',
  email: 'ana.quispe@example.pe',
  phone: { country_code: '+51', subscriber: '987654321' },
  location: { line_1: 'Av. Larco 345', city: 'Lima', country: 'PE' },
};

beforeAll(async () => {
  culqi = await startCulqiSimulator({ port: CULQI_PORT, securePort: CULQI_PORT + 2 });
  izipay = await startIzipaySimulator({ port: IZIPAY_PORT });
  niubiz = await startNiubizSimulator({ port: NIUBIZ_PORT });
  db = await openTestDatabase();
  merchant = await testMerchant(db.prisma, `TOK${Date.now()}`);
  const scope = { kind: 'one' as const, merchantId: merchant.id };
  const connected = await connectCulqiAccount(db.prisma, culqi, scope);
  connectorId = connected.account.connectorId;
  secretKey = connected.keys.secretKey;
  await saveDraft(db.prisma, scope, { method: 'CARD', routes: [{ connector: connectorId, priority: 1 }] }, 'a');
  await publishDraft(db.prisma, scope, { method: 'CARD' });
  await updateThreeDs(db.prisma, { kind: 'all' }, { merchantCode: merchant.code, setting: { mode: 'NEVER', overAmount: null } });
}, SETUP_TIMEOUT);

afterAll(async () => {
  await db.close();
  await culqi.close();
  await izipay.close();
  await niubiz.close();
});

async function newCustomer(of = merchant) {
  const { customer } = await createCustomer(db.prisma, of, {
    merchant_code: of.code,
    merchant_customer_id: `cus-${(sequence += 1)}`,
    email: 'ana.quispe@example.pe',
  });
  return customer.customer_id;
}

/** A charge saving `pan` (expiring `expiry`) for the customer; the payer as `payer` (with an address unless told). */
async function saveWithCharge(
  customerId: string,
  pan = '4111111111111111',
  payer: ChargeRequest['payment_details']['customer'] = PAYER,
  shop = merchant,
  expiry = '1230',
) {
  const request = chargeRequest(shop.code, number(), 'CARD', { pan, customer: payer });
  if (request.payment_method.method_name !== 'CARD') throw new Error('a card request');
  request.payment_method.method_details.expiry_date = expiry;
  request.payment_method.method_details.save_card = {
    customer_id: customerId,
    reason: 'RECURRING',
    consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '20000' },
  };
  const reply = await authorizeCharge(db.prisma, shop, request);
  expect(reply.transaction.state).toBe('AUTORIZADO');
  return (reply.transaction.additional_fields as { saved_card: { card_id: string } }).saved_card.card_id;
}

const tokensOf = (cardId: string) =>
  db.prisma.processorCardToken.findMany({
    where: { cardId },
    select: { connectorId: true, token: true, processorCustomerId: true },
  });

const retiredOf = (cardId: string) =>
  db.prisma.retiredCardToken.findMany({
    where: { cardId },
    select: { connectorId: true, token: true, processorCustomerId: true, deleteAttempts: true, deleteAfter: true },
  });

const culqiCalls = (path: string) =>
  culqi.requests.filter(
    (request) => request.method === 'POST' && request.path === path && request.credential === secretKey.slice(0, 12),
  );

describe("a processor's own token for a saved card", () => {
  it("is left by the saving charge's approval at Culqi, and carries an MIT there without the card's number or security code", async () => {
    const customerId = await newCustomer();
    const cardId = await saveWithCharge(customerId);
    const [token] = await tokensOf(cardId);
    expect(token?.connectorId).toBe(connectorId);
    expect(token?.token).toMatch(/^crd_test_[A-Za-z0-9]{16}$/);
    expect(token?.processorCustomerId).toMatch(/^cus_test_[A-Za-z0-9]{16}$/);
    expect(culqi.cards().map((card) => card.id)).toContain(token!.token);

    const tokensBefore = culqi.requests.filter((request) => request.path === '/v2/tokens').length;
    const request = chargeRequest(merchant.code, number(), 'CARD');
    const mit = await authorizeCharge(db.prisma, merchant, {
      ...request,
      payment_method: { method_name: 'CARD', method_details: { card_id: cardId, initiator: 'MERCHANT', reason: 'RECURRING' } },
      payment_details: { ...request.payment_details, amount: '5000' },
    });
    expect(mit.transaction.state).toBe('AUTORIZADO');
    expect(mit.transaction.additional_fields).toMatchObject({ stored_credential: { card_id: cardId, initiator: 'MERCHANT' } });
    // Charged as Culqi's card: no new token, the charge's source is the card.
    expect(culqi.requests.filter((each) => each.path === '/v2/tokens').length).toBe(tokensBefore);
    const charge = culqiCalls('/v2/charges').at(-1)!;
    expect(JSON.parse(charge.body)).toMatchObject({ source_id: token!.token, amount: 5000 });
    expect(charge.body).not.toContain('4111111111111111');
  });

  it("joins a second card to the customer Culqi has, and makes none for a payer without the address Culqi's customers want", async () => {
    const customerId = await newCustomer();
    const first = await saveWithCharge(customerId);
    const customersBefore = culqiCalls('/v2/customers').length;
    const second = await saveWithCharge(customerId, '5111111111111118');
    expect(culqiCalls('/v2/customers')).toHaveLength(customersBefore);
    const [one] = await tokensOf(first);
    const [two] = await tokensOf(second);
    expect(two!.processorCustomerId).toBe(one!.processorCustomerId);
    expect(two!.token).not.toBe(one!.token);

    const { location: _location, ...withoutAddress } = PAYER;
    const unsaved = await saveWithCharge(await newCustomer(), '4111111111111111', withoutAddress);
    expect(await tokensOf(unsaved)).toEqual([]);
  });

  it('is not made again when the customer saves the same card again: the card keeps the token Culqi has', async () => {
    const customerId = await newCustomer();
    const first = await saveWithCharge(customerId);
    const [held] = await tokensOf(first);
    const cardsBefore = culqiCalls('/v2/cards').length;
    const again = await saveWithCharge(customerId);
    expect(again).toBe(first);
    expect(culqiCalls('/v2/cards')).toHaveLength(cardsBefore);
    expect(await tokensOf(first)).toEqual([held]);
  });

  it("is asked for once the approval is recorded; the answer waits for it no longer than Culqi's timeout, and the next one-click charge asks again", async () => {
    const statesSeen: string[] = [];
    provisioning.instead = async (transactionId) => {
      const row = await db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId }, select: { state: true } });
      statesSeen.push(row.state);
      return new Promise(() => {});
    };
    const customerId = await newCustomer();
    let cardId: string;
    try {
      cardId = await saveWithCharge(customerId);
    } finally {
      provisioning.instead = null;
    }
    expect(statesSeen).toEqual(['AUTORIZADO']);
    expect(await tokensOf(cardId)).toEqual([]);

    const request = chargeRequest(merchant.code, number(), 'CARD');
    const oneClick = await authorizeCharge(db.prisma, merchant, {
      ...request,
      payment_method: { method_name: 'CARD', method_details: { card_id: cardId, security_code: '123' } },
      payment_details: { ...request.payment_details, customer: PAYER },
    });
    expect(oneClick.transaction.state).toBe('AUTORIZADO');
    const [token] = await tokensOf(cardId);
    expect(token?.connectorId).toBe(connectorId);
    expect(token?.token).toMatch(/^crd_test_/);
  });

  it('is retired with its card and deleted at Culqi by the worker; one Culqi could not delete waits its backoff behind the others', async () => {
    const customerId = await newCustomer();
    const cardId = await saveWithCharge(customerId);
    const [token] = await tokensOf(cardId);
    await removeCard(db.prisma, merchant, customerId, cardId);
    // The card's token is no card's any more: retired in the removal's transaction.
    expect(await tokensOf(cardId)).toEqual([]);
    expect(await retiredOf(cardId)).toEqual([{ ...token, deleteAttempts: 0, deleteAfter: null }]);
    const now = new Date();

    culqi.setMode('outage', { key: secretKey });
    expect(await deleteRetiredCardTokens(db.prisma, { now })).toBe(0);
    expect(await retiredOf(cardId)).toEqual([{ ...token, deleteAttempts: 1, deleteAfter: new Date(now.getTime() + 60_000) }]);
    expect(culqi.cards().map((card) => card.id)).toContain(token!.token);

    // Culqi is back: a card removed since goes first, the one that failed waits for its time.
    culqi.setMode('normal', { key: secretKey });
    const other = await saveWithCharge(customerId, '5111111111111118');
    const [otherToken] = await tokensOf(other);
    await removeCard(db.prisma, merchant, customerId, other);
    expect(await deleteRetiredCardTokens(db.prisma, { now, limit: 1 })).toBe(1);
    expect(await retiredOf(other)).toEqual([]);
    expect(culqi.cards().map((card) => card.id)).not.toContain(otherToken!.token);
    expect(await deleteRetiredCardTokens(db.prisma, { now: new Date(now.getTime() + 59_000) })).toBe(0);
    expect(await retiredOf(cardId)).toHaveLength(1);

    expect(await deleteRetiredCardTokens(db.prisma, { now: new Date(now.getTime() + 60_000) })).toBe(1);
    expect(await retiredOf(cardId)).toEqual([]);
    expect(culqi.cards().map((card) => card.id)).not.toContain(token!.token);
  });
  it('whose account cannot be opened (its secret unreadable) waits its backoff, and the others are deleted', async () => {
    const scope = { kind: 'one' as const, merchantId: merchant.id };
    const lost = await connectCulqiAccount(db.prisma, culqi, scope, { name: 'Culqi (lost key)' });
    await db.prisma.processorAccount.update({
      where: { connectorId: lost.account.connectorId },
      data: { secretTag: new Uint8Array(16) },
    });
    const customerId = await newCustomer();
    const cardId = await saveWithCharge(customerId);
    const [token] = await tokensOf(cardId);
    await removeCard(db.prisma, merchant, customerId, cardId);
    await db.prisma.retiredCardToken.create({
      data: { cardId, connectorId: lost.account.connectorId, token: 'crd_test_unopenable', processorCustomerId: null },
    });
    const now = new Date();

    expect(await deleteRetiredCardTokens(db.prisma, { now })).toBe(1);
    expect(culqi.cards().map((card) => card.id)).not.toContain(token!.token);
    expect(await retiredOf(cardId)).toEqual([
      {
        connectorId: lost.account.connectorId,
        token: 'crd_test_unopenable',
        processorCustomerId: null,
        deleteAttempts: 1,
        deleteAfter: new Date(now.getTime() + 60_000),
      },
    ]);
    // Asked again when its backoff ends, and failing again, twice as long.
    const later = new Date(now.getTime() + 60_000);
    expect(await deleteRetiredCardTokens(db.prisma, { now: later })).toBe(0);
    expect((await retiredOf(cardId)).map(({ deleteAttempts, deleteAfter }) => ({ deleteAttempts, deleteAfter }))).toEqual([
      { deleteAttempts: 2, deleteAfter: new Date(later.getTime() + 120_000) },
    ]);
    await db.prisma.retiredCardToken.deleteMany({ where: { connectorId: lost.account.connectorId } });
  });

  it('kept after its card was removed (a provisioning that ended late) is retired at once, not left on the card', async () => {
    const customerId = await newCustomer();
    const cardId = await saveWithCharge(customerId);
    const [token] = await tokensOf(cardId);
    await removeCard(db.prisma, merchant, customerId, cardId);
    await keepCardToken(db.prisma, cardId, {
      connectorId,
      token: 'crd_test_late',
      processorCustomerId: token!.processorCustomerId,
    });
    expect(await tokensOf(cardId)).toEqual([]);
    expect((await retiredOf(cardId)).map((each) => each.token).sort()).toEqual([token!.token, 'crd_test_late'].sort());
    expect(await deleteRetiredCardTokens(db.prisma)).toBe(2);
  });
});

describe("Izipay's token for a saved card", () => {
  it('is registered by a zero-amount verification there, charged SILENT by an MIT with the issuer id, replaced when the card is renewed, and each token cancelled once no card uses it', async () => {
    const shop = await testMerchant(db.prisma, `IZI${Date.now()}`);
    const scope = { kind: 'one' as const, merchantId: shop.id };
    const keys = izipayKeys();
    izipay.addAccount(keys);
    const { account } = await connectAccount(
      db.prisma,
      scope,
      undefined,
      {
        processor: 'izipay',
        name: 'Izipay',
        environment: 'test',
        methods: ['CARD'],
        publicKey: keys.shopId,
        secretKey: keys.password,
      },
      'admin@test.pe',
    );
    await saveDraft(db.prisma, scope, { method: 'CARD', routes: [{ connector: account.connectorId, priority: 1 }] }, 'a');
    await publishDraft(db.prisma, scope, { method: 'CARD' });
    await updateThreeDs(db.prisma, { kind: 'all' }, { merchantCode: shop.code, setting: { mode: 'NEVER', overAmount: null } });
    const customerId = await newCustomer(shop);

    const { card } = await verifyAndSaveCard(db.prisma, shop, {
      merchant_code: shop.code,
      customer_id: customerId,
      pan: '4970100000000055',
      expiry_date: '1230',
      security_code: '123',
      currency: '604',
      reason: 'RECURRING',
      consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '20000' },
    });
    const [token] = await tokensOf(card.card_id);
    expect(token?.connectorId).toBe(account.connectorId);
    expect(token?.token).toMatch(/^[0-9a-f]{32}$/);
    const saved = await db.prisma.savedCard.findUniqueOrThrow({ where: { id: card.card_id }, select: { initialNti: true } });
    expect(saved.initialNti).toMatch(/^\d{16}$/);

    const request = chargeRequest(shop.code, number(), 'CARD');
    const mit = await authorizeCharge(db.prisma, shop, {
      ...request,
      payment_method: {
        method_name: 'CARD',
        method_details: { card_id: card.card_id, initiator: 'MERCHANT', reason: 'RECURRING' },
      },
      payment_details: { ...request.payment_details, amount: '5000' },
    });
    expect(mit.transaction.state).toBe('AUTORIZADO');
    const sent = izipay.requests.filter((each) => each.path.endsWith('/Charge/CreatePayment')).at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({
      formAction: 'SILENT',
      paymentMethodToken: token!.token,
      transactionOptions: { cardOptions: { initialIssuerTransactionIdentifier: saved.initialNti } },
    });
    expect(sent.body).not.toContain('4970100000000055');

    // Saved again with a payment (the same PAN and expiry): charged by the token Izipay holds,
    // not registered a second time, so no token is left at Izipay that nothing names.
    expect(await saveWithCharge(customerId, '4970100000000055', PAYER, shop)).toBe(card.card_id);
    const resent = JSON.parse(izipay.requests.filter((each) => each.path.endsWith('/Charge/CreatePayment')).at(-1)!.body) as {
      formAction?: string;
      paymentMethodToken?: string;
    };
    expect([resent.formAction, resent.paymentMethodToken]).toEqual(['SILENT', token!.token]);
    expect(await tokensOf(card.card_id)).toEqual([token]);

    // Renewed (the same PAN with a new expiry): registered anew, since Izipay's token keeps the
    // expiry it was made with; the one card holds the new token, and the old one is retired and
    // cancelled at Izipay by the worker, not left there.
    const cancels = () =>
      izipay.requests.filter((each) => each.path.endsWith('/Token/Cancel')).map((each) => JSON.parse(each.body) as unknown);
    expect(await saveWithCharge(customerId, '4970100000000055', PAYER, shop, '0632')).toBe(card.card_id);
    const [newToken] = await tokensOf(card.card_id);
    expect(newToken?.token).toMatch(/^[0-9a-f]{32}$/);
    expect(newToken?.token).not.toBe(token!.token);
    expect((await retiredOf(card.card_id)).map((each) => each.token)).toEqual([token!.token]);
    expect(await deleteRetiredCardTokens(db.prisma)).toBe(1);
    expect(await retiredOf(card.card_id)).toEqual([]);
    expect(cancels()).toEqual([{ paymentMethodToken: token!.token }]);

    await removeCard(db.prisma, shop, customerId, card.card_id);
    expect(await deleteRetiredCardTokens(db.prisma)).toBe(1);
    expect(await tokensOf(card.card_id)).toEqual([]);
    expect(cancels()).toEqual([{ paymentMethodToken: token!.token }, { paymentMethodToken: newToken!.token }]);
  });
});

describe("Niubiz's token for a saved card", () => {
  it('is registered by the saving sale, charged on the recurrent channel by an MIT without the card, and forgotten once the card is removed', async () => {
    const shop = await testMerchant(db.prisma, `NBZ${Date.now()}`);
    const scope = { kind: 'one' as const, merchantId: shop.id };
    const keys = niubizKeys();
    niubiz.addAccount(keys);
    const { account } = await connectAccount(
      db.prisma,
      scope,
      undefined,
      {
        processor: 'niubiz',
        name: 'Niubiz',
        environment: 'test',
        methods: ['CARD'],
        publicKey: keys.merchantId,
        secretKey: keys.password,
        apiUser: keys.user,
      },
      'admin@test.pe',
    );
    await saveDraft(db.prisma, scope, { method: 'CARD', routes: [{ connector: account.connectorId, priority: 1 }] }, 'a');
    await publishDraft(db.prisma, scope, { method: 'CARD' });
    await updateThreeDs(db.prisma, { kind: 'all' }, { merchantCode: shop.code, setting: { mode: 'NEVER', overAmount: null } });
    const { customer } = await createCustomer(db.prisma, shop, {
      merchant_code: shop.code,
      merchant_customer_id: `cus-${(sequence += 1)}`,
      email: 'ana.quispe@example.pe',
    });
    const pan = '4919148107859067';
    const saving = chargeRequest(shop.code, number(), 'CARD', { pan, customer: PAYER });
    if (saving.payment_method.method_name !== 'CARD') throw new Error('a card request');
    saving.payment_method.method_details.save_card = {
      customer_id: customer.customer_id,
      reason: 'RECURRING',
      consent: { accepted_at: '2026-12-01T10:00:00Z', terms_version: 'v1', max_amount: '20000' },
    };
    const saved = await authorizeCharge(db.prisma, shop, saving);
    expect(saved.transaction.state).toBe('AUTORIZADO');
    const cardId = (saved.transaction.additional_fields as { saved_card: { card_id: string } }).saved_card.card_id;
    const [token] = await tokensOf(cardId);
    expect(token).toEqual({
      connectorId: account.connectorId,
      token: expect.stringMatching(/^\d{16}$/) as string,
      // Niubiz keeps the token under the email it was registered with (its ownerId).
      processorCustomerId: PAYER.email,
    });

    const antifraudCalls = () => niubiz.requests.filter((each) => each.path.includes('/api.antifraud/')).length;
    const before = antifraudCalls();
    // An MIT whose payer has another email: the token's owner is named.
    const request = chargeRequest(shop.code, number(), 'CARD', { customer: { ...PAYER, email: 'cobranzas@example.pe' } });
    const mit = await authorizeCharge(db.prisma, shop, {
      ...request,
      payment_method: { method_name: 'CARD', method_details: { card_id: cardId, initiator: 'MERCHANT', reason: 'RECURRING' } },
      payment_details: { ...request.payment_details, amount: '5000' },
    });
    expect(mit.transaction.state).toBe('AUTORIZADO');
    expect(antifraudCalls()).toBe(before);
    const sent = niubiz.requests.filter((each) => each.path.includes('/api.authorization/v3/authorization/')).at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({
      channel: 'recurrent',
      card: { tokenId: token!.token, useFrequent: true },
      cardHolder: { email: PAYER.email },
      order: { amount: 50 },
    });
    expect(sent.body).not.toContain(pan);

    await removeCard(db.prisma, shop, customer.customer_id, cardId);
    // Niubiz documents no deletion of a token: the worker forgets it.
    expect(await retiredOf(cardId)).toHaveLength(1);
    expect(await deleteRetiredCardTokens(db.prisma)).toBe(1);
    expect(await retiredOf(cardId)).toEqual([]);
    expect(await tokensOf(cardId)).toEqual([]);
  });
});
