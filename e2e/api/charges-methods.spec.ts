import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { UUID } from '../support/patterns';
import { chargeBody, METHOD_DETAILS, operationNumber, getTransaction, postCharge } from '../support/api-client';
import { ORIGIN } from '../support/service';
import {
  eventTypesOf,
  expectError,
  expectExpiry,
  expectLifecycle,
  expectSuccessMeta,
  newActor,
  PENDING_EXPIRY_SECONDS,
  snapshot,
  stored,
} from './charges-helpers';
import { MILLIS_UTC } from '../support/patterns';
import { decodeQr } from '../support/qr';
import { decodeEmvQr } from '../../tests/support/emv-qr-decoder';
import { type ChargeReply, type TransactionObject } from '../support/api-types';

// POST /charges for the six methods (docs/interface.md 2.5-2.8, 4.2; docs/DESIGN.md 6 and 8).

const TEXT = expect.stringMatching(/\S/);
const CARD_TYPE = expect.stringMatching(/^(CREDIT|DEBIT|PREPAID)$/);
const COUNTRY = expect.stringMatching(/^[A-Z]{2}$/);

/** The envelope of a successful authorization around `transaction`. */
function authorization(merchantCode: string, number: string, transaction: Record<string, unknown>) {
  return {
    success: 'true',
    action: 'authorize',
    merchant_code: merchantCode,
    merchant_operation_number: number,
    transaction,
    meta: expect.anything(),
  };
}

/** The response method_details of a card (docs/interface.md 2.7). */
function cardDetails(pan: string, brand: string, extra: Record<string, unknown> = {}) {
  return {
    masked_pan: `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`,
    brand,
    bin: pan.slice(0, 6),
    last_pan: pan.slice(-4),
    card_type: CARD_TYPE,
    card_country: COUNTRY,
    issuer: TEXT,
    installments: { plan: 'NONE', installment_number: '1' },
    ...extra,
  };
}

function approvedResponse() {
  return {
    authorization_code: expect.stringMatching(/^\d{6}$/),
    brand_transaction_id: expect.stringMatching(/^\S+$/),
    result_message: { code: '00', description: TEXT },
  };
}

type ChargeOptions = Parameters<typeof chargeBody>[3];
type State = TransactionObject['state'];

/**
 * POST /charges of `method` for a new merchant: 200, the authorization's envelope around a
 * transaction with `fields` (beside the id, channel, reason, amount and currency every answer
 * has), a success meta, and a lifecycle of `states` dated within the request. Answers the reply
 * and the operation's stored rows.
 */
async function expectCharge(
  request: APIRequestContext,
  prefix: string,
  method: Parameters<typeof chargeBody>[2],
  options: ChargeOptions,
  fields: Record<string, unknown>,
  states: State[],
) {
  const { merchant, token } = await newActor(request);
  const number = operationNumber(prefix);
  const from = Date.now();
  const reply = await postCharge(request, token, chargeBody(merchant.code, number, method, options));
  const to = Date.now();
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body).toEqual(
    authorization(merchant.code, number, {
      transaction_id: expect.stringMatching(UUID),
      channel: 'ecommerce',
      state_reason: TEXT,
      amount: options?.amount ?? '15000',
      currency: '604',
      lifecycle: expect.any(Array),
      ...fields,
    }),
  );
  expectSuccessMeta(reply.body.meta);
  expectLifecycle(reply.body.transaction.lifecycle, states, 'millis', { from, to });
  return { ...reply, merchant, token, number, from, to, rows: await stored(merchant.code, number) };
}

