import { expect, test } from '../support/contract';
import { chargeBody, charge, headers, operationNumber, tokenFor } from '../support/api-client';
import { BASE_URL, createMerchant } from '../support/service';
import { expectError } from './auth-helpers';
import type { ErrorReply } from '../support/api-types';

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

test('a CARD charge with save_card saves the card on approval, once per Idempotency-Key, and the customer shows it', async ({
  request,
}) => {
  const merchant = await createMerchant('CUSV');
  const token = await tokenFor(request, merchant);
  const created = (await (
    await request.post(`${BASE_URL}/customers`, {
      headers: headers(token),
      data: { merchant_code: merchant.code, merchant_customer_id: 'cli-save', email: 'eva@example.pe' },
    })
  ).json()) as CustomerReply;
  const customerId = created.customer.customer_id;
  const saveCard = {
    customer_id: customerId,
    reason: 'UNSCHEDULED',
    consent: { accepted_at: '2026-12-03T09:00:00-05:00', terms_version: 'tyc-2026-12', max_amount: '20000' },
  };
  const body = chargeBody(merchant.code, operationNumber('save'), 'CARD', { details: { save_card: saveCard } });
  const idempotency = { 'Idempotency-Key': crypto.randomUUID() };
  const first = await charge(request, token, body, idempotency);
  expect(first.status(), await first.text()).toBe(200);
  const approved = (await first.json()) as { transaction: { state: string; additional_fields: Record<string, unknown> } };
  expect(approved.transaction.state).toBe('AUTORIZADO');
  const saved = approved.transaction.additional_fields.saved_card as { card_id: string };
  expect(saved).toEqual({
    card_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    brand: 'VISA',
    bin: '411111',
    last4: '1111',
    expiry_date: '1230',
    status: 'ACTIVE',
    reason: 'UNSCHEDULED',
  });
  expect(approved.transaction.additional_fields.stored_credential).toEqual({
    card_id: saved.card_id,
    initiator: 'CUSTOMER',
    usage: 'FIRST',
    reason: 'UNSCHEDULED',
    nti_sent: false,
  });
  // The retry with the same key answers the same and saves nothing twice.
  const retry = await charge(request, token, body, idempotency);
  expect(retry.status()).toBe(200);
  expect(await retry.json()).toEqual(approved);

  const read = await request.get(`${BASE_URL}/customers/${merchant.code}/${customerId}`, { headers: headers(token) });
  const cards = ((await read.json()) as { cards: { card_id: string; status: string; consent: Record<string, unknown> }[] }).cards;
  expect(cards).toHaveLength(1);
  expect(cards[0]).toMatchObject({
    card_id: saved.card_id,
    status: 'ACTIVE',
    consent: { terms_version: 'tyc-2026-12', max_amount: '20000', installments: null },
  });

  // A declined charge saves nothing; another merchant's customer is 404 30 and registers nothing.
  const declined = await charge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('save'), 'CARD', { details: { pan: '4000000000000002', save_card: saveCard } }),
  );
  expect(((await declined.json()) as { transaction: { state: string } }).transaction.state).toBe('DENEGADO');
  const unknownCustomer = chargeBody(merchant.code, operationNumber('save'), 'CARD', {
    details: { save_card: { ...saveCard, customer_id: crypto.randomUUID() } },
  });
  await expectError(await charge(request, token, unknownCustomer), 404, '30', 'string');
  const again = await request.get(`${BASE_URL}/customers/${merchant.code}/${customerId}`, { headers: headers(token) });
  expect(((await again.json()) as { cards: unknown[] }).cards).toHaveLength(1);

  // An INSTALLMENT consent says how many charges it covers: 400 10 without it.
  await expectError(
    await charge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('save'), 'CARD', {
        details: { save_card: { ...saveCard, reason: 'INSTALLMENT' } },
      }),
    ),
    400,
    '10',
    'string',
  );
});

