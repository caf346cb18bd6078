import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEmvQr } from '@tests/support/emv-qr-decoder';
import { niubizKeys } from '@tests/support/niubiz-harness';
import { startNiubizSimulator, type NiubizSimulator } from './niubiz-simulator';
import { APPROVED_CARDS, DECLINED_CARDS } from './niubiz-test-data';

// The simulator against Niubiz's documented behaviour (docs/processors/sources/niubiz-api.md,
// "§N"), as a client that is not the connector sees it.

let simulator: NiubizSimulator;
let receiver: Server;
let receiverUrl: string;
const received: { body: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  simulator = await startNiubizSimulator();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
  await simulator.close();
  await new Promise((resolve) => receiver.close(resolve));
});

type Json = Record<string, unknown>;

/** A member deep in an answer, as text. */
const at = (value: unknown, ...keys: string[]): string =>
  String(keys.reduce<unknown>((member, key) => (member as Record<string, unknown> | undefined)?.[key], value));

async function call(method: string, path: string, options: { token?: string; body?: unknown; basic?: string } = {}) {
  const response = await fetch(`${simulator.url}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: options.token } : {}),
      ...(options.basic ? { authorization: `Basic ${Buffer.from(options.basic).toString('base64')}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // text/plain
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', text, json };
}

async function account() {
  const keys = niubizKeys();
  simulator.addAccount({ ...keys, callbackUrl: receiverUrl });
  const token = (await call('GET', '/api.security/v1/security', { basic: `${keys.user}:${keys.password}` })).text;
  return { ...keys, token };
}

let sequence = 100_000;
const nextPurchase = () => String((sequence += 1));

async function pay(
  merchant: { merchantId: string; token: string },
  pan: string,
  options: { email?: string; countable?: boolean; amount?: number | string; purchaseNumber?: string; register?: boolean } = {},
) {
  const purchaseNumber = options.purchaseNumber ?? nextPurchase();
  const amount = options.amount ?? 25.5;
  const antifraud = await call('POST', `/api.antifraud/v1/antifraud/ecommerce/${merchant.merchantId}`, {
    token: merchant.token,
    body: {
      channel: 'web',
      cardHolder: { firstName: 'Ana', lastName: 'Quispe', email: options.email ?? 'ana@example.pe' },
      card: { cardNumber: pan, expirationMonth: '12', expirationYear: '2030', cvv2: '123' },
      order: { purchaseNumber, amount, currency: 'PEN' },
    },
  });
  if (antifraud.status !== 200) return { antifraud, authorization: null, purchaseNumber };
  const authorization = await call('POST', `/api.authorization/v3/authorization/ecommerce/${merchant.merchantId}`, {
    token: merchant.token,
    body: {
      channel: 'web',
      captureType: 'manual',
      countable: options.countable ?? true,
      order: { tokenId: at(antifraud.json, 'token', 'tokenId'), purchaseNumber, amount, currency: 'PEN' },
      ...(options.register
        ? { card: { registerFrequent: true, useFrequent: false }, cardHolder: { email: options.email ?? 'ana@example.pe' } }
        : {}),
    },
  });
  return { antifraud, authorization, purchaseNumber };
}

describe('security API (§2)', () => {
  it('answers GET and POST with Basic a 201 text/plain JWT of one hour; wrong or no credentials 401 "Unauthorized access"', async () => {
    const keys = niubizKeys();
    simulator.addAccount(keys);
    for (const method of ['GET', 'POST']) {
      const answer = await call(method, '/api.security/v1/security', { basic: `${keys.user}:${keys.password}` });
      expect([answer.status, answer.type]).toEqual([201, 'text/plain']);
      const payload = JSON.parse(Buffer.from(answer.text.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number };
      expect(payload.exp - payload.iat).toBe(3600);
    }
    for (const basic of [`${keys.user}:wrong`, `nobody@x.pe:${keys.password}`]) {
      expect(await call('GET', '/api.security/v1/security', { basic })).toMatchObject({
        status: 401,
        text: 'Unauthorized access',
      });
    }
    expect((await call('GET', '/api.security/v1/security')).status).toBe(401);
  });

  it('refuses an operation without a token, with a Bearer prefix, with an expired one, or for another merchant code', async () => {
    const merchant = await account();
    const other = await account();
    const path = `/api.authorization/v3/retrieve/purchase/${merchant.merchantId}/1`;
    expect((await call('GET', path)).status).toBe(401);
    expect((await call('GET', path, { token: `Bearer ${merchant.token}` })).status).toBe(401);
    expect((await call('GET', path, { token: other.token })).status).toBe(401);
    expect((await call('GET', path, { token: merchant.token })).status).toBe(404);
    simulator.expireTokens();
    expect((await call('GET', path, { token: merchant.token })).status).toBe(401);
  });
});

describe('cards: antifraud then authorization (§4)', () => {
  it('approves every listed approved card (200, ACTION_CODE 000, STATUS Authorized)', async () => {
    const merchant = await account();
    for (const pan of APPROVED_CARDS) {
      const { authorization } = await pay(merchant, pan);
      expect(authorization?.status).toBe(200);
      expect(authorization?.json).toMatchObject({
        order: { actionCode: '000', amount: 25.5 },
        dataMap: { ACTION_CODE: '000', STATUS: 'Authorized', CARD: `${pan.slice(0, 6)}******${pan.slice(-4)}` },
      });
      expect(authorization?.text).not.toContain(pan);
    }
  });

  it('declines the listed declined cards and any other card 400 "Not Authorized" with data (no dataMap, no order)', async () => {
    const merchant = await account();
    for (const pan of [...DECLINED_CARDS, '5160030000000317']) {
      const { authorization } = await pay(merchant, pan);
      expect(authorization?.status).toBe(400);
      expect(authorization?.json).toMatchObject({ errorCode: 400, errorMessage: 'Not Authorized', data: { ACTION_CODE: '180' } });
      expect(authorization?.json.dataMap).toBeUndefined();
      expect(authorization?.json.order).toBeUndefined();
    }
  });

  it("rejects Cybersource's reject e-mail at the antifraud (670)", async () => {
    const { antifraud, authorization } = await pay(await account(), '4919148107859067', { email: 'reject@cybersource.com' });
    expect(antifraud).toMatchObject({ status: 400, json: { errorMessage: 'REJECT', data: { ACTION_CODE: '670' } } });
    expect(authorization).toBeNull();
  });

  it('refuses a duplicate purchaseNumber (300), a bad amount or purchaseNumber (263), and a spent token', async () => {
    const merchant = await account();
    const first = await pay(merchant, '4919148107859067');
    const again = await pay(merchant, '4919148107859067', { purchaseNumber: first.purchaseNumber });
    expect(again.authorization?.json).toMatchObject({ data: { ACTION_CODE: '300' } });
    expect((await pay(merchant, '4919148107859067', { amount: 10.555 })).antifraud.json).toMatchObject({
      data: { ACTION_CODE: '263' },
    });
    expect((await pay(merchant, '4919148107859067', { amount: '10,50' })).antifraud.json).toMatchObject({
      data: { ACTION_CODE: '263' },
    });
    expect((await pay(merchant, '4919148107859067', { purchaseNumber: '1234567890' })).antifraud.json).toMatchObject({
      data: { ACTION_CODE: '263' },
    });
    expect((await pay(merchant, '4919148107859067', { amount: '12.30' })).authorization?.status).toBe(200);
  });
});

describe('kept cards (§4.4.3)', () => {
  const recurrent = (merchant: { merchantId: string; token: string }, card: Json, purchaseNumber = nextPurchase()) =>
    call('POST', `/api.authorization/v3/authorization/ecommerce/${merchant.merchantId}`, {
      token: merchant.token,
      body: {
        channel: 'recurrent',
        captureType: 'manual',
        countable: true,
        order: { purchaseNumber, amount: 12, currency: 'PEN' },
        card,
        cardHolder: { email: 'ana@example.pe' },
      },
    });

  it('keeps a card an approved sale registers (one token per card and payer) and charges it on the recurrent channel', async () => {
    const merchant = await account();
    const [pan] = [...APPROVED_CARDS];
    const first = await pay(merchant, pan!, { register: true });
    expect(first.authorization?.status).toBe(200);
    const token = first.authorization!.json.token as { tokenId: string; ownerId: string; expireOn: string };
    expect(token.tokenId).toMatch(/^7\d{15}$/);
    expect([token.ownerId, token.expireOn]).toEqual(['ana@example.pe', '301231235959']);
    const again = await pay(merchant, pan!, { register: true });
    expect(at(again.authorization!.json, 'token', 'tokenId')).toBe(token.tokenId);
    expect((await pay(merchant, pan!)).authorization!.json).not.toHaveProperty('token');

    const charged = await recurrent(merchant, { tokenId: token.tokenId, registerFrequent: false, useFrequent: true });
    expect(charged.status).toBe(200);
    expect([at(charged.json, 'dataMap', 'ACTION_CODE'), at(charged.json, 'fulfillment', 'channel')]).toEqual([
      '000',
      'recurrent',
    ]);
    expect(at(charged.json, 'dataMap', 'CARD')).toBe(`${pan!.slice(0, 6)}******${pan!.slice(-4)}`);
  });

  it("refuses a recurrent sale without useFrequent, with an unknown token or another merchant's (263), and a declined sale keeps nothing", async () => {
    const merchant = await account();
    const other = await account();
    const kept = await pay(merchant, [...APPROVED_CARDS][0]!, { register: true });
    const tokenId = at(kept.authorization!.json, 'token', 'tokenId');
    for (const [who, card] of [
      [merchant, { tokenId, useFrequent: false }],
      [merchant, { tokenId: '7000000000000000', useFrequent: true }],
      [other, { tokenId, useFrequent: true }],
    ] as const) {
      const refused = await recurrent(who, card);
      expect([refused.status, at(refused.json, 'data', 'ACTION_CODE')]).toEqual([400, '263']);
    }
    const declined = await pay(merchant, [...DECLINED_CARDS][0]!, { register: true });
    expect(declined.authorization?.status).toBe(400);
    expect(declined.authorization!.json).not.toHaveProperty('token');
  });
});

describe('after the authorization (§5–§8)', () => {
  it('retrieves by purchaseNumber, confirms a held sale, voids it, and refuses what Niubiz refuses', async () => {
    const merchant = await account();
    const held = await pay(merchant, '4919148107859067', { countable: false });
    const retrieve = () =>
      call('GET', `/api.authorization/v3/retrieve/purchase/${merchant.merchantId}/${held.purchaseNumber}`, merchant);
    expect((await retrieve()).json).toMatchObject({ fulfillment: { countable: false }, dataMap: { STATUS: 'Authorized' } });
    const transactionId = at(held.authorization!.json, 'order', 'transactionId');
    const confirm = (amount: number) =>
      call('POST', `/api.confirmation/v1/confirmation/ecommerce/${merchant.merchantId}`, {
        token: merchant.token,
        body: {
          channel: 'web',
          captureType: 'manual',
          order: {
            purchaseNumber: held.purchaseNumber,
            amount,
            authorizedAmount: amount,
            currency: 'PEN',
            transactionId,
          },
        },
      });
    expect((await confirm(20)).status).toBe(400);
    expect((await confirm(25.5)).json).toMatchObject({ dataMap: { STATUS: 'Confirmed' } });
    expect((await retrieve()).json).toMatchObject({ dataMap: { STATUS: 'Confirmed' } });
    const voidIt = () =>
      call(
        'PUT',
        `/api.authorization/v3/void/ecommerce/${merchant.merchantId}/${at(held.authorization!.json, 'dataMap', 'SIGNATURE')}`,
        {
          token: merchant.token,
          body: { annulationReason: 'test' },
        },
      );
    expect((await voidIt()).json).toMatchObject({ dataMap: { STATUS: 'Voided', ACTION_CODE: '400' } });
    expect((await voidIt()).json).toMatchObject({ data: { ACTION_CODE: '941' } });
  });

  it('refunds in parts up to the sale, once per externalReferenceId (945), never more (CODERROR 200)', async () => {
    const merchant = await account();
    const sale = await pay(merchant, '4919148107859067');
    const refund = (amount: number, externalReferenceId: string) =>
      call('POST', `/api.refund/v1/refund/${merchant.merchantId}/${at(sale.authorization!.json, 'order', 'transactionId')}`, {
        token: merchant.token,
        body: { comment: 'test', externalReferenceId, amount },
      });
    expect((await refund(10, 'A1')).json).toMatchObject({ errorCode: 0, data: { CODERROR: '100' } });
    expect((await refund(10, 'A1')).json).toMatchObject({ data: { CODERROR: '945' } });
    expect((await refund(20, 'A2')).json).toMatchObject({ data: { CODERROR: '200' } });
    expect((await refund(15.5, 'A3')).json).toMatchObject({ data: { CODERROR: '100' } });
    expect(simulator.sale(at(sale.authorization!.json, 'order', 'transactionId'))?.refunds).toHaveLength(2);
  });
});

describe('Yape (§10)', () => {
  it('gives a token for the documented test phone and code, refuses any other, and authorizes the token', async () => {
    const merchant = await account();
    const yape = (phoneNumber: string, otp: string, purchaseNumber: string) =>
      call('POST', `/api.yape/v2/yape/transaction/${merchant.merchantId}`, {
        token: merchant.token,
        body: {
          channel: 'pasarela',
          captureType: 'manual',
          countable: true,
          order: { purchaseNumber, amount: 30, currency: 'PEN' },
          yape: { phoneNumber, otp },
        },
      });
    expect(typeof (await yape('969929157', '000000', nextPurchase())).json.responseMessage).toBe('string');
    expect((await yape('987654321', '557454', nextPurchase())).status).toBe(400);
    const purchaseNumber = nextPurchase();
    const ok = await yape('969929157', '557454', purchaseNumber);
    expect(at(ok.json, 'data', 'YAPE_TRX_TOKEN')).toMatch(/^[0-9A-F]{32}$/);
    const authorization = await call('POST', `/api.authorization/v3/authorization/ecommerce/${merchant.merchantId}`, {
      token: merchant.token,
      body: {
        channel: 'pasarela',
        captureType: 'manual',
        countable: true,
        order: { tokenId: at(ok.json, 'data', 'YAPE_TRX_TOKEN'), purchaseNumber, amount: 30, currency: 'PEN' },
      },
    });
    expect(authorization.json).toMatchObject({ dataMap: { STATUS: 'Authorized' } });
  });
});

describe('QR Manager (§9)', () => {
  const tomorrow = () => {
    const lima = new Date(Date.now() - 5 * 3_600_000 + 86_400_000);
    return `${String(lima.getUTCDate()).padStart(2, '0')}${String(lima.getUTCMonth() + 1).padStart(2, '0')}${lima.getUTCFullYear()}`;
  };
  const generate = (merchant: { merchantId: string; token: string }, validityDate: string, amount = '42.00') =>
    call('POST', '/api.qr.manager/v1/qr/ascii', {
      token: merchant.token,
      body: {
        enabled: true,
        param: [
          { name: 'merchantId', value: merchant.merchantId },
          { name: 'transactionCurrency', value: '604' },
          { name: 'transactionAmount', value: amount },
          { name: 'idc', value: 'our-transaction' },
        ],
        tagType: 'DYNAMIC',
        validityDate,
      },
    });

  it('draws a dynamic EMVCo code for the amount, and refuses a validity of today or a bad amount (codeResponse 1)', async () => {
    const merchant = await account();
    const answer = await generate(merchant, tomorrow());
    expect(answer.json.codeResponse).toBe(0);
    const png = PNG.sync.read(Buffer.from(at(answer.json, 'tagImg').replace(/^data:image\/png;base64,/, ''), 'base64'));
    const payload = jsQR(
      new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length),
      png.width,
      png.height,
    )!.data;
    const decoded = decodeEmvQr(payload);
    expect(decoded.byId.get('54')).toBe('42.00');
    expect(decoded.byId.get('53')).toBe('604');
    const today = new Date(Date.now() - 5 * 3_600_000);
    const todayText = `${String(today.getUTCDate()).padStart(2, '0')}${String(today.getUTCMonth() + 1).padStart(2, '0')}${today.getUTCFullYear()}`;
    expect((await generate(merchant, todayText)).json).toMatchObject({ codeResponse: 1 });
    expect((await generate(merchant, tomorrow(), '42')).json).toMatchObject({ codeResponse: 1 });
  });

  it('is paid through the control API, calls the account back unsigned, answers the query, and resends the callback', async () => {
    const merchant = await account();
    const tagId = at((await generate(merchant, tomorrow())).json, 'tagId');
    const query = () => call('GET', `/api.qr.manager/v1/qr/queryTransaction/${tagId}`, merchant);
    expect((await query()).json).toMatchObject({ codeResponse: 0, status: 'PENDING', idc: 'our-transaction' });
    received.length = 0;
    const paid = await fetch(`${simulator.url}/__simulator/qr/${tagId}/pay`, { method: 'POST' });
    expect(await paid.json()).toEqual({ delivered: 200 });
    expect(JSON.parse(received[0]!.body)).toMatchObject({
      tagId,
      status: 'PAID',
      externalReference: 'our-transaction',
      amount: '42.00',
    });
    expect(Object.keys(received[0]!.headers).filter((name) => /sign|authorization/i.test(name))).toEqual([]);
    expect(at((await query()).json, 'status')).toBe('PAID');
    expect(at((await query()).json, 'transactionId')).toMatch(/^\d{15}$/);
    await fetch(`${simulator.url}/__simulator/qr/${tagId}/notify`, { method: 'POST' });
    expect(received[1]!.body).toBe(received[0]!.body);
    // Another account's token does not see it.
    expect((await call('GET', `/api.qr.manager/v1/qr/queryTransaction/${tagId}`, await account())).json).toMatchObject({
      codeResponse: 1,
    });
  });
});

describe('control API and modes', () => {
  it("provisions an account over HTTP, and drops one account's connections in outage", async () => {
    const keys = niubizKeys();
    const created = await fetch(`${simulator.url}/__simulator/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(keys),
    });
    expect(created.status).toBe(201);
    simulator.setMode('outage', { key: keys.merchantId });
    await expect(call('GET', '/api.security/v1/security', { basic: `${keys.user}:${keys.password}` })).rejects.toThrow();
    const other = await account();
    expect(other.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    simulator.setMode('normal', { key: keys.merchantId });
    expect((await call('GET', '/api.security/v1/security', { basic: `${keys.user}:${keys.password}` })).status).toBe(201);
  });

  it('logs whole requests, with the merchant code as credential', async () => {
    const merchant = await account();
    const from = simulator.requests.length;
    await pay(merchant, '4919148107859067');
    const logged = simulator.requests.slice(from);
    expect(logged.map((request) => request.credential)).toEqual([merchant.merchantId, merchant.merchantId]);
    expect(logged[0]!.body).toContain('4919148107859067');
  });
});