test.describe('CARD', () => {
  test('a CARD charge is AUTORIZADO with the exact response shape, lifecycle, stored rows and events', async ({ request }) => {
    const { body, text, rows } = await expectCharge(
      request,
      'card',
      'CARD',
      {},
      {
        state: 'AUTORIZADO',
        payment_method: { method_name: 'CARD', method_details: cardDetails('4111111111111111', 'VISA') },
        expiration_date: null,
        processor_response: approvedResponse(),
        additional_fields: { processor: 'sandbox-acquirer-a', attempt: 1 },
      },
      ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'],
    );
    expect(body.transaction.payment_method.method_details).toMatchObject({
      masked_pan: '411111******1111',
      bin: '411111',
      last_pan: '1111',
      brand: 'VISA',
    });
    expect(text).not.toContain('4111111111111111');

    expect(rows.transactions).toHaveLength(1);
    const row = rows.transactions[0]!;
    expect(row).toMatchObject({
      id: body.transaction.transaction_id,
      attempt: 1,
      state: 'AUTORIZADO',
      amount: '15000',
      method: 'CARD',
      maskedPan: '411111******1111',
      cardBin: '411111',
      cardLast4: '1111',
      cardBrand: 'VISA',
    });
    expect(row.lifecycle).toEqual(body.transaction.lifecycle.map((entry) => ({ state: entry.state, at: entry.date.utc_time })));
    expect(eventTypesOf(rows, row.id)).toEqual(['transaction.authorized', 'transaction.pending', 'transaction.registered']);
    expect(rows.events).toHaveLength(3);
    // The PAN and security code are never stored (docs/DESIGN.md 7).
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain('4111111111111111');
    expect(dump).not.toContain('"security_code"');
  });

  test('an Amex PAN with a 4-digit security code is AUTORIZADO with brand AMEX', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('amex');
    const pan = '378282246310005';
    const { status, body, text } = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'CARD', { details: { pan, security_code: '1234' } }),
    );
    expect(status, text).toBe(200);
    expect(body.transaction).toMatchObject({
      state: 'AUTORIZADO',
      payment_method: { method_name: 'CARD', method_details: cardDetails(pan, 'AMEX') },
      processor_response: approvedResponse(),
    });
    expect(body.transaction.payment_method.method_details).toMatchObject({ masked_pan: '378282*****0005', last_pan: '0005' });
    expectLifecycle(body.transaction.lifecycle, ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'], 'millis');
    expect(text).not.toContain(pan);
  });

  test('installments are echoed as {plan, installment_number}', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('inst');
    const { status, body, text } = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'CARD', { details: { installments: { plan: 'SIN_INTERES', number: '6' } } }),
    );
    expect(status, text).toBe(200);
    expect(body.transaction.payment_method.method_details).toEqual(
      cardDetails('4111111111111111', 'VISA', { installments: { plan: 'SIN_INTERES', installment_number: '6' } }),
    );
  });

  // Each processor that tried, in order: a technical failure (96) moves on to the second
  // acquirer, which fails the same way; the other declines are final at the first
  // (docs/ORCHESTRATION.md 3, default policy).
  const declines: { name: string; pan?: string; expiry?: string; code: string; processors: string[] }[] = [
    { name: 'do not honour', pan: '4000000000000002', code: '05', processors: ['sandbox-acquirer-a'] },
    { name: 'insufficient funds', pan: '4000000000009995', code: '51', processors: ['sandbox-acquirer-a'] },
    { name: 'expired card (test PAN)', pan: '4000000000000069', code: '54', processors: ['sandbox-acquirer-a'] },
    { name: 'bad security code', pan: '4000000000000127', code: 'N7', processors: ['sandbox-acquirer-a'] },
    {
      name: 'processor error at both acquirers',
      pan: '4000000000000119',
      code: '96',
      processors: ['sandbox-acquirer-a', 'sandbox-acquirer-b'],
    },
    { name: 'expiry date in the past', expiry: '0120', code: '54', processors: ['sandbox-acquirer-a'] },
  ];
  for (const decline of declines) {
    test(`CARD decline: ${decline.name} -> 200 DENEGADO with result code ${decline.code}`, async ({ request }) => {
      const pan = decline.pan ?? '4111111111111111';
      const details = { pan, ...(decline.expiry ? { expiry_date: decline.expiry } : {}) };
      const { body, text, rows } = await expectCharge(
        request,
        'decl',
        'CARD',
        { details },
        {
          state: 'DENEGADO',
          payment_method: { method_name: 'CARD', method_details: cardDetails(pan, 'VISA') },
          expiration_date: null,
          processor_response: { result_message: { code: decline.code, description: TEXT } },
          additional_fields: { processor: decline.processors.at(-1), attempt: decline.processors.length },
        },
        ['REGISTRADO', 'PENDIENTE', 'DENEGADO'],
      );
      expect(text).not.toContain(pan);

      expect(rows.transactions.map((row) => [row.attempt, row.state, row.connectorId])).toEqual(
        decline.processors.map((processor, index) => [index + 1, 'DENEGADO', processor]),
      );
      expect(rows.transactions.at(-1)!.id).toBe(body.transaction.transaction_id);
      for (const row of rows.transactions) {
        expect(row.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'DENEGADO']);
        expect(eventTypesOf(rows, row.id)).toEqual(['transaction.declined', 'transaction.pending', 'transaction.registered']);
      }
    });
  }

  test('a retry after DENEGADO with another PAN appends attempt 2 and is AUTORIZADO; GET lists both', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('retry');
    const first = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'CARD', { details: { pan: '4000000000000002' } }),
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.transaction.state).toBe('DENEGADO');

    const second = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
    expect(second.status, second.text).toBe(200);
    expect(second.body.transaction).toMatchObject({
      state: 'AUTORIZADO',
      payment_method: { method_name: 'CARD', method_details: cardDetails('4111111111111111', 'VISA') },
      processor_response: approvedResponse(),
    });
    expect(second.body.transaction.transaction_id).not.toBe(first.body.transaction.transaction_id);
    expectLifecycle(second.body.transaction.lifecycle, ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'], 'millis');

    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
      [first.body.transaction.transaction_id, 1, 'DENEGADO'],
      [second.body.transaction.transaction_id, 2, 'AUTORIZADO'],
    ]);
    expect(rows.events).toHaveLength(6);

    const query = await getTransaction(request, token, merchant.code, number, second.body.transaction.transaction_id);
    expect(query.status, query.text).toBe(200);
    expect(query.body.operation.state).toBe('AUTORIZADO');
    expect(query.body.operation.transactions.map((transaction) => [transaction.transaction_id, transaction.state])).toEqual([
      [first.body.transaction.transaction_id, 'DENEGADO'],
      [second.body.transaction.transaction_id, 'AUTORIZADO'],
    ]);
    expect(query.body.operation.transactions).toEqual([first.body.transaction, second.body.transaction]);
  });

  test('an identical retry after DENEGADO replays the decline and appends nothing', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('redecl');
    const body = chargeBody(merchant.code, number, 'CARD', { details: { pan: '4000000000009995' } });
    const first = await postCharge(request, token, body);
    expect(first.status, first.text).toBe(200);
    expect(first.body.transaction.state).toBe('DENEGADO');
    const second = await postCharge(request, token, body);
    expect(second.status, second.text).toBe(200);
    expect(second.text).toBe(first.text);
    const rows = await stored(merchant.code, number);
    expect(rows.transactions).toHaveLength(1);
    expect(rows.events).toHaveLength(3);
  });

  test('an identical second POST replays the same answer byte for byte and stores nothing new', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('replay');
    const body = chargeBody(merchant.code, number, 'CARD');
    const first = await postCharge(request, token, body);
    expect(first.status, first.text).toBe(200);
    const before = await snapshot(merchant.code, number);

    const second = await postCharge(request, token, body);
    expect(second.status, second.text).toBe(200);
    expect(second.body.transaction.transaction_id).toBe(first.body.transaction.transaction_id);
    expect(second.text).toBe(first.text);

    // Key order does not make another request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const third = await postCharge(request, token, reordered);
    expect(third.status, third.text).toBe(200);
    expect(third.text).toBe(first.text);

    const after = await snapshot(merchant.code, number);
    expect(after).toEqual(before);
    expect(after.transactions).toHaveLength(1);
    expect(after.events).toHaveLength(3);
  });

  test('another body for an AUTORIZADO operation is 409 code 40 and stores nothing new', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('conf');
    const first = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
    expect(first.status, first.text).toBe(200);
    const before = await snapshot(merchant.code, number);

    const other = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'CARD', { details: { pan: '5555555555554444' } }),
    );
    const error = expectError(other, 409, '40', 'string');
    expect(error.errors).toEqual([{ field: 'merchant_operation_number', code: expect.any(String), message: TEXT }]);
    expect(other.text).not.toContain('5555555555554444');

    const amount = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', { amount: '15001' }));
    expectError(amount, 409, '40', 'string');

    expect(await snapshot(merchant.code, number)).toEqual(before);
  });
});