test('a saved card is charged one-click and by the merchant under its consent; what the consent does not cover is 409 41 saying why', async ({
  request,
}) => {
  const merchant = await createMerchant('CUSM');
  const token = await tokenFor(request, merchant);
  const customer = (await (
    await request.post(`${BASE_URL}/customers`, {
      headers: headers(token),
      data: { merchant_code: merchant.code, merchant_customer_id: 'sub-1', email: 'sub@example.pe' },
    })
  ).json()) as CustomerReply;
  const saving = chargeBody(merchant.code, operationNumber('mit'), 'CARD', {
    details: {
      save_card: {
        customer_id: customer.customer.customer_id,
        reason: 'RECURRING',
        consent: { accepted_at: '2026-12-03T09:00:00-05:00', terms_version: 'plan-mensual-v2', max_amount: '4990' },
      },
    },
  });
  const saved = (await (await charge(request, token, saving)).json()) as {
    transaction: { additional_fields: { saved_card: { card_id: string } } };
  };
  const cardId = saved.transaction.additional_fields.saved_card.card_id;
  const withCard = (details: Record<string, unknown>, amount = '4990') => {
    const body = chargeBody(merchant.code, operationNumber('mit'), 'CARD', { amount });
    return { ...body, payment_method: { method_name: 'CARD', method_details: { card_id: cardId, ...details } } };
  };

  const monthly = await charge(request, token, withCard({ initiator: 'MERCHANT', reason: 'RECURRING' }));
  expect(monthly.status(), await monthly.text()).toBe(200);
  const mit = (await monthly.json()) as { transaction: { state: string; additional_fields: Record<string, unknown> } };
  expect(mit.transaction.state).toBe('AUTORIZADO');
  expect(mit.transaction.additional_fields.stored_credential).toEqual({
    card_id: cardId,
    initiator: 'MERCHANT',
    usage: 'SUBSEQUENT',
    reason: 'RECURRING',
    nti_sent: true,
  });

  const oneClick = await charge(request, token, withCard({}, '12000'));
  expect(((await oneClick.json()) as { transaction: { state: string } }).transaction.state).toBe('AUTORIZADO');

  // The consent's words replace the code's usual ones: the integrator reads which limit it hit.
  const over = await charge(request, token, withCard({ initiator: 'MERCHANT', reason: 'RECURRING' }, '4991'));
  expect(over.status()).toBe(409);
  const refused = (await over.json()) as ErrorReply;
  expect(refused.success).toBe('false');
  expect(refused.meta.status).toEqual({
    code: '41',
    message_ilgn: [
      { locale: 'es-PE', value: 'el monto supera el máximo del consentimiento (4990 céntimos)' },
      { locale: 'en-US', value: "the amount is over the consent's maximum (4990 cents)" },
    ],
  });
  expect(refused.errors).toEqual([
    {
      field: 'payment_method.method_details.card_id',
      code: 'consent_max_amount',
      message: "the amount is over the consent's maximum (4990 cents)",
    },
  ]);
  // A security code on an MIT, or a card_id beside a PAN: 400 10.
  await expectError(
    await charge(request, token, withCard({ initiator: 'MERCHANT', reason: 'RECURRING', security_code: '123' })),
    400,
    '10',
    'string',
  );
  await expectError(
    await charge(request, token, withCard({ pan: '4111111111111111', expiry_date: '1230' })),
    400,
    '10',
    'string',
  );

  // Removed, the card is 404 30 to every charge.
  const removed = await request.delete(
    `${BASE_URL}/customers/${merchant.code}/${customer.customer.customer_id}/cards/${cardId}`,
    {
      headers: headers(token),
    },
  );
  expect(((await removed.json()) as { card: { status: string } }).card.status).toBe('REMOVED');
  await expectError(await charge(request, token, withCard({ initiator: 'MERCHANT', reason: 'RECURRING' })), 404, '30', 'string');
});

test('a card saved without a payment is verified for zero, keeps its NTI for MITs, and the same PAN is the same card', async ({
  request,
}) => {
  const merchant = await createMerchant('CUSZ');
  const token = await tokenFor(request, merchant);
  const customer = (await (
    await request.post(`${BASE_URL}/customers`, {
      headers: headers(token),
      data: { merchant_code: merchant.code, merchant_customer_id: 'zero-1', email: 'zero@example.pe' },
    })
  ).json()) as CustomerReply;
  const path = `${BASE_URL}/customers/${merchant.code}/${customer.customer.customer_id}/cards`;
  const card = {
    pan: '5555555555554444',
    expiry_date: '1129',
    security_code: '321',
    reason: 'UNSCHEDULED',
    consent: { accepted_at: '2026-12-03T09:00:00-05:00', terms_version: 'v1', max_amount: '3000' },
  };
  const saved = await request.post(path, { headers: headers(token), data: card });
  expect(saved.status(), await saved.text()).toBe(200);
  const first = (await saved.json()) as {
    success: boolean;
    card: { card_id: string; brand: string; last4: string; status: string };
  };
  expect(first).toMatchObject({
    success: true,
    card: { brand: 'MASTERCARD', last4: '4444', status: 'ACTIVE', reason: 'UNSCHEDULED' },
  });

  // No money moved: no operation for the merchant.
  const again = (await (
    await request.post(path, { headers: headers(token), data: { ...card, expiry_date: '1230' } })
  ).json()) as {
    card: { card_id: string; expiry_date: string };
  };
  expect(again.card).toMatchObject({ card_id: first.card.card_id, expiry_date: '1230' });

  // Its NTI came from the verification: an MIT of it is approved.
  const body = chargeBody(merchant.code, operationNumber('zero'), 'CARD', { amount: '2500' });
  const mit = await charge(request, token, {
    ...body,
    payment_method: {
      method_name: 'CARD',
      method_details: { card_id: first.card.card_id, initiator: 'MERCHANT', reason: 'UNSCHEDULED' },
    },
  });
  expect(((await mit.json()) as { transaction: { state: string } }).transaction.state).toBe('AUTORIZADO');

  // Declined by the issuer, or a card asking for a challenge: 422 42, nothing saved.
  await expectError(
    await request.post(path, { headers: headers(token), data: { ...card, pan: '4000000000000002' } }),
    422,
    '42',
    'boolean',
  );
  await expectError(
    await request.post(path, { headers: headers(token), data: { ...card, pan: '4000000000003220' } }),
    422,
    '42',
    'boolean',
  );
  const read = await request.get(`${BASE_URL}/customers/${merchant.code}/${customer.customer.customer_id}`, {
    headers: headers(token),
  });
  expect(((await read.json()) as { cards: unknown[] }).cards).toHaveLength(1);
  // Another merchant's customer: 404 30.
  await expectError(
    await request.post(`${BASE_URL}/customers/${merchant.code}/${crypto.randomUUID()}/cards`, {
      headers: headers(token),
      data: card,
    }),
    404,
    '30',
    'boolean',
  );
});
