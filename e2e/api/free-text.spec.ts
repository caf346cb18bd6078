import type { APIRequestContext, APIResponse } from '@playwright/test';
import {
  charge,
  chargeBody,
  headers,
  operationNumber,
  read,
  getTransaction,
  refund,
  refundBody,
  refundItem,
} from '../support/api-client';
import { expect, test } from '../support/contract';
import { STORABLE_STRINGS } from '../support/naughty-strings';
import { BASE_URL, settleNow, storedOperation } from '../support/service';
import { chargeOne, expectError } from './auth-helpers';
import { expectNothingStored, newActor } from './charges-helpers';
import { type ChargeReply } from '../support/api-types';

// Markup and SQL in every free-text field of the API (docs/DESIGN.md 7): accepted, stored and
// returned byte for byte, served as inert JSON, and the tables are still there afterwards.
// Text PostgreSQL cannot hold (NUL, unpaired surrogates) is refused with 400 10 instead.

const SQL = "'; DROP TABLE operations; --";
const MARKUP = '<script>alert(1)</script>';

/** Hostile text of at most `max` characters, cut between whole naughty strings (never inside a pair). */
function hostile(max: number, separator = ' '): string {
  let text = '';
  for (const piece of [SQL, MARKUP, ...STORABLE_STRINGS]) {
    const next = text ? `${text}${separator}${piece}` : piece;
    if (next.length > max) continue;
    text = next;
  }
  return text;
}

const CALLBACK = `https://shop.example/hooks?next=${MARKUP}&q=' OR '1'='1&x="y"#<b>`;
const REDIRECT = `https://shop.example/back/${SQL}?lang=<img src=x onerror=alert(1)>`;
const EMAIL = "o'brien'--+drop@example.pe";

function person() {
  return {
    first_name: SQL,
    last_name: MARKUP,
    email: EMAIL,
    phone: { country_code: '+51<b>', subscriber: "' OR '1'='1" },
    location: {
      line_1: hostile(256),
      line_2: `${MARKUP}${SQL}`,
      city: hostile(128, ''),
      state: '{{7*7}} ${7*7}',
      country: '%s%n',
    },
  };
}

/** A CARD charge with hostile text in every free-text field of the request. */
function hostileCharge(merchantCode: string, number: string) {
  const body = chargeBody(merchantCode, number, 'CARD', {
    details: {
      card_holder: { first_name: SQL, last_name: MARKUP, email: EMAIL, phone: { prefix: '<b>+51', number: "1'; --" } },
      installments: { plan: `<i>NONE</i>'; --`, number: '1' },
      redirect_url: REDIRECT,
      callback_url: CALLBACK,
    },
  });
  return {
    ...body,
    payment_details: {
      ...body.payment_details,
      billing: person(),
      shipping: person(),
      customer: person(),
      product_details: [{ sku: SQL, name: MARKUP, [MARKUP]: hostile(300), nested: { note: SQL } }],
    },
  };
}

/** JSON served so that a browser renders nothing of it: its type, nosniff and a CSP that loads nothing. */
function expectInert(response: APIResponse) {
  expect(response.headers()['content-type']).toMatch(/^application\/json(; charset=utf-8)?$/);
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  expect(response.headers()['content-security-policy']).toContain("default-src 'none'");
}

/** Every table the API writes still answers: a new charge, its query, a refund list, the stored rows. */
async function expectTablesIntact(request: APIRequestContext, token: string, merchantCode: string) {
  const number = operationNumber('after');
  const charged = await read<ChargeReply>(await charge(request, token, chargeBody(merchantCode, number, 'CARD')));
  expect(charged.status).toBe(200);
  const query = await getTransaction(request, token, merchantCode, number, charged.body.transaction.transaction_id);
  expect(query.status).toBe(200);
  expect((await request.get(`${BASE_URL}/refund?merchant_code=${merchantCode}`, { headers: headers(token) })).status()).toBe(200);
  expect((await storedOperation(merchantCode, number)).transactions.map((row) => row.state)).toEqual(['AUTORIZADO']);
}

