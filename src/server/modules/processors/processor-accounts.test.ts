import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase, refusal, SETUP_TIMEOUT, testMerchant, type TestDatabase } from '@tests/support/procedure-test-support';
import { startCulqiSimulator, type CulqiSimulator } from '@tests/simulators/culqi/culqi-simulator';
import { startMercadoPagoSimulator, type MercadoPagoSimulator } from '@tests/simulators/mercadopago/mercadopago-simulator';
import { mercadoPagoKeys } from '@tests/simulators/test-keys';
import { signatureHeader } from '@tests/simulators/mercadopago/mercadopago-notifications';
import { connectCulqiAccount } from '@tests/support/culqi-account';
import type { ActingMerchant } from '@/server/modules/access/acting-merchant';
import { keyRing } from '@/server/platform/security/sealed-box';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { publishDraft, saveDraft } from '@/server/modules/routing/merchant-routing';
import { accountConfig, accountConfigSelect } from './connectors';
import { connectAccount, listAccounts, removeAccount, resealAccounts, testAccount, updateAccount } from './processor-accounts';
import { receiveNotification } from '@/server/modules/notifications/receive-notification';
import { processorSecretKeys } from './account-secrets';
import { chargeRequest } from '@tests/support/procedure-test-support';
import { settleNow } from '@/server/modules/charges/settle-now';
import { requestRefunds } from '@/server/modules/refunds/request-refunds';
import { processRefunds } from '@/server/modules/refunds/process-refunds';
import type { RefundLifecycle } from '@/server/modules/refunds/refund-view';
import { claimAttempt } from '@tests/support/claim-attempt';
import { getHeapStatistics } from 'node:v8';
import { env } from '@/env';
import { defaultBulkheadLimit } from '@/server/core/orchestration';
import { bulkheads } from './bulkheads';

// Merchants' processor accounts on the embedded database, against the processors' simulators
// (tests/simulators): secrets sealed and never kept in the clear, the connection test, removal
// rules, re-sealing under a new key, and notifications verified, deduplicated and turned into
// moves of the account's own payments only.

const CULQI_PORT = 45_310;
const MERCADOPAGO_PORT = 45_311;
vi.stubEnv('CULQI_API_URL', `http://127.0.0.1:${CULQI_PORT}`);
vi.stubEnv('CULQI_SECURE_URL', `http://127.0.0.1:${CULQI_PORT + 2}`);
vi.stubEnv('MERCADOPAGO_API_URL', `http://127.0.0.1:${MERCADOPAGO_PORT}`);

let db: TestDatabase;
let merchant: ActingMerchant;
let other: ActingMerchant;
let culqi: CulqiSimulator;
let mercadoPago: MercadoPagoSimulator;

beforeAll(async () => {
  culqi = await startCulqiSimulator({ port: CULQI_PORT, securePort: CULQI_PORT + 2 });
  mercadoPago = await startMercadoPagoSimulator({ port: MERCADOPAGO_PORT });
  db = await openTestDatabase();
  merchant = await testMerchant(db.prisma, 'ACCOUNTS');
  other = await testMerchant(db.prisma, 'OTHER');
}, SETUP_TIMEOUT);

afterAll(async () => {
  await db.close();
  await culqi.close();
  await mercadoPago.close();
});

const scope = (of = merchant) => ({ kind: 'one' as const, merchantId: of.id });

const connectedCulqi = (name = 'Culqi', of = merchant, register = true) =>
  connectCulqiAccount(db.prisma, culqi, scope(of), { name, register });

