import { expect, test } from '../support/contract';
import { headers, tokenFor } from '../support/api-client';
import { BASE_URL, createMerchant } from '../support/service';
import { expectError } from './auth-helpers';

// Customers over HTTP (docs/DECISIONS.md "Card on file"): POST /customers, GET
// /customers/{merchant_code}/{customer_id} and DELETE of a card, under their own scopes. Saving
// and charging cards come with the charge's save_card and card_id.

type CustomerReply = {
  success: boolean;
  customer: {
    customer_id: string;
    merchant_customer_id: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
  };
  cards?: unknown[];
};

test('a customer is made once per merchant_customer_id, read back with its cards, and is nobody else’s', async ({ request }) => {
  const merchant = await createMerchant('CUS');
  const token = await tokenFor(request, merchant);
  const post = (body: object) => request.post(`${BASE_URL}/customers`, { headers: headers(token), data: body });

  const created = await post({
    merchant_code: merchant.code,
    merchant_customer_id: 'cli-001',
    email: 'ana@example.pe',
    first_name: 'Ana',
  });
  expect(created.status(), await created.text()).toBe(200);
  const first = (await created.json()) as CustomerReply;
  expect(first).toMatchObject({
    success: true,
    customer: { merchant_customer_id: 'cli-001', email: 'ana@example.pe', first_name: 'Ana', last_name: null },
  });

  const again = (await (
    await post({ merchant_code: merchant.code, merchant_customer_id: 'cli-001', email: 'ana.q@example.pe', last_name: 'Quispe' })
  ).json()) as CustomerReply;
  expect(again.customer).toMatchObject({
    customer_id: first.customer.customer_id,
    email: 'ana.q@example.pe',
    first_name: 'Ana',
    last_name: 'Quispe',
  });

  const read = await request.get(`${BASE_URL}/customers/${merchant.code}/${first.customer.customer_id}`, {
    headers: headers(token),
  });
  expect(read.status()).toBe(200);
  expect(((await read.json()) as CustomerReply).cards).toEqual([]);

  // Bad input: 400 10, nothing made.
  await expectError(
    await post({ merchant_code: merchant.code, merchant_customer_id: 'cli 002', email: 'not-mail' }),
    400,
    '10',
    'boolean',
  );
  // Another merchant's code: 403 21; another merchant's customer under one's own code: 404 30.
  const other = await createMerchant('CUSX');
  const otherToken = await tokenFor(request, other);
  await expectError(
    await request.post(`${BASE_URL}/customers`, {
      headers: headers(otherToken),
      data: { merchant_code: merchant.code, merchant_customer_id: 'x', email: 'x@example.pe' },
    }),
    403,
    '21',
    'boolean',
  );
  await expectError(
    await request.get(`${BASE_URL}/customers/${other.code}/${first.customer.customer_id}`, { headers: headers(otherToken) }),
    404,
    '30',
    'boolean',
  );
  await expectError(
    await request.delete(`${BASE_URL}/customers/${merchant.code}/${first.customer.customer_id}/cards/${crypto.randomUUID()}`, {
      headers: headers(token),
    }),
    404,
    '30',
    'boolean',
  );
});

test('the customers’ scopes are their own: a charges-only token is 403 21', async ({ request }) => {
  const merchant = await createMerchant('CUSS', ['create:token', 'post:charges', 'get:charges']);
  const token = await tokenFor(request, merchant, 'create:token post:charges get:charges');
  await expectError(
    await request.post(`${BASE_URL}/customers`, {
      headers: headers(token),
      data: { merchant_code: merchant.code, merchant_customer_id: 'c1', email: 'c1@example.pe' },
    }),
    403,
    '21',
    'boolean',
  );
  await expectError(
    await request.get(`${BASE_URL}/customers/${merchant.code}/${crypto.randomUUID()}`, { headers: headers(token) }),
    403,
    '21',
    'boolean',
  );
});
