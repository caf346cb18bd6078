import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorBattery } from '@tests/support/connector-battery';
import { card, endpointsOf, testAccount } from '@tests/support/connector-harnesses';
import { testContext } from '@tests/support/connector-context';
import { izipayHarness, izipayKeys } from '@tests/support/izipay-harness';
import { startIzipaySimulator, type IzipaySimulator } from '@tests/simulators/izipay/izipay-simulator';
import { DECLINE_CLASSES } from '@/server/core/domain/decline-class';
import type { IncomingNotification, PaymentConnector } from '../connector';
import type { ProcessorAccountConfig } from '../processor-account';
import { checkProcessorAccount, processorConnector } from '../registry';
import { expandCodes, IZIPAY_DECLINE_CLASSES, ISSUER_CODES, izipayDeclineClass } from './izipay-codes';
import { verifyKrHash } from './izipay-notifications';
import { LYRA_DEMO_SHOP, LYRA_SIMULATED_IPN_ANSWER, LYRA_SIMULATED_IPN_HASH } from '@tests/simulators/izipay/lyra-simulated-ipn';

connectorBattery([await izipayHarness()]);

// Izipay's own: the IPN's kr-hash, the codes table against the research, the account check, the
// capture and refund rules the battery does not reach.

function form(fields: Record<string, string>): IncomingNotification {
  return {
    headers: new Headers({ 'content-type': 'application/x-www-form-urlencoded' }),
    query: new URLSearchParams(),
    body: new URLSearchParams(fields).toString(),
    receivedAt: new Date(),
  };
}

const hmac = (key: string, message: string) => createHmac('sha256', key).update(message).digest('hex');