test.describe('YAPE', () => {
  test('a YAPE charge is AUTORIZADO with the phone and the wallet card', async ({ request }) => {
    const { body, rows } = await expectCharge(
      request,
      'yape',
      'YAPE',
      {},
      {
        state: 'AUTORIZADO',
        payment_method: {
          method_name: 'YAPE',
          method_details: {
            phone: { country_code: '+51', subscriber: '987654321' },
            masked_pan: expect.stringMatching(/^\d{6}\*{6}\d{4}$/),
            brand: TEXT,
            bin: expect.stringMatching(/^\d{6}$/),
            last_pan: expect.stringMatching(/^\d{4}$/),
            card_type: CARD_TYPE,
            card_country: 'PE',
            issuer: 'YAPE',
          },
        },
        expiration_date: null,
        processor_response: approvedResponse(),
        additional_fields: { processor: 'sandbox-yape', attempt: 1 },
      },
      ['REGISTRADO', 'PENDIENTE', 'AUTORIZADO'],
    );
    const details = body.transaction.payment_method.method_details as Record<string, string>;
    expect(details.masked_pan).toBe(`${details.bin}******${details.last_pan}`);

    expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
      [body.transaction.transaction_id, 1, 'AUTORIZADO'],
    ]);
    expect(rows.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(eventTypesOf(rows, body.transaction.transaction_id)).toEqual([
      'transaction.authorized',
      'transaction.pending',
      'transaction.registered',
    ]);
    expect(JSON.stringify(rows)).not.toContain('"otp"');
  });

  test('the same phone gets the same wallet card in two charges; another phone another card', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const card = (transaction: TransactionObject) => {
      const rest: Record<string, unknown> = { ...transaction.payment_method.method_details };
      delete rest.phone;
      return rest;
    };
    const one = await postCharge(request, token, chargeBody(merchant.code, operationNumber('y1'), 'YAPE'));
    const two = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('y2'), 'YAPE', { amount: '2500', details: { otp: '654321' } }),
    );
    const other = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('y3'), 'YAPE', {
        details: { phone: { country_code: '+51', subscriber: '912345678' } },
      }),
    );
    for (const reply of [one, two, other]) expect(reply.status, reply.text).toBe(200);
    expect(card(two.body.transaction)).toEqual(card(one.body.transaction));
    expect(card(other.body.transaction)).not.toEqual(card(one.body.transaction));
    expect((other.body.transaction.payment_method.method_details as Record<string, unknown>).phone).toEqual({
      country_code: '+51',
      subscriber: '912345678',
    });
  });

  const declines: { name: string; otp?: string; amount?: string; code: string }[] = [
    { name: 'invalid OTP 000000', otp: '000000', code: 'Y1' },
    { name: 'insufficient balance OTP 111111', otp: '111111', code: '51' },
    { name: 'amount over 3 500.00 PEN', amount: '350001', code: '61' },
  ];
  for (const decline of declines) {
    test(`YAPE decline: ${decline.name} -> 200 DENEGADO with result code ${decline.code}`, async ({ request }) => {
      const { body, rows } = await expectCharge(
        request,
        'ydecl',
        'YAPE',
        { amount: decline.amount, details: decline.otp ? { otp: decline.otp } : {} },
        {
          state: 'DENEGADO',
          payment_method: {
            method_name: 'YAPE',
            method_details: expect.objectContaining({ phone: { country_code: '+51', subscriber: '987654321' }, issuer: 'YAPE' }),
          },
          expiration_date: null,
          processor_response: { result_message: { code: decline.code, description: TEXT } },
          additional_fields: { processor: 'sandbox-yape', attempt: 1 },
        },
        ['REGISTRADO', 'PENDIENTE', 'DENEGADO'],
      );
      expect(rows.transactions.map((row) => [row.attempt, row.state])).toEqual([[1, 'DENEGADO']]);
      expect(eventTypesOf(rows, body.transaction.transaction_id)).toEqual([
        'transaction.declined',
        'transaction.pending',
        'transaction.registered',
      ]);
    });
  }

  test('YAPE at exactly 3 500.00 PEN is AUTORIZADO', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const { status, body, text } = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('ymax'), 'YAPE', { amount: '350000' }),
    );
    expect(status, text).toBe(200);
    expect(body.transaction.state).toBe('AUTORIZADO');
    expect(body.transaction.amount).toBe('350000');
  });
});

