import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  chargeRequest,
  openTestDatabase,
  refusal,
  SETUP_TIMEOUT,
  testMerchant,
  type TestDatabase,
} from '@tests/support/procedure-test-support';
import { startCulqiSimulator, type CulqiSimulator } from '@tests/simulators/culqi/culqi-simulator';
import { connectCulqiAccount } from '@tests/support/culqi-account';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { expirePending } from '@/server/modules/charges/expire-pending';
import { authorizeCharge } from './authorize-charge';
import { cancelOperation } from './cancel-operation';
import { payPayment } from './payer/payer-actions';
import { receiveNotification } from '@/server/modules/notifications/receive-notification';
import { publishDraft, saveDraft } from '@/server/modules/routing/merchant-routing';
import { settleAuthorized } from './settle-authorized';
import { moveTransaction } from './moves/move-transaction';

// A DELETE whose processor must reverse or void the payment holds it while the processor is
// asked, outside any database transaction (cancel-operation.ts): the embedded database's one
// connection stays free for everyone else, nothing else moves the held payment, a second DELETE
// waits for the first's answer, and a refusal lets the payment go as it was.

const CULQI_PORT = 45_320;
vi.stubEnv('CULQI_API_URL', `http://127.0.0.1:${CULQI_PORT}`);
vi.stubEnv('CULQI_SECURE_URL', `http://127.0.0.1:${CULQI_PORT + 2}`);

let db: TestDatabase;
let culqi: CulqiSimulator;
let sequence = 0;
const number = (prefix: string) => `${prefix}-${Date.now()}-${(sequence += 1)}`;

beforeAll(async () => {
  culqi = await startCulqiSimulator({ port: CULQI_PORT, securePort: CULQI_PORT + 2 });
  db = await openTestDatabase();
}, SETUP_TIMEOUT);

afterAll(async () => {
  await db.close();
  await culqi.close();
});

/** A merchant whose CARD and PAGOEFECTIVO payments go to its own Culqi account. */
async function culqiMerchant(code: string) {
  const merchant = await testMerchant(db.prisma, `${code}${Date.now()}`);
  const scope = { kind: 'one' as const, merchantId: merchant.id };
  const connected = await connectCulqiAccount(db.prisma, culqi, scope);
  for (const method of ['CARD', 'PAGOEFECTIVO'] as const) {
    await saveDraft(db.prisma, scope, { method, routes: [{ connector: connected.account.connectorId, priority: 1 }] }, 'a');
    await publishDraft(db.prisma, scope, { method });
  }
  return { merchant, ...connected };
}

const row = (id: string) =>
  db.prisma.transaction.findUniqueOrThrow({
    where: { id },
    select: { state: true, undoUntil: true, updatedAt: true, processorResponse: true },
  });

async function authorizedCard(merchant: ActingMerchant) {
  const operation = number('hold');
  const charged = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, operation, 'CARD'));
  expect(charged.transaction.state).toBe('AUTORIZADO');
  return {
    operation,
    id: charged.transaction.transaction_id,
    chargeId: charged.transaction.additional_fields!.processor_reference,
  };
}

describe('a cancellation waiting for its processor', () => {
  it('holds the payment, not the database: other work goes on, the payment settles for no one, a second DELETE gets the same answer', async () => {
    const { merchant, keys } = await culqiMerchant('HOLD');
    const { operation, id, chargeId } = await authorizedCard(merchant);
    culqi.setMode('slow', { key: keys.secretKey, delayMs: 1_000 });
    let firstAnswered = false;
    const first = cancelOperation(db.prisma, merchant, operation).finally(() => (firstAnswered = true));
    await vi.waitFor(async () => expect((await row(id)).undoUntil).not.toBeNull(), { timeout: 5_000, interval: 20 });

    // While Culqi has not answered: the database answers others, and the cut-off passes this payment by.
    expect(await settleAuthorized(db.prisma, new Date(Date.now() + 60_000), { transactionIds: [id] })).toBe(0);
    expect(await db.prisma.transaction.count({ where: { merchantId: merchant.id } })).toBe(1);
    expect(firstAnswered).toBe(false);
    const second = cancelOperation(db.prisma, merchant, operation);

    const [one, two] = await Promise.all([first, second]);
    culqi.setMode('normal', { key: keys.secretKey });
    expect(one.operation.state).toBe('EXTORNADO');
    expect(two.operation).toEqual(one.operation);
    const stored = await row(id);
    expect(stored).toMatchObject({ state: 'EXTORNADO', undoUntil: null });
    expect((stored.processorResponse as { reverse_code?: unknown }).reverse_code).toMatch(/^\S+$/);
    // Culqi refunded the charge once, in full.
    const refunds = culqi.requests.filter(
      (request) =>
        request.method === 'POST' && request.path === '/v2/refunds' && request.credential === keys.secretKey.slice(0, 12),
    );
    expect(refunds).toHaveLength(1);
    expect(culqi.charges().find((charge) => charge.id === chargeId)).toMatchObject({ amount_refunded: 15000 });
    const lifecycle = await db.prisma.lifecycleEntry.findMany({ where: { transactionId: id }, select: { state: true } });
    expect(lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'EXTORNADO']);
    expect(await db.prisma.outboxEvent.count({ where: { aggregateId: id, type: 'transaction.reversed' } })).toBe(1);
  });

  it('lets the payment go as it was when the processor cannot be asked: AUTORIZADO, settled at the next cut-off', async () => {
    const { merchant, keys } = await culqiMerchant('HOLDFAIL');
    const { operation, id } = await authorizedCard(merchant);
    const before = await row(id);
    culqi.setMode('outage', { key: keys.secretKey });
    expect(await refusal(() => cancelOperation(db.prisma, merchant, operation))).toBe('UNAVAILABLE');
    culqi.setMode('normal', { key: keys.secretKey });
    // Released, and its updated_at (the cut-off's clock) is still the authorization's.
    expect(await row(id)).toEqual({ ...before, undoUntil: null });
    expect(await settleAuthorized(db.prisma, new Date(Date.now() + 1_000), { transactionIds: [id] })).toBe(1);
  });
});