test('a charge with markup and SQL in every free-text field is authorized; what is kept comes back byte for byte', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'FTC');
  const number = operationNumber('hostile');
  const response = await charge(request, token, hostileCharge(merchant.code, number));
  expectInert(response);
  const created = await read<ChargeReply>(response);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.transaction.state).toBe('AUTORIZADO');
  expect(created.body.transaction.payment_method.method_details?.installments).toEqual({
    plan: `<i>NONE</i>'; --`,
    installment_number: '1',
  });

  const query = await getTransaction(request, token, merchant.code, number, created.body.transaction.transaction_id);
  expect(query.status).toBe(200);
  const details = query.body.operation.transactions[0]!.payment_method.method_details!;
  expect(details.redirect_url).toBe(REDIRECT);
  expect(details.callback_url).toBe(CALLBACK);
  expect((details.installments as { plan: string }).plan).toBe(`<i>NONE</i>'; --`);
  // The raw answer holds the text itself, JSON-escaped only where JSON requires.
  expect(query.text).toContain(JSON.stringify(CALLBACK).slice(1, -1));

  const [row] = (await storedOperation(merchant.code, number)).transactions;
  expect(row).toMatchObject({ payerEmail: EMAIL, callbackUrl: CALLBACK, redirectUrl: REDIRECT });
  await expectTablesIntact(request, token, merchant.code);
});

test('refund additional_fields with markup and SQL come back byte for byte from POST /refund and both refund queries', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'FTR');
  const settled = await chargeOne(request, token, merchant.code, 'CARD');
  expect(await settleNow(merchant.code)).toBe(1);
  const fields = { canal: `${MARKUP}${SQL}`.slice(0, 64), reason: hostile(256), description: hostile(1024, ' | ') };
  expect(fields.description.length).toBeGreaterThan(600);

  const created = await refund(
    request,
    token,
    refundBody(merchant.code, [refundItem(settled.number, settled.transactionId, settled.amount, { additional_fields: fields })]),
  );
  expectInert(created);
  const body = (await created.json()) as { operations: { additional_fields: unknown }[] };
  expect(created.status(), JSON.stringify(body)).toBe(200);
  expect(body.operations[0]!.additional_fields).toEqual(fields);

  for (const url of [
    `${BASE_URL}/refund?merchant_code=${merchant.code}&merchant_operation_number=${settled.number}`,
    `${BASE_URL}/refund/${merchant.code}/${settled.number}`,
  ]) {
    const listed = await request.get(url, { headers: headers(token) });
    expectInert(listed);
    const page = (await listed.json()) as { operations_count: string; operations: { additional_fields: unknown }[] };
    expect(page.operations_count).toBe('1');
    expect(page.operations[0]!.additional_fields).toEqual(fields);
  }
  const stored = await storedOperation(merchant.code, settled.number);
  expect(stored.refunds.map((refund) => refund.additionalFields)).toEqual([fields]);
  await expectTablesIntact(request, token, merchant.code);
});

test('NUL or an unpaired surrogate in a kept text is 400 10 on its field, and nothing is stored', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'FTN');
  for (const [field, details] of [
    ['payment_method.method_details.callback_url', { callback_url: 'https://shop.example/a\u0000b' }],
    ['payment_method.method_details.redirect_url', { redirect_url: 'https://shop.example/\ud83d' }],
    ['payment_method.method_details.installments.plan', { installments: { plan: 'N\u0000', number: '1' } }],
  ] as const) {
    const number = operationNumber('nul');
    const body = await expectError(
      await charge(request, token, chargeBody(merchant.code, number, 'CARD', { details })),
      400,
      '10',
      'string',
    );
    expect(body.errors.map((error) => error.field)).toEqual([field]);
    await expectNothingStored(merchant.code, number);
  }
  const settled = await chargeOne(request, token, merchant.code, 'CARD');
  expect(await settleNow(merchant.code)).toBe(1);
  for (const [name, value] of [
    ['description', 'talla\u0000'],
    ['canal', '\udfffweb'],
  ] as const) {
    const item = refundItem(settled.number, settled.transactionId, settled.amount);
    const refused = await refund(
      request,
      token,
      refundBody(merchant.code, [{ ...item, additional_fields: { ...item.additional_fields, [name]: value } }]),
    );
    const body = await expectError(refused, 400, '10', 'string');
    expect(body.errors.map((error) => error.field)).toEqual([`operations[0].additional_fields.${name}`]);
  }
  expect((await storedOperation(merchant.code, settled.number)).refunds).toEqual([]);
});