test.describe('pending methods', () => {
  for (const method of ['BANK_TRANSFER', 'CUOTEALO'] as const) {
    test(`${method} is PENDIENTE with a continue_url unique per transaction and a ${PENDING_EXPIRY_SECONDS[method] / 60} min expiry`, async ({
      request,
    }) => {
      const { merchant, token, body, rows } = await expectCharge(
        request,
        method.toLowerCase().slice(0, 4),
        method,
        {},
        {
          state: 'PENDIENTE',
          continue_url: expect.stringMatching(new RegExp(`^${ORIGIN}/pay/[^/?#\\s]+$`)),
          payment_method: { method_name: method, method_details: { ...METHOD_DETAILS[method] } },
          expiration_date: expect.anything(),
          processor_response: null,
          additional_fields: { processor: method === 'BANK_TRANSFER' ? 'sandbox-bank-transfer' : 'sandbox-cuotealo', attempt: 1 },
        },
        ['REGISTRADO', 'PENDIENTE'],
      );
      expectExpiry(body.transaction, PENDING_EXPIRY_SECONDS[method]);

      const again = await postCharge(request, token, chargeBody(merchant.code, operationNumber('again'), method));
      expect(again.status, again.text).toBe(200);
      expect(again.body.transaction.continue_url).toMatch(new RegExp(`^${ORIGIN}/pay/`));
      expect(again.body.transaction.continue_url).not.toBe(body.transaction.continue_url);

      expect(rows.transactions.map((row) => [row.id, row.attempt, row.state])).toEqual([
        [body.transaction.transaction_id, 1, 'PENDIENTE'],
      ]);
      expect(rows.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE']);
      expect(eventTypesOf(rows, body.transaction.transaction_id)).toEqual(['transaction.pending', 'transaction.registered']);
    });
  }

  test('PAGOEFECTIVO is PENDIENTE with a 9-digit cip, its cip_url, result code 100 and a 24 h expiry', async ({ request }) => {
    const { body, rows } = await expectCharge(
      request,
      'pe',
      'PAGOEFECTIVO',
      {},
      {
        state: 'PENDIENTE',
        payment_method: {
          method_name: 'PAGOEFECTIVO',
          method_details: { callback_url: METHOD_DETAILS.PAGOEFECTIVO.callback_url },
        },
        expiration_date: expect.anything(),
        processor_response: {
          cip: expect.stringMatching(/^\d{9}$/),
          cip_url: expect.stringMatching(new RegExp(`^${ORIGIN}/pay/[^/?#\\s]+$`)),
          result_message: { code: '100', description: TEXT },
        },
        additional_fields: { processor: 'sandbox-pagoefectivo', attempt: 1 },
      },
      ['REGISTRADO', 'PENDIENTE'],
    );
    expect(body.transaction.continue_url).toBeUndefined();
    expectExpiry(body.transaction, PENDING_EXPIRY_SECONDS.PAGOEFECTIVO);

    expect(rows.transactions.map((row) => [row.attempt, row.state])).toEqual([[1, 'PENDIENTE']]);
    expect(eventTypesOf(rows, body.transaction.transaction_id)).toEqual(['transaction.pending', 'transaction.registered']);
  });

  test('QR is PENDIENTE with a PNG qr_image of its EMVCo payload, qr_id, date, result code 0 and a 15 min expiry', async ({
    request,
  }) => {
    const { body, rows, from, to } = await expectCharge(
      request,
      'qr',
      'QR',
      {},
      {
        state: 'PENDIENTE',
        payment_method: { method_name: 'QR', method_details: { callback_url: METHOD_DETAILS.QR.callback_url } },
        expiration_date: expect.anything(),
        processor_response: {
          qr_image: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/),
          qr_id: expect.stringMatching(/^\S+$/),
          date: TEXT,
          qr_payload: expect.stringMatching(/^000201010212/),
          result_message: { code: '0', description: TEXT },
        },
        additional_fields: {
          processor: 'sandbox-qr',
          attempt: 1,
          sandbox: { pay_url: expect.stringMatching(new RegExp(`^${ORIGIN}/pay/[A-Za-z0-9_-]+$`)) },
        },
      },
      ['REGISTRADO', 'PENDIENTE'],
    );
    expect(body.transaction.continue_url).toBeUndefined();
    expectExpiry(body.transaction, PENDING_EXPIRY_SECONDS.QR);

    const response = body.transaction.processor_response!;
    const png = Buffer.from(String(response.qr_image).slice('data:image/png;base64,'.length), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBeGreaterThan(20);
    expect(png.readUInt32BE(20)).toBe(png.readUInt32BE(16));
    const date = Date.parse(String(response.date));
    expect(date).toBeGreaterThanOrEqual(from - 1000);
    expect(date).toBeLessThanOrEqual(to + 1000);
    expect(String(response.date)).toMatch(MILLIS_UTC);
    // The image draws the payload; the payload is EMVCo-valid, for 150.00 PEN, naming this QR.
    expect(decodeQr(String(response.qr_image))).toBe(response.qr_payload);
    const qr = decodeEmvQr(String(response.qr_payload));
    expect([qr.byId.get('53'), qr.byId.get('54'), qr.byId.get('58')]).toEqual(['604', '150.00', 'PE']);
    expect(qr.additional.get('05')).toBe(response.qr_id);
    expect(qr.accounts.get('26')?.get('00')).toContain('sandbox');

    expect(rows.transactions.map((row) => [row.attempt, row.state])).toEqual([[1, 'PENDIENTE']]);
    expect(eventTypesOf(rows, body.transaction.transaction_id)).toEqual(['transaction.pending', 'transaction.registered']);
  });

  test('a USD BANK_TRANSFER keeps currency 840', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const { status, body, text } = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('usd'), 'BANK_TRANSFER', { currency: '840', amount: '999999999999' }),
    );
    expect(status, text).toBe(200);
    expect(body.transaction).toMatchObject({ state: 'PENDIENTE', currency: '840', amount: '999999999999' });
  });
});