describe('Izipay specifics', () => {
  let simulator: IzipaySimulator;
  let receiver: Server;
  let received: string[] = [];
  let receiverUrl: string;
  let keys: { shopId: string; password: string };
  let account: ProcessorAccountConfig;
  let connector: PaymentConnector;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200).end('OK');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ipn`;
    simulator = await startIzipaySimulator({ captureDelayMs: 60_000 });
    keys = izipayKeys();
    simulator.addAccount(keys);
    account = {
      ...testAccount('izipay', simulator.url, { publicKey: keys.shopId, secretKey: keys.password }),
      notificationUrl: receiverUrl,
    };
    connector = processorConnector(account, endpointsOf({ izipayApi: simulator.url, timeoutMs: 2_000 }));
  });

  afterAll(async () => {
    await simulator.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  async function approved(capture: 'automatic' | 'manual' = 'automatic') {
    const context = testContext({ transactionId: randomUUID(), now: new Date(), capture });
    const result = await connector.authorize(card('4970100000000055'), context);
    if (result.outcome !== 'approved') throw new Error(`expected an approval, got ${result.outcome}`);
    const reference = {
      transactionId: context.transactionId,
      method: 'CARD' as const,
      amount: context.amount,
      currency: context.currency,
      card: null,
      processorReference: result.processorReference ?? null,
      createdAt: context.now,
    };
    return { reference, uuid: result.processorReference! };
  }

  describe('kr-hash', () => {
    it('is the HMAC-SHA256 of kr-answer under the REST password: Lyra’s published IPN verifies (research §7.1)', async () => {
      const { shopId, password } = LYRA_DEMO_SHOP;
      expect(verifyKrHash(LYRA_SIMULATED_IPN_ANSWER, LYRA_SIMULATED_IPN_HASH, password)).toBe(true);
      // Not under the demo shop's HMAC key (the browser return's), nor with one character changed.
      expect(verifyKrHash(LYRA_SIMULATED_IPN_ANSWER, LYRA_SIMULATED_IPN_HASH, '38453613e7f44dc58732bad3dca2bca3')).toBe(false);
      expect(verifyKrHash(LYRA_SIMULATED_IPN_ANSWER.replace('990', '991'), LYRA_SIMULATED_IPN_HASH, password)).toBe(false);
      // The whole notification as Lyra posts it: verified, then the order asked for (unknown here: nothing moves).
      simulator.addAccount({ shopId, password });
      const demo = processorConnector(
        { ...account, publicKey: shopId, secretKey: password },
        endpointsOf({ izipayApi: simulator.url, timeoutMs: 2_000 }),
      );
      const fields = {
        'kr-answer-type': 'V4/Payment',
        'kr-hash': LYRA_SIMULATED_IPN_HASH,
        'kr-hash-key': 'password',
        'kr-hash-algorithm': 'sha256_hmac',
        'kr-answer': LYRA_SIMULATED_IPN_ANSWER,
      };
      expect(await demo.notification(form(fields))).toStrictEqual({
        outcome: 'accepted',
        externalId: LYRA_SIMULATED_IPN_HASH,
        kind: 'V4/Payment',
        resource: '971b6b3b9e364e87bfbe9886b3a75df4',
        transactionId: null,
        change: { kind: 'none' },
      });
      expect(await connector.notification(form(fields))).toMatchObject({ outcome: 'refused', reason: 'wrong kr-hash' });
    });

    it('accepts a valid IPN, then reads the order from Izipay; a replay has the same externalId', async () => {
      const { uuid, reference } = await approved();
      received = [];
      const deliveries = await simulator.sendIpn(uuid);
      expect(deliveries[0]!.status).toBe(200);
      const body = received[0]!;
      const notification = { ...form({}), body };
      const first = await connector.notification(notification);
      expect(first).toMatchObject({
        outcome: 'accepted',
        kind: 'V4/Payment',
        resource: uuid,
        transactionId: reference.transactionId,
        change: { kind: 'approved', brandTransactionId: uuid, processorReference: uuid },
      });
      await simulator.replayIpn(deliveries[0]!.ipn_id);
      const replayed = await connector.notification({ ...notification, body: received.at(-1)! });
      expect(replayed.outcome === 'accepted' && first.outcome === 'accepted' && replayed.externalId).toBe(
        first.outcome === 'accepted' && first.externalId,
      );
    });

    it('never trusts the body: a verified IPN claiming PAID for a cancelled payment reports it voided', async () => {
      const { uuid, reference } = await approved();
      received = [];
      await simulator.sendIpn(uuid);
      const stale = received[0]!;
      expect((await connector.reverse(reference)).outcome).toBe('reversed');
      const result = await connector.notification({ ...form({}), body: stale });
      expect(result).toMatchObject({ outcome: 'accepted', change: { kind: 'voided' } });
    });

    it('refuses a forged kr-answer, a hash under another key, a browser return and a missing hash', async () => {
      const { uuid } = await approved();
      received = [];
      await simulator.sendIpn(uuid);
      const genuine = new URLSearchParams(received[0]);
      const answer = genuine.get('kr-answer')!;
      const forged = answer.replace('"PAID"', '"UNPAID"');
      const base = Object.fromEntries(genuine.entries());
      expect(await connector.notification(form({ ...base, 'kr-answer': forged }))).toMatchObject({ outcome: 'refused' });
      expect(
        await connector.notification(form({ ...base, 'kr-hash': hmac('testpassword_someoneelse123', answer) })),
      ).toMatchObject({ outcome: 'refused' });
      expect(await connector.notification(form({ ...base, 'kr-hash-key': 'sha256_hmac' }))).toMatchObject({ outcome: 'refused' });
      const withoutHash = Object.fromEntries(Object.entries(base).filter(([name]) => name !== 'kr-hash'));
      expect(await connector.notification(form(withoutHash))).toMatchObject({ outcome: 'refused' });
      // The same IPN under another account's password is refused too.
      const other = processorConnector(
        { ...account, secretKey: 'testpassword_anotherShopPassword1' },
        endpointsOf({ izipayApi: simulator.url }),
      );
      expect(await other.notification(form(base))).toMatchObject({ outcome: 'refused', reason: 'wrong kr-hash' });
    });
  });

  describe('codes', () => {
    it('classes every code named in research §8', () => {
      const research = readFileSync('docs/processors/sources/izipay-api.md', 'utf8');
      const section = research.slice(research.indexOf('## 8.'), research.indexOf('## 9.'));
      const named = new Set<string>();
      // Every "PREFIX_n" and the ranges and lists that follow it in a table cell or list item.
      for (const match of section.matchAll(
        /\b(?:ACQ|AUTH|PSP|INT)_\d+(?:\s*(?:[–-]\s*(?:[A-Z]+_)?\d+|,\s*(?:[A-Z]+_)?\d+(?:\s*[–-]\s*(?:[A-Z]+_)?\d+)?))*/g,
      )) {
        for (const code of expandCodes(match[0])) named.add(code);
      }
      expect(named.size).toBeGreaterThan(300);
      const missing = [...named].filter((code) => IZIPAY_DECLINE_CLASSES[code] === undefined);
      expect(missing).toEqual([]);
      for (const code of named) expect(DECLINE_CLASSES).toContain(izipayDeclineClass(code));
      for (const [code, declineClass] of Object.entries(ISSUER_CODES)) expect(izipayDeclineClass(code)).toBe(declineClass);
    });

    it('follows the research’s classes where they matter to routing', () => {
      expect(izipayDeclineClass('51')).toBe('soft');
      expect(izipayDeclineClass('54')).toBe('hard');
      expect(izipayDeclineClass('PSP_099')).toBe('soft');
      expect(izipayDeclineClass('PSP_031')).toBe('hard');
      expect(izipayDeclineClass('PSP_728')).toBe('soft');
      expect(izipayDeclineClass('PSP_729')).toBe('technical');
      expect(izipayDeclineClass('AUTH_149')).toBe('sca_required');
      expect(izipayDeclineClass('INT_905')).toBe('technical');
      expect(izipayDeclineClass('INT_040')).toBe('hard');
      expect(izipayDeclineClass('3DS_CHALLENGE')).toBe('sca_required');
      expect(izipayDeclineClass('PSP_9999')).toBe('hard');
    });
  });

  describe('account check', () => {
    it('accepts the shop’s credentials, and says why it refuses others', async () => {
      const endpoints = endpointsOf({ izipayApi: simulator.url });
      expect(await checkProcessorAccount(account, endpoints)).toMatchObject({ ok: true });
      expect(await checkProcessorAccount({ ...account, secretKey: 'testpassword_wrongwrongwrong' }, endpoints)).toMatchObject({
        ok: false,
        message: expect.stringContaining('INT_905') as string,
      });
      expect(await checkProcessorAccount({ ...account, environment: 'live' }, endpoints)).toMatchObject({
        ok: false,
        message: expect.stringContaining('prodpassword_') as string,
      });
    });
  });

  describe('before Izipay remits (capture delay)', () => {
    it('cancels an authorization not yet remitted, and refunds whole by cancelling', async () => {
      const first = await approved();
      expect(await connector.reverse(first.reference)).toMatchObject({ outcome: 'reversed' });
      expect(simulator.transaction(first.uuid)).toMatchObject({ detailedStatus: 'CANCELLED', status: 'UNPAID' });
      const second = await approved();
      const refund = { ...second.reference, refundId: randomUUID(), refundAmount: 15_000n, registeredAt: new Date() };
      expect(await connector.refund(refund)).toStrictEqual({ outcome: 'resolved' });
      expect(await connector.refund(refund)).toStrictEqual({ outcome: 'resolved' });
      // A part waits for the remittance (Izipay: PSP_076).
      const third = await approved();
      const part = { ...third.reference, refundId: randomUUID(), refundAmount: 5_000n, registeredAt: new Date() };
      expect(await connector.refund(part)).toStrictEqual({ outcome: 'in_process' });
      expect(simulator.transaction(third.uuid)).toMatchObject({ detailedStatus: 'AUTHORISED' });
    });

    it('captures a part: lowers the amount, then validates; never more than authorized', async () => {
      const { reference, uuid } = await approved('manual');
      expect(await connector.capture({ ...reference, captureAmount: 20_000n })).toMatchObject({ outcome: 'refused' });
      expect(await connector.capture({ ...reference, captureAmount: 12_345n })).toStrictEqual({ outcome: 'captured' });
      expect(simulator.transaction(uuid)).toMatchObject({ amount: 12_345, detailedStatus: 'AUTHORISED' });
      const sent = simulator.requests.filter((request) => request.body.includes(uuid)).map((request) => request.path);
      expect(sent).toEqual(['/api-payment/V4/Transaction/Update', '/api-payment/V4/Transaction/Validate']);
    });
  });

  it('sends the account’s notification URL as ipnTargetUrl, and card data in no capture, refund or inquiry', async () => {
    const from = simulator.requests.length;
    const { reference } = await approved('manual');
    await connector.capture({ ...reference, captureAmount: 10_000n });
    await connector.status(reference);
    await connector.reverse(reference);
    const sent = simulator.requests.slice(from);
    expect(sent.filter((request) => request.body.includes('4970100000000055')).map((request) => request.path)).toEqual([
      '/api-payment/V4/Charge/CreatePayment',
    ]);
    const create = simulator.requests.slice(from).find((request) => request.path.endsWith('/Charge/CreatePayment'))!;
    expect(JSON.parse(create.body)).toMatchObject({
      ipnTargetUrl: receiverUrl,
      orderId: expect.any(String) as string,
      currency: 'PEN',
    });
  });
});
