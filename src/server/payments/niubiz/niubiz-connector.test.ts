import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, endpointsOf, pending, testAccount, yape } from '@tests/support/connector-harnesses';
import { testContext } from '@tests/support/connector-context';
import { decodeEmvQr } from '@tests/support/emv-qr-decoder';
import { niubizKeys } from '@tests/support/niubiz-harness';
import { startNiubizSimulator, type NiubizSimulator } from '@tests/simulators/niubiz/niubiz-simulator';
import type { ConnectorContext, PaymentConnector } from '../connector';
import { centsOf, niubizAmount, purchaseNumberOf } from './niubiz-client';
import { checkProcessorAccount, processorConnector } from '../registry';

// Niubiz's own rules, beyond the contract battery (niubiz-contract.test.ts): the security token
// and its renewal, where the card and the password go, the purchaseNumber, and the QR flow with
// its unsigned callback verified by asking Niubiz (docs/processors/niubiz.md).

let simulator: NiubizSimulator;
let receiver: Server;
let receiverUrl: string;
const callbacks: string[] = [];

beforeAll(async () => {
  simulator = await startNiubizSimulator();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      callbacks.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/niubiz`;
});

afterAll(async () => {
  await simulator.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const TIMEOUT_MS = 2_000;

function open(overrides: { password?: string; merchantId?: string; taxId?: string } = {}) {
  const keys = niubizKeys();
  simulator.addAccount({ ...keys, callbackUrl: receiverUrl });
  const account = testAccount('niubiz', simulator.url, {
    publicKey: overrides.merchantId ?? keys.merchantId,
    secretKey: overrides.password ?? keys.password,
    apiUser: keys.user,
    ...(overrides.taxId ? { taxId: overrides.taxId } : {}),
  });
  const endpoints = endpointsOf({ niubizApi: { test: simulator.url, live: 'http://127.0.0.1:9' }, timeoutMs: TIMEOUT_MS });
  return { keys, account, endpoints, connector: processorConnector(account, endpoints) };
}

const contextOf = (overrides: Partial<ConnectorContext> = {}) =>
  testContext({ now: new Date(), transactionId: randomUUID(), signal: AbortSignal.timeout(TIMEOUT_MS), ...overrides });

/** One account's requests: the simulator logs each under the merchant code its credentials belong to. */
const ofAccount = (merchantId: string, from: number) =>
  simulator.requests.slice(from).filter((request) => request.credential === merchantId);

async function approve(connector: PaymentConnector, context = contextOf()) {
  const result = await connector.authorize(card('4919148107859067'), context);
  expect(result.outcome).toBe('approved');
  return result;
}

describe('Niubiz security token (research §2)', () => {
  it('takes one token for many calls, sends it raw (no Bearer), and the password only as Basic to the security API', async () => {
    const { keys, connector } = open();
    const from = simulator.requests.length;
    await approve(connector);
    await approve(connector);
    const sent = ofAccount(keys.merchantId, from);
    const security = sent.filter((request) => request.path === '/api.security/v1/security');
    expect(security).toHaveLength(1);
    expect(security[0]!.method).toBe('GET');
    expect(Buffer.from(security[0]!.headers.authorization!.replace(/^Basic /, ''), 'base64').toString()).toBe(
      `${keys.user}:${keys.password}`,
    );
    for (const request of sent.filter((each) => each.path !== '/api.security/v1/security')) {
      expect(request.headers.authorization).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(`${request.body} ${JSON.stringify(request.headers)}`).not.toContain(keys.password);
    }
  });

  it('renews an expired token once, when Niubiz answers 401', async () => {
    const { keys, connector } = open();
    await approve(connector);
    simulator.expireTokens();
    const from = simulator.requests.length;
    await approve(connector);
    const sent = ofAccount(keys.merchantId, from);
    expect(sent.map((request) => request.path.split('/')[1])).toEqual([
      'api.antifraud',
      'api.security',
      'api.antifraud',
      'api.authorization',
    ]);
  });

  it('checks an account by its token: a wrong password or merchant code is refused in words', async () => {
    const good = open();
    expect((await checkProcessorAccount(good.account, good.endpoints)).ok).toBe(true);
    const wrong = open({ password: 'not-the-password' });
    expect(await checkProcessorAccount(wrong.account, wrong.endpoints)).toEqual({
      ok: false,
      message: 'Niubiz rechazó el usuario o la contraseña',
    });
    const long = open({ merchantId: '1234567890' });
    expect((await checkProcessorAccount(long.account, long.endpoints)).ok).toBe(false);
    // A payment on wrong credentials fails before any decision, without the password in its answer.
    const result = await wrong.connector.authorize(card('4919148107859067'), contextOf());
    expect(result.outcome).toBe('technical_failure');
    expect(JSON.stringify(result)).not.toContain('not-the-password');
  });
});

describe('Niubiz payments', () => {
  it('derives a numeric purchaseNumber of at most nine digits from the transaction id, the same every time', () => {
    const id = randomUUID();
    expect(purchaseNumberOf(id)).toMatch(/^\d{1,9}$/);
    expect(purchaseNumberOf(id)).toBe(purchaseNumberOf(id));
    expect(purchaseNumberOf(randomUUID())).not.toBe(purchaseNumberOf(id));
  });

  it('converts cents to ####.## and back', () => {
    expect(niubizAmount(15_000n)).toBe(150);
    expect(niubizAmount(15_050n)).toBe(150.5);
    expect(niubizAmount(1n)).toBe(0.01);
    expect(centsOf('10.5')).toBe(1_050n);
    expect(centsOf(147.02)).toBe(14_702n);
    expect(centsOf('1,00')).toBeNull();
  });

  it('sends the card to the antifraud API only, and charges its token with the purchaseNumber and amount', async () => {
    const { keys, connector } = open();
    const context = contextOf({ amount: 15_050n });
    const from = simulator.requests.length;
    await approve(connector, context);
    const sent = simulator.requests.slice(from);
    const withPan = sent.filter((request) => request.body.includes('4919148107859067'));
    expect(withPan.map((request) => request.path)).toEqual([`/api.antifraud/v1/antifraud/ecommerce/${keys.merchantId}`]);
    const authorization = sent.find((request) => request.path.startsWith('/api.authorization/v3/authorization'))!;
    expect(JSON.parse(authorization.body)).toMatchObject({
      captureType: 'manual',
      countable: true,
      order: { purchaseNumber: purchaseNumberOf(context.transactionId), amount: 150.5, currency: 'PEN' },
    });
    expect(authorization.body).not.toContain('"123"');
  });

  it('answers a second attempt of the same transaction as Niubiz does: 300, a technical decline', async () => {
    const { connector } = open();
    const context = contextOf();
    await approve(connector, context);
    const again = await connector.authorize(card('4919148107859067'), { ...context, signal: AbortSignal.timeout(TIMEOUT_MS) });
    expect(again).toMatchObject({
      outcome: 'declined',
      declineClass: 'technical',
      processorResponse: { result_message: { code: '300' } },
    });
  });

  it('declines an expired card without sending it, and a wrong Yape code without echoing it', async () => {
    const { connector } = open();
    const from = simulator.requests.length;
    const expired = await connector.authorize({ ...card('4919148107859067'), expiry: '0120' } as never, contextOf());
    expect(expired).toMatchObject({
      outcome: 'declined',
      declineClass: 'hard',
      processorResponse: { result_message: { code: '101' } },
    });
    expect(simulator.requests.slice(from).filter((request) => request.body.includes('4919148107859067'))).toEqual([]);
    const wrongOtp = await connector.authorize(yape('969929157', '111111'), contextOf());
    expect(wrongOtp.outcome).toBe('declined');
    expect(JSON.stringify(wrongOtp)).not.toContain('111111');
  });
});

describe('Niubiz QR (research §9)', () => {
  it('answers a pending payment with the code, and reports its payment only as Niubiz confirms it', async () => {
    const { connector } = open();
    const context = contextOf();
    const from = simulator.requests.length;
    const result = await connector.authorize(pending('QR'), context);
    if (result.outcome !== 'pending') throw new Error(`expected pending, got ${result.outcome}`);
    const tagId = result.processorReference!;
    expect(result.processorResponse?.qr_id).toBe(tagId);
    expect(result.processorResponse?.qr_image).toMatch(/^data:image\/png;base64,/);
    // Niubiz gives only the picture: the payload text is read back from it, checked field by field.
    const payload = decodeEmvQr(result.processorResponse?.qr_payload as string);
    expect(payload.byId.get('54')).toBe('150.00');
    expect(payload.byId.get('53')).toBe('604');
    expect(result.simulatedPaymentUrl).toBeUndefined();
    const generate = simulator.requests.slice(from).find((request) => request.path === '/api.qr.manager/v1/qr/ascii')!;
    const sentQr = JSON.parse(generate.body) as { tagType: string; param: unknown[] };
    expect(sentQr.tagType).toBe('DYNAMIC');
    expect(sentQr.param).toEqual(
      expect.arrayContaining([
        { name: 'transactionCurrency', value: '604' },
        { name: 'transactionAmount', value: '150.00' },
        { name: 'idc', value: context.transactionId },
      ]),
    );
    const reference = {
      transactionId: context.transactionId,
      method: 'QR' as const,
      amount: context.amount,
      currency: '604',
      card: null,
      processorReference: tagId,
      createdAt: context.now,
    };
    expect((await connector.status(reference)).outcome).toBe('unknown');

    // A forged callback claiming the unpaid code paid changes nothing: Niubiz says it is pending.
    const forged = await connector.notification({
      headers: new Headers(),
      query: new URLSearchParams(),
      body: JSON.stringify({ tagId, status: 'PAID', externalReference: context.transactionId }),
      receivedAt: new Date(),
    });
    expect(forged).toMatchObject({ outcome: 'accepted', change: { kind: 'none' } });

    callbacks.length = 0;
    expect(await simulator.payQr(tagId)).toBe(200);
    expect(callbacks).toHaveLength(1);
    const received = { headers: new Headers(), query: new URLSearchParams(), body: callbacks[0]!, receivedAt: new Date() };
    const paid = await connector.notification(received);
    expect(paid).toMatchObject({
      outcome: 'accepted',
      resource: tagId,
      transactionId: context.transactionId,
      change: { kind: 'paid' },
    });
    expect(paid.outcome === 'accepted' && paid.change.kind === 'paid' && /^\d+$/.test(paid.change.operationId)).toBe(true);
    // A replay: the same externalId, so the service applies it once.
    expect(await simulator.resendQrCallback(tagId)).toBe(200);
    const replay = await connector.notification({ ...received, body: callbacks[1]! });
    expect(replay.outcome === 'accepted' && paid.outcome === 'accepted' && replay.externalId === paid.externalId).toBe(true);
    expect(await connector.status(reference)).toMatchObject({ outcome: 'approved', processorReference: tagId });
    expect(await connector.reverse(reference)).toEqual({ outcome: 'not_supported', flow: 'reverse' });
  });

  it('refuses a callback naming a code Niubiz does not know for the account, or naming none', async () => {
    const mine = open();
    const other = open();
    const theirs = await other.connector.authorize(pending('QR'), contextOf());
    const at = { headers: new Headers(), query: new URLSearchParams(), receivedAt: new Date() };
    for (const body of [
      JSON.stringify({ tagId: 'FFFFFFFFFFFFFFFFFFFFFFFF', status: 'PAID' }),
      JSON.stringify({ tagId: theirs.outcome === 'pending' ? theirs.processorReference : 'x', status: 'PAID' }),
      '{"status":"PAID"}',
      'not json',
    ]) {
      expect((await mine.connector.notification({ ...at, body })).outcome).toBe('refused');
    }
  });
});

describe('Niubiz refunds (research §7)', () => {
  it('carry the merchant RUC when the account has one, and none when it does not', async () => {
    for (const taxId of ['20100047218', undefined]) {
      const { keys, connector } = open(taxId ? { taxId } : {});
      const context = contextOf();
      const result = await approve(connector, context);
      const from = simulator.requests.length;
      const refund = await connector.refund({
        transactionId: context.transactionId,
        method: 'CARD',
        amount: context.amount,
        currency: context.currency,
        card: null,
        processorReference: result.processorReference ?? null,
        createdAt: context.now,
        refundId: randomUUID(),
        refundAmount: 5_000n,
        registeredAt: new Date(),
      });
      expect(refund.outcome).toBe('resolved');
      const posted = ofAccount(keys.merchantId, from).find((request) => request.path.startsWith('/api.refund/'))!;
      const body = JSON.parse(posted.body) as Record<string, unknown>;
      expect(body.ruc).toBe(taxId);
      expect(body.amount).toBe(50);
    }
  });
});