test('every method answers with its own method_name and a distinct transaction_id', async ({ request }) => {
  const { merchant, token } = await newActor(request);
  const replies: ChargeReply[] = [];
  for (const method of ['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR'] as const) {
    const { status, body, text } = await postCharge(request, token, chargeBody(merchant.code, operationNumber('all'), method));
    expect(status, text).toBe(200);
    expect(body.transaction.payment_method.method_name).toBe(method);
    replies.push(body);
  }
  expect(new Set(replies.map((reply) => reply.transaction.transaction_id)).size).toBe(6);
  expect(replies.map((reply) => reply.transaction.state)).toEqual([
    'AUTORIZADO',
    'AUTORIZADO',
    'PENDIENTE',
    'PENDIENTE',
    'PENDIENTE',
    'PENDIENTE',
  ]);
});

test.describe('request edges', () => {
  const brands: [string, string, string][] = [
    ['5555555555554444', 'MASTERCARD', '123'],
    ['6011111111111117', 'DISCOVER', '123'],
    ['36227206271667', 'DINERS', '123'],
    ['4012888888881881', 'VISA', '123'],
  ];
  for (const [pan, brand, code] of brands) {
    test(`the brand of ${pan.slice(0, 6)}… is ${brand} and the masked PAN keeps BIN and last four`, async ({ request }) => {
      const { merchant, token } = await newActor(request);
      const { status, body, text } = await postCharge(
        request,
        token,
        chargeBody(merchant.code, operationNumber('brand'), 'CARD', { details: { pan, security_code: code } }),
      );
      expect(status, text).toBe(200);
      expect(body.transaction.state).toBe('AUTORIZADO');
      expect(body.transaction.payment_method.method_details).toEqual(cardDetails(pan, brand));
      expect(text).not.toContain(pan);
    });
  }

  test('a card expiring this month is approved; one that expired last month is declined 54', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const now = new Date();
    const mmyy = (date: Date) =>
      `${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCFullYear() % 100).padStart(2, '0')}`;
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const current = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('exp'), 'CARD', { details: { expiry_date: mmyy(now) } }),
    );
    expect(current.status, current.text).toBe(200);
    expect(current.body.transaction.state).toBe('AUTORIZADO');
    const past = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('exp'), 'CARD', { details: { expiry_date: mmyy(lastMonth) } }),
    );
    expect(past.status, past.text).toBe(200);
    expect(past.body.transaction.state).toBe('DENEGADO');
    expect(past.body.transaction.processor_response).toEqual({ result_message: { code: '54', description: TEXT } });
  });

  test('an empty product_details, a 1-cent amount and a 64-character operation number are accepted', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = `${operationNumber('max')}_`.padEnd(64, 'Z');
    expect(number).toHaveLength(64);
    const body = chargeBody(merchant.code, number, 'CARD', { amount: '1' });
    const {
      status,
      body: reply,
      text,
    } = await postCharge(request, token, {
      ...body,
      payment_details: { ...body.payment_details, product_details: [] },
    });
    expect(status, text).toBe(200);
    expect(reply).toMatchObject({ merchant_operation_number: number, transaction: { state: 'AUTORIZADO', amount: '1' } });
    expect((await stored(merchant.code, number)).transactions).toHaveLength(1);
  });

  test('the same merchant_operation_number under two merchants makes two independent operations', async ({ request }) => {
    const one = await newActor(request);
    const two = await newActor(request);
    const number = operationNumber('shared');
    const first = await postCharge(request, one.token, chargeBody(one.merchant.code, number, 'CARD'));
    const second = await postCharge(request, two.token, chargeBody(two.merchant.code, number, 'CARD', { amount: '777' }));
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.body.transaction.transaction_id).not.toBe(first.body.transaction.transaction_id);
    expect((await stored(one.merchant.code, number)).transactions.map((row) => row.amount)).toEqual(['15000']);
    expect((await stored(two.merchant.code, number)).transactions.map((row) => row.amount)).toEqual(['777']);
  });

  test('on a PENDIENTE operation an identical POST replays and another body is 409 code 40', async ({ request }) => {
    const { merchant, token } = await newActor(request);
    const number = operationNumber('pend');
    const body = chargeBody(merchant.code, number, 'BANK_TRANSFER');
    const first = await postCharge(request, token, body);
    expect(first.status, first.text).toBe(200);
    const before = await snapshot(merchant.code, number);
    const replay = await postCharge(request, token, body);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.text).toBe(first.text);
    const other = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'BANK_TRANSFER', { details: { redirect_url: 'https://merchant.example/other' } }),
    );
    expectError(other, 409, '40', 'string');
    expect(await snapshot(merchant.code, number)).toEqual(before);
  });
});

test('after a declined attempt and an approved retry, re-sending the declined body is 409 code 40 (it did not create the latest)', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request);
  const number = operationNumber('old');
  const declinedBody = chargeBody(merchant.code, number, 'CARD', { details: { pan: '4000000000000127' } });
  const declined = await postCharge(request, token, declinedBody);
  expect(declined.body.transaction.state).toBe('DENEGADO');
  const approved = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  expect(approved.body.transaction.state).toBe('AUTORIZADO');
  const before = await snapshot(merchant.code, number);
  expectError(await postCharge(request, token, declinedBody), 409, '40', 'string');
  expect(await snapshot(merchant.code, number)).toEqual(before);
});