describe('a held payment', () => {
  const hold = (id: string) => db.prisma.$executeRaw`
    UPDATE transactions SET undo_until = ${new Date(Date.now() + 60_000)} WHERE id = ${id}::uuid`;
  const release = (id: string) => db.prisma.$executeRaw`UPDATE transactions SET undo_until = NULL WHERE id = ${id}::uuid`;

  it('is moved by no one but its cancellation', async () => {
    const merchant = await testMerchant(db.prisma, `HELDMOVE${Date.now()}`);
    const charged = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, number('mv'), 'QR'));
    const id = charged.transaction.transaction_id;
    await hold(id);
    const expire = { stateReason: 'prueba', expiresAt: null };
    expect(await db.prisma.$transaction((tx) => moveTransaction(tx, id, 'PENDIENTE', 'EXPIRADO', expire))).toBeNull();
    expect((await row(id)).state).toBe('PENDIENTE');
    const moved = await db.prisma.$transaction((tx) =>
      moveTransaction(tx, id, 'PENDIENTE', 'CANCELADO', { ...expire, undoUntil: null }, new Date(), { overHold: true }),
    );
    expect(moved).not.toBeNull();
    expect(await row(id)).toMatchObject({ state: 'CANCELADO', undoUntil: null });
  });

  it('is not paid on its payer page nor expired by the worker until its hold ends', async () => {
    const merchant = await testMerchant(db.prisma, `HELDQR${Date.now()}`);
    const charged = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, number('qr'), 'QR'));
    const id = charged.transaction.transaction_id;
    const { payerToken } = await db.prisma.transaction.findUniqueOrThrow({ where: { id }, select: { payerToken: true } });
    await hold(id);
    expect(await payPayment(db.prisma, payerToken!)).toEqual({ kind: 'unchanged', state: 'PENDIENTE' });
    await db.prisma.transaction.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect(await expirePending(db.prisma)).toBe(0);
    expect((await row(id)).state).toBe('PENDIENTE');
    await release(id);
    expect(await expirePending(db.prisma)).toBe(1);
    expect((await row(id)).state).toBe('EXPIRADO');
  });

  it('refuses a processor’s notification for now (503, not recorded), and takes it when sent again', async () => {
    const { merchant, account, webhook, keys } = await culqiMerchant('HELDORDER');
    const request = {
      ...chargeRequest(merchant.code, number('ord'), 'QR'),
      payment_method: { method_name: 'PAGOEFECTIVO' as const, method_details: {} },
    };
    const charged = await authorizeCharge(db.prisma, merchant, request);
    const id = charged.transaction.transaction_id;
    const orderId = charged.transaction.additional_fields!.processor_reference as string;
    await hold(id);
    const paid = await culqi.payOrder(orderId);
    const sent = await fetch(`${culqi.url}/v2/events/${paid.event_id}`, {
      headers: { authorization: `Bearer ${keys.secretKey}` },
    });
    const body = JSON.stringify((await sent.json()) as unknown);
    const notify = async () =>
      receiveNotification(db.prisma, {
        processor: 'culqi',
        accountId: account.id,
        headers: new Headers({
          authorization: `Basic ${Buffer.from(`${webhook!.username}:${webhook!.password}`).toString('base64')}`,
        }),
        query: new URLSearchParams(),
        body,
      });
    expect(await notify()).toEqual({ kind: 'unavailable' });
    expect(await db.prisma.processorNotification.count({ where: { accountId: account.id } })).toBe(0);
    expect((await row(id)).state).toBe('PENDIENTE');
    await release(id);
    expect(await notify()).toEqual({ kind: 'received', duplicate: false, outcome: 'moved' });
    expect((await row(id)).state).toBe('AUTORIZADO');
  });
});