function tablesText(rows: unknown[]): string {
  return JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

describe("an account's calls in flight", () => {
  it("are listed with the account: this instance's calls to its processor, its bulkhead's limit and the calls kept back", async () => {
    const { account } = await connectedCulqi('Culqi with calls');
    const connector = { id: account.connectorId, timeoutMs: env().PROCESSOR_TIMEOUT_MS };
    const limit = defaultBulkheadLimit(connector.timeoutMs, getHeapStatistics().heap_size_limit);
    const listedCalls = async () =>
      (await listAccounts(db.prisma, scope())).accounts.find((each) => each.id === account.id)!.calls;
    expect(await listedCalls()).toEqual({ inFlight: 0, limit, refused: 0 });
    const release = bulkheads().for(connector).enter()!;
    try {
      expect(await listedCalls()).toEqual({ inFlight: 1, limit, refused: 0 });
    } finally {
      release();
    }
  });
});

describe('connecting an account', () => {
  it('seals the secret key and the webhook password: only a hint and the public key stay in the clear', async () => {
    const { account, keys, webhook } = await connectedCulqi();
    expect(account).toMatchObject({
      processor: 'culqi',
      secretHint: `sk_test_…${keys.secretKey.slice(-4)}`,
      publicKey: keys.publicKey,
      webhookUsername: webhook!.username,
    });
    expect(account.connectorId).toMatch(/^culqi-[0-9a-f]{10}$/);
    expect(account.notificationUrl).toMatch(new RegExp(`/api/notifications/culqi/${account.id}$`));
    const rows = await db.prisma.processorAccount.findMany({ where: { id: account.id } });
    const stored = tablesText(rows) + Buffer.from(rows[0]!.secretCiphertext).toString('latin1');
    expect(stored).not.toContain(keys.secretKey);
    expect(stored).not.toContain(webhook!.password);
    const listed = JSON.stringify(await listAccounts(db.prisma, scope()));
    expect(listed).not.toContain(keys.secretKey);
    expect(listed).not.toContain(webhook!.password);
    // The seal is bound to its account: the same bytes on another row do not open.
    const row = await db.prisma.processorAccount.findUniqueOrThrow({ where: { id: account.id }, select: accountConfigSelect });
    await expect(accountConfig(db.prisma, { ...row, id: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      /does not decrypt/,
    );
    expect((await accountConfig(db.prisma, row)).secretKey).toBe(keys.secretKey);
  });

  it('refuses methods the processor does not carry, and another merchant’s account is not found', async () => {
    const keys = mercadoPagoKeys();
    expect(
      await refusal(() =>
        connectAccount(
          db.prisma,
          scope(),
          undefined,
          { processor: 'mercadopago', name: 'MP', environment: 'test', methods: ['PAGOEFECTIVO'], ...keys },
          'a',
        ),
      ),
    ).toBe('VALIDATION');
    const { account } = await connectedCulqi('Ajena', other);
    expect(await refusal(() => updateAccount(db.prisma, scope(), account.id, { enabled: false }))).toBe('NOT_FOUND');
    expect(await refusal(() => testAccount(db.prisma, scope(), account.id))).toBe('NOT_FOUND');
  });

  it('keeps the connection test’s verdict: accepted for keys the processor knows, refused with its words otherwise', async () => {
    const known = await connectedCulqi('Conocida');
    expect(await testAccount(db.prisma, scope(), known.account.id)).toMatchObject({
      checkOk: true,
      checkMessage: 'Culqi aceptó la llave secreta',
    });
    const unknown = await connectedCulqi('Desconocida', merchant, false);
    const refused = await testAccount(db.prisma, scope(), unknown.account.id);
    expect(refused.checkOk).toBe(false);
    expect(refused.checkMessage).not.toBe('');
  });
});

describe('removing an account', () => {
  it('is refused while a rule names it or a payment went through it; a paused account is passed by', async () => {
    const { account } = await connectedCulqi('Usada');
    await saveDraft(db.prisma, scope(), { method: 'CARD', routes: [{ connector: account.connectorId, priority: 1 }] }, 'a');
    expect(await refusal(() => removeAccount(db.prisma, scope(), account.id))).toBe('STATE_CONFLICT');
    await publishDraft(db.prisma, scope(), { method: 'CARD' });
    const charged = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, `rm-${Date.now()}`, 'CARD'));
    expect(charged.transaction.additional_fields).toMatchObject({ processor: account.connectorId, attempt: 1 });
    expect(await refusal(() => removeAccount(db.prisma, scope(), account.id))).toBe('STATE_CONFLICT');

    // Paused: routing falls back to the platform default (the only route no longer holds).
    await updateAccount(db.prisma, scope(), account.id, { enabled: false });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const paused = await authorizeCharge(db.prisma, merchant, chargeRequest(merchant.code, `rm2-${Date.now()}`, 'CARD'));
    expect(paused.transaction.additional_fields).toMatchObject({ processor: 'sandbox-acquirer-a' });

    // A payment its processor has right now (an attempt in flight, not yet written) counts too.
    const carrying = await connectedCulqi('En curso');
    const claim = await claimAttempt(db.prisma, merchant, `rm3-${Date.now()}`, { connectorId: carrying.account.connectorId });
    expect(await refusal(() => removeAccount(db.prisma, scope(), carrying.account.id))).toBe('STATE_CONFLICT');
    await db.prisma.chargeClaim.delete({ where: { transactionId: claim.transactionId } });
    expect(await removeAccount(db.prisma, scope(), carrying.account.id)).toEqual({ removed: true });

    const unused = await connectedCulqi('Sin uso');
    expect(await removeAccount(db.prisma, scope(), unused.account.id)).toEqual({ removed: true });
    expect(await db.prisma.processorAccount.count({ where: { id: unused.account.id } })).toBe(0);
  });
});

describe('re-sealing under a new key', () => {
  it('moves every account to the new key, after which the old key is not needed', async () => {
    const { account, keys } = await connectedCulqi('Rotación');
    const old = await processorSecretKeys(db.prisma);
    const next = { kid: 'next-1', key: randomBytes(32) };
    const rotated = keyRing([next, old.current]);
    const result = await resealAccounts(db.prisma, rotated);
    expect(result.resealed).toBeGreaterThan(0);
    const row = await db.prisma.processorAccount.findUniqueOrThrow({ where: { id: account.id }, select: accountConfigSelect });
    expect(row.secretKeyId).toBe('next-1');
    expect((await accountConfig(db.prisma, row, keyRing([next]))).secretKey).toBe(keys.secretKey);
    expect(await resealAccounts(db.prisma, rotated)).toMatchObject({ resealed: 0 });
    // Back under the service's own key for the tests that follow.
    await resealAccounts(db.prisma, keyRing([old.current, next]));
  });
});

describe('notifications', () => {
  async function pendingOrder() {
    const connected = await connectedCulqi('Órdenes');
    await saveDraft(
      db.prisma,
      scope(),
      { method: 'PAGOEFECTIVO', routes: [{ connector: connected.account.connectorId, priority: 1 }] },
      'a',
    );
    await publishDraft(db.prisma, scope(), { method: 'PAGOEFECTIVO' });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const request = {
      ...chargeRequest(merchant.code, `ord-${Date.now()}`, 'QR'),
      payment_method: { method_name: 'PAGOEFECTIVO' as const, method_details: {} },
    };
    const charged = await authorizeCharge(db.prisma, merchant, request);
    expect(charged.transaction.state).toBe('PENDIENTE');
    // The processor's id is a column of its own, shown to the integrator in additional_fields.
    const stored = await db.prisma.transaction.findUniqueOrThrow({
      where: { id: charged.transaction.transaction_id },
      select: { processorReference: true, additionalFields: true },
    });
    expect(stored.processorReference).toMatch(/^ord_/);
    expect(stored.additionalFields).not.toHaveProperty('processor_reference');
    expect(charged.transaction.additional_fields!.processor_reference).toBe(stored.processorReference);
    return {
      ...connected,
      transactionId: charged.transaction.transaction_id,
      orderId: charged.transaction.additional_fields!.processor_reference as string,
    };
  }

  const stateOf = async (id: string) =>
    (await db.prisma.transaction.findUniqueOrThrow({ where: { id }, select: { state: true } })).state;

  it('moves a Culqi order Culqi says was paid, once; a forged event changes nothing', async () => {
    const { account, webhook, keys, transactionId, orderId } = await pendingOrder();
    const event = {
      object: 'event',
      id: 'evt_test_forged0000000001',
      type: 'order.status.changed',
      data: JSON.stringify({ id: orderId }),
    };
    const forged = await receiveNotification(db.prisma, {
      processor: 'culqi',
      accountId: account.id,
      headers: new Headers({ authorization: `Basic ${Buffer.from(`${webhook!.username}:wrong`).toString('base64')}` }),
      query: new URLSearchParams(),
      body: JSON.stringify(event),
    });
    expect(forged.kind).toBe('refused');
    // Verified, but the order is not paid at Culqi: what the event claims moves nothing.
    const claimed = await receiveNotification(db.prisma, {
      processor: 'culqi',
      accountId: account.id,
      headers: new Headers({
        authorization: `Basic ${Buffer.from(`${webhook!.username}:${webhook!.password}`).toString('base64')}`,
      }),
      query: new URLSearchParams(),
      body: JSON.stringify({ ...event, id: 'evt_test_claimed000000001', data: JSON.stringify({ id: orderId, state: 'paid' }) }),
    });
    expect(claimed).toEqual({ kind: 'received', duplicate: false, outcome: 'unchanged' });
    expect(await stateOf(transactionId)).toBe('PENDIENTE');

    // Culqi's event as it sent it (this test's service is not listening: it is handed over here).
    const paid = await culqi.payOrder(orderId);
    expect(culqi.deliveries().find((each) => each.event_id === paid.event_id)?.url).toBe(account.notificationUrl);
    const sent = await fetch(`${culqi.url}/v2/events/${paid.event_id}`, {
      headers: { authorization: `Bearer ${keys.secretKey}` },
    });
    const body = JSON.stringify((await sent.json()) as unknown);
    const headers = new Headers({
      authorization: `Basic ${Buffer.from(`${webhook!.username}:${webhook!.password}`).toString('base64')}`,
    });
    const first = await receiveNotification(db.prisma, {
      processor: 'culqi',
      accountId: account.id,
      headers,
      query: new URLSearchParams(),
      body,
    });
    expect(first).toEqual({ kind: 'received', duplicate: false, outcome: 'moved' });
    expect(await stateOf(transactionId)).toBe('AUTORIZADO');
    const again = await receiveNotification(db.prisma, {
      processor: 'culqi',
      accountId: account.id,
      headers,
      query: new URLSearchParams(),
      body,
    });
    expect(again).toEqual({ kind: 'received', duplicate: true, outcome: 'duplicate' });
    const entries = await db.prisma.lifecycleEntry.findMany({ where: { transactionId }, select: { state: true } });
    expect(entries.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(await db.prisma.processorNotification.count({ where: { accountId: account.id, externalId: paid.event_id } })).toBe(1);
  });

  it('never moves another account’s payment, even with this account’s valid credentials', async () => {
    const mine = await pendingOrder();
    const { account, webhook } = await connectedCulqi('Otra cuenta');
    const headers = new Headers({
      authorization: `Basic ${Buffer.from(`${webhook!.username}:${webhook!.password}`).toString('base64')}`,
    });
    await culqi.payOrder(mine.orderId);
    const body = JSON.stringify({
      object: 'event',
      id: 'evt_test_crossaccount00001',
      type: 'order.status.changed',
      data: JSON.stringify({ id: mine.orderId }),
    });
    const result = await receiveNotification(db.prisma, {
      processor: 'culqi',
      accountId: account.id,
      headers,
      query: new URLSearchParams(),
      body,
    });
    // The other account cannot even read the order at Culqi: not its own.
    expect(result).toEqual({ kind: 'received', duplicate: false, outcome: 'not_ours' });
    expect(await stateOf(mine.transactionId)).toBe('PENDIENTE');
  });

  it('refuses a Mercado Pago notification signed with another secret, or signed too long ago', async () => {
    const keys = mercadoPagoKeys();
    mercadoPago.addAccount({ accessToken: keys.secretKey, publicKey: keys.publicKey, webhookSecret: keys.webhookSecret });
    const { account } = await connectAccount(
      db.prisma,
      scope(),
      undefined,
      { processor: 'mercadopago', name: 'MP', environment: 'test', methods: ['CARD'], ...keys },
      'a',
    );
    const notify = (secret: string, ts: number) => {
      const requestId = 'f2b0c3d4-0000-4000-8000-000000000001';
      return receiveNotification(db.prisma, {
        processor: 'mercadopago',
        accountId: account.id,
        headers: new Headers({ 'x-signature': signatureHeader(secret, '123', requestId, ts), 'x-request-id': requestId }),
        query: new URLSearchParams('data.id=123&type=payment'),
        body: JSON.stringify({ id: 1, type: 'payment', action: 'payment.updated', data: { id: '123' } }),
      });
    };
    const now = Math.floor(Date.now() / 1000);
    expect(await notify('another-secret-0123456789', now)).toEqual({ kind: 'refused', reason: 'wrong x-signature' });
    expect(await notify(keys.webhookSecret, now - 3_601)).toEqual({ kind: 'refused', reason: 'stale x-signature' });
    // Signed right, about a payment Mercado Pago does not have for this account: recorded, nothing moves.
    expect(await notify(keys.webhookSecret, now)).toEqual({ kind: 'received', duplicate: false, outcome: 'not_ours' });
    expect(
      await receiveNotification(db.prisma, {
        processor: 'culqi',
        accountId: account.id,
        headers: new Headers(),
        query: new URLSearchParams(),
        body: '{}',
      }),
    ).toEqual({
      kind: 'unknown_account',
    });
  });

  /** A new merchant whose cards all go to its own Mercado Pago account, and that account's signed notification of a payment. */
  async function mercadoPagoMerchant(code: string) {
    const keys = mercadoPagoKeys();
    const { userId } = mercadoPago.addAccount({
      accessToken: keys.secretKey,
      publicKey: keys.publicKey,
      webhookSecret: keys.webhookSecret,
    });
    const owner = await testMerchant(db.prisma, `${code}${Date.now()}`);
    const own = { kind: 'one' as const, merchantId: owner.id };
    const { account } = await connectAccount(
      db.prisma,
      own,
      undefined,
      { processor: 'mercadopago', name: 'MP', environment: 'test', methods: ['CARD'], ...keys },
      'a',
    );
    await saveDraft(db.prisma, own, { method: 'CARD', routes: [{ connector: account.connectorId, priority: 1 }] }, 'a');
    await publishDraft(db.prisma, own, { method: 'CARD' });
    const notify = (paymentId: string, notificationId: number) => {
      const requestId = randomUUID();
      return receiveNotification(db.prisma, {
        processor: 'mercadopago',
        accountId: account.id,
        headers: new Headers({
          'x-signature': signatureHeader(keys.webhookSecret, paymentId, requestId, Math.floor(Date.now() / 1000)),
          'x-request-id': requestId,
        }),
        query: new URLSearchParams(`data.id=${paymentId}&type=payment`),
        body: JSON.stringify({ id: notificationId, type: 'payment', action: 'payment.updated', data: { id: paymentId } }),
      });
    };
    return { keys, owner, account, notify, userId };
  }

  it('resolves a refund Mercado Pago says it made, as its signed notification tells, once', async () => {
    const { keys, owner: refunder, notify } = await mercadoPagoMerchant('REFUNDS');
    const number = `rf-${Date.now()}`;
    const charged = await authorizeCharge(db.prisma, refunder, chargeRequest(refunder.code, number, 'CARD'));
    const paymentId = charged.transaction.additional_fields!.processor_reference as string;
    await settleNow(db.prisma, { transactionIds: [charged.transaction.transaction_id] });
    const [registered] = (
      await requestRefunds(db.prisma, refunder, {
        operations: [
          {
            type: 'TOTAL',
            merchant_operation_number: number,
            transaction_id: charged.transaction.transaction_id,
            refund_amount: '15000',
            additional_fields: { canal: 'web', reason: 'cliente', description: 'prueba' },
          },
        ],
      })
    ).operations;
    await processRefunds(db.prisma, 0);
    const stateOfRefund = async () =>
      (await db.prisma.refund.findUniqueOrThrow({ where: { id: registered!.refund_id }, select: { state: true } })).state;
    expect(await stateOfRefund()).toBe('IN_PROCESS');

    // Mercado Pago refunded it (the worker's call, its answer lost); then it says the payment changed.
    const refunded = await fetch(`${mercadoPago.url}/v1/payments/${paymentId}/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.secretKey}`, 'content-type': 'application/json', 'x-idempotency-key': 'lost-1' },
      body: '{}',
    });
    expect(refunded.status).toBe(201);
    expect(await notify(paymentId, 77)).toEqual({ kind: 'received', duplicate: false, outcome: 'moved' });
    expect(await stateOfRefund()).toBe('RESOLVED');
    expect(await notify(paymentId, 77)).toEqual({ kind: 'received', duplicate: true, outcome: 'duplicate' });
    const { lifecycle } = await db.prisma.refund.findUniqueOrThrow({ where: { id: registered!.refund_id } });
    expect((lifecycle as RefundLifecycle).map((entry) => entry.state)).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
  });

  it('records a notification that comes while the charge waits for Mercado Pago, and lets the answer write it once', async () => {
    const { keys, owner, account, notify, userId } = await mercadoPagoMerchant('INFLIGHT');
    // Mercado Pago makes the payment at once and answers 1.5 s later: its notification comes first,
    // and is read from Mercado Pago (at its normal speed again) while the charge still waits.
    mercadoPago.setMode('slow', { key: keys.secretKey, delayMs: 1_500 });
    const charging = authorizeCharge(db.prisma, owner, chargeRequest(owner.code, `if-${Date.now()}`, 'CARD'));
    let made: { id: number; external_reference: string | null } | undefined;
    await vi.waitFor(
      () => {
        made = mercadoPago.payments().find((payment) => payment.collector_id === userId);
        if (!made) throw new Error('not made yet');
      },
      { timeout: 4_000, interval: 20 },
    );
    mercadoPago.setMode('normal', { key: keys.secretKey });
    const transactionId = made!.external_reference!;
    expect(await notify(String(made!.id), 501)).toEqual({ kind: 'received', duplicate: false, outcome: 'unchanged' });
    // Still in flight after it: the claim is there, and nothing was written of the attempt.
    expect(await db.prisma.chargeClaim.findUnique({ where: { transactionId }, select: { connectorId: true } })).toEqual({
      connectorId: account.connectorId,
    });
    expect(await db.prisma.transaction.findUnique({ where: { id: transactionId } })).toBeNull();
    expect(
      await db.prisma.processorNotification.findMany({
        where: { accountId: account.id },
        select: { externalId: true, outcome: true },
      }),
    ).toEqual([{ externalId: '501', outcome: 'unchanged' }]);

    const charged = await charging;
    expect(charged.transaction).toMatchObject({ transaction_id: transactionId, state: 'AUTORIZADO' });
    const written = await db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    expect(written.state).toBe('AUTORIZADO');
    const lifecycle = await db.prisma.lifecycleEntry.findMany({ where: { transactionId }, orderBy: { id: 'asc' } });
    expect(lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    const events = await db.prisma.outboxEvent.findMany({
      where: { aggregateId: transactionId },
      orderBy: { seq: 'asc' },
      select: { type: true },
    });
    expect(events.map((event) => event.type)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.authorized',
    ]);
    expect(await db.prisma.chargeClaim.findUnique({ where: { transactionId } })).toBeNull();
    // Mercado Pago's next notification of the same approval finds it written, and moves nothing.
    expect(await notify(String(made!.id), 502)).toEqual({ kind: 'received', duplicate: false, outcome: 'unchanged' });
    expect(await db.prisma.transaction.count({ where: { operationId: written.operationId } })).toBe(1);
  });
});
