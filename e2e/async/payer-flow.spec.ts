import { ASYNC_ORIGIN } from '../support/service';
import {
  SETTLEMENT_DELAY_MS,
  asyncActor,
  asyncOperator,
  bodyFor,
  chargeOk,
  entryOf,
  expect,
  expectEnvelope,
  expectSigned,
  expectTimes,
  firstArrivals,
  followRefund,
  inspect,
  msOf,
  pageUrl,
  payerPost,
  payerUrlOf,
  postRefund,
  queryTransaction,
  refundOf,
  states,
  test,
  transactionOf,
  until,
  waitForEvents,
  waitForState,
  waitForStored,
  type PayerAnswer,
} from './async-helpers';
import { operationNumber, refundItem, refundBody } from '../support/api-client';

// The payer's path from outside (docs/DESIGN.md 6 and 8): charge, hosted page, form post, redirect
// back to the merchant, settlement, refund; every move announced by a signed callback.

const RETURN_URL = 'https://merchant.example/return?src=shop';
const REGISTERED = 'transaction.registered';
const PENDING = 'transaction.pending';
const AUTHORIZED = 'transaction.authorized';
const SETTLED = 'transaction.settled';

/** The 303 to the merchant's redirect_url, which keeps its own query and adds the outcome. */
function expectMerchantReturn(answer: PayerAnswer, number: string, transactionId: string, state: string) {
  expect(answer.status).toBe(303);
  const back = new URL(answer.location);
  expect(`${back.origin}${back.pathname}`).toBe('https://merchant.example/return');
  expect(Object.fromEntries(back.searchParams)).toEqual({
    src: 'shop',
    merchant_operation_number: number,
    transaction_id: transactionId,
    state,
  });
}

const FLOWS = {
  BANK_TRANSFER: { redirect: true, form: {}, code: '00', refundable: false },
  CUOTEALO: { redirect: true, form: { installments: '6' }, code: '00', refundable: true },
  PAGOEFECTIVO: { redirect: false, form: {}, code: '100', refundable: false },
  QR: { redirect: false, form: {}, code: '0', refundable: false },
} as const;

for (const [method, flow] of Object.entries(FLOWS) as [keyof typeof FLOWS, (typeof FLOWS)[keyof typeof FLOWS]][]) {
  test(`${method}: charge, pay on the payer page, AUTORIZADO, LIQUIDADO${flow.refundable ? ', refund RESOLVED' : ''}, each step a signed callback`, async ({
    request,
    receiver,
    pem,
  }) => {
    const { merchant, token } = await asyncActor(request, `PF${method.slice(0, 2)}`);
    const number = operationNumber(`pf-${method.toLowerCase()}`);
    const path = `/${method.toLowerCase()}`;
    const details: Record<string, unknown> = { callback_url: receiver.url(path) };
    if (method === 'BANK_TRANSFER' || method === 'CUOTEALO') details.redirect_url = RETURN_URL;
    if (method === 'PAGOEFECTIVO') details.redirect_url = undefined;
    const charged = await chargeOk(request, token, bodyFor(merchant.code, number, method, details), 'PENDIENTE');
    const pending = charged.transaction;
    const id = pending.transaction_id;
    const payerUrl = payerUrlOf(pending);

    const page = await request.get(payerUrl);
    expect(page.status()).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Test ${merchant.code}`);
    expect(html).toContain(number);

    const paid = await payerPost(request, payerUrl, 'pay', flow.form);
    if (flow.redirect) expectMerchantReturn(paid, number, id, 'AUTORIZADO');
    else expect(paid).toEqual({ status: 303, location: pageUrl(payerUrl) });

    const { transaction: authorized } = await queryTransaction(request, token, merchant.code, number, id);
    expect(authorized.state).toBe('AUTORIZADO');
    expect(states(authorized.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(authorized.lifecycle.slice(0, 2)).toEqual(pending.lifecycle);
    expectTimes(authorized.lifecycle, 'millis');
    expect(authorized.continue_url).toBeUndefined();
    expect(authorized.processor_response?.result_message.code).toBe(flow.code);
    // The connector and attempt routing noted, and CUOTEALO's chosen instalments beside them.
    expect(authorized.additional_fields).toEqual({
      processor: `sandbox-${method.toLowerCase().replace('_', '-')}`,
      attempt: 1,
      ...(method === 'CUOTEALO' ? { installments: '6' } : {}),
      // The sandbox QR's simulated-payment page, named since its code no app can pay.
      ...(method === 'QR' ? { sandbox: { pay_url: payerUrl } } : {}),
    });
    if (method === 'PAGOEFECTIVO') {
      expect(authorized.processor_response).toMatchObject({
        cip: pending.processor_response!.cip,
        cip_url: payerUrl,
      });
    }
    if (method === 'QR') expect(authorized.processor_response?.qr_id).toBe(pending.processor_response!.qr_id);

    const after = await (await request.get(payerUrl)).text();
    expect(after).toContain('data-state="AUTORIZADO"');
    expect(after).toContain('Pago realizado');

    const arrivals = await waitForEvents(receiver, path, [REGISTERED, PENDING, AUTHORIZED]);
    for (const [index, callback] of arrivals.entries()) {
      expectEnvelope(callback, {
        merchantCode: merchant.code,
        number,
        type: [REGISTERED, PENDING, AUTHORIZED][index]!,
        object: 'transaction',
      });
      expectSigned(callback, pem);
    }
    expect(transactionOf(arrivals[0]!).lifecycle).toEqual(pending.lifecycle.slice(0, 1));
    expect(transactionOf(arrivals[1]!).lifecycle).toEqual(pending.lifecycle);
    expect(transactionOf(arrivals[2]!)).toEqual(authorized);

    const settled = await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
    expect(states(settled.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'LIQUIDADO']);
    const waited =
      msOf(entryOf(settled.transaction.lifecycle, 'LIQUIDADO').date) -
      msOf(entryOf(settled.transaction.lifecycle, 'AUTORIZADO').date);
    expect(waited).toBeGreaterThanOrEqual(SETTLEMENT_DELAY_MS);
    expect(waited).toBeLessThan(SETTLEMENT_DELAY_MS + 2_000);
    const settledCallback = (await waitForEvents(receiver, path, [REGISTERED, PENDING, AUTHORIZED, SETTLED]))[3]!;
    expectSigned(settledCallback, pem);
    expect(transactionOf(settledCallback)).toEqual(settled.transaction);

    const requested = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
    if (!flow.refundable) {
      expect(requested.status, requested.text).toBe(422);
      expect(requested.body.meta.status.code).toBe('42');
    } else {
      expect(requested.status, requested.text).toBe(200);
      const refundId = requested.body.operations[0]!.refund_id;
      const { refund, seen } = await followRefund(request, token, merchant.code, number, refundId, 'RESOLVED');
      expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
      expect(states(refund.lifecycle)).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
      const refundEvents = ['refund.registered', 'refund.in_process', 'refund.resolved'];
      const refundArrivals = (
        await waitForEvents(receiver, path, [REGISTERED, PENDING, AUTHORIZED, SETTLED, ...refundEvents])
      ).slice(4);
      for (const [index, callback] of refundArrivals.entries()) {
        expectEnvelope(callback, { merchantCode: merchant.code, number, type: refundEvents[index]!, object: 'refund' });
        expectSigned(callback, pem);
        expect(refundOf(callback).refund_id).toBe(refundId);
      }
      expect(refundOf(refundArrivals[2]!)).toEqual(refund);
    }

    // Every event delivered once, on its first attempt.
    const expected = [
      REGISTERED,
      PENDING,
      AUTHORIZED,
      SETTLED,
      ...(flow.refundable ? ['refund.registered', 'refund.in_process', 'refund.resolved'] : []),
    ];
    const stored = await waitForStored(
      'every event delivered',
      merchant.code,
      number,
      (row) => row.events.length === expected.length && row.events.every((event) => event.status === 'DELIVERED'),
    );
    expect(stored.events.map((event) => [event.type, event.status, event.attempts])).toEqual(
      expected.map((type) => [type, 'DELIVERED', 1]),
    );
    expect(firstArrivals(receiver, path)).toHaveLength(expected.length);
  });
}

test('abandon: POST /abandon cancels the payment and sends the payer back with state=CANCELADO', async ({
  request,
  receiver,
  pem,
}) => {
  const { merchant, token } = await asyncActor(request, 'PFAB');
  const number = operationNumber('pf-abandon');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'BANK_TRANSFER', { redirect_url: RETURN_URL, callback_url: receiver.url('/ab') }),
    'PENDIENTE',
  );
  const id = charged.transaction.transaction_id;
  const payerUrl = payerUrlOf(charged.transaction);

  const abandoned = await payerPost(request, payerUrl, 'abandon');
  expectMerchantReturn(abandoned, number, id, 'CANCELADO');
  const { operation, transaction } = await queryTransaction(request, token, merchant.code, number, id);
  expect(operation.state).toBe('CANCELADO');
  expect(states(transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'CANCELADO']);
  expect(transaction.expiration_date).toBeNull();
  expect(transaction.continue_url).toBeUndefined();

  const [, , cancelled] = await waitForEvents(receiver, '/ab', [REGISTERED, PENDING, 'transaction.cancelled']);
  expectSigned(cancelled!, pem);
  expect(transactionOf(cancelled!)).toEqual(transaction);

  // Paying afterwards changes nothing: back to the page, which shows the outcome.
  const late = await payerPost(request, payerUrl, 'pay');
  expect(late).toEqual({ status: 303, location: pageUrl(payerUrl) });
  const still = await queryTransaction(request, token, merchant.code, number, id);
  expect(still.transaction).toEqual(transaction);
  const html = await (await request.get(payerUrl)).text();
  expect(html).toContain('data-state="CANCELADO"');
  expect(html).toContain('Pago cancelado');
  const stored = await inspect(merchant.code, number);
  expect(stored.events.map((event) => event.type)).toEqual([REGISTERED, PENDING, 'transaction.cancelled']);
});

test('a second pay after paying changes nothing', async ({ request, receiver }) => {
  const { merchant, token } = await asyncActor(request, 'PFTW');
  const number = operationNumber('pf-twice');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'BANK_TRANSFER', { redirect_url: RETURN_URL, callback_url: receiver.url('/tw') }),
    'PENDIENTE',
  );
  const id = charged.transaction.transaction_id;
  const payerUrl = payerUrlOf(charged.transaction);

  expectMerchantReturn(await payerPost(request, payerUrl, 'pay'), number, id, 'AUTORIZADO');
  const first = await queryTransaction(request, token, merchant.code, number, id);
  const again = await payerPost(request, payerUrl, 'pay');
  expect(again).toEqual({ status: 303, location: pageUrl(payerUrl) });
  const second = await queryTransaction(request, token, merchant.code, number, id);
  expect(second.operation.transactions).toHaveLength(1);
  expect(states(second.transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  expect(second.transaction).toEqual(first.transaction);
  const stored = await inspect(merchant.code, number);
  expect(stored.events.filter((event) => event.type === AUTHORIZED)).toHaveLength(1);
});

test('10 concurrent pay posts: exactly one moves the payment', async ({ request, receiver }) => {
  const { merchant, token } = await asyncActor(request, 'PFCC');
  const number = operationNumber('pf-race');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'BANK_TRANSFER', { redirect_url: RETURN_URL, callback_url: receiver.url('/race') }),
    'PENDIENTE',
  );
  const id = charged.transaction.transaction_id;
  const payerUrl = payerUrlOf(charged.transaction);

  const answers = await Promise.all(Array.from({ length: 10 }, () => payerPost(request, payerUrl, 'pay')));
  expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 303));
  const toMerchant = answers.filter((answer) => answer.location.startsWith('https://merchant.example/'));
  expect(toMerchant).toHaveLength(1);
  expectMerchantReturn(toMerchant[0]!, number, id, 'AUTORIZADO');
  expect(answers.filter((answer) => answer.location === pageUrl(payerUrl))).toHaveLength(9);

  const { operation, transaction } = await queryTransaction(request, token, merchant.code, number, id);
  expect(operation.transactions).toHaveLength(1);
  expect(states(transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  const stored = await inspect(merchant.code, number);
  expect(states(stored.transactions[0]!.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  expect(stored.events.filter((event) => event.type === AUTHORIZED)).toHaveLength(1);
  await waitForEvents(receiver, '/race', [REGISTERED, PENDING, AUTHORIZED]);
});

test("an unknown token's payer page answers 200 with the not-found text", async ({ request }) => {
  const unknown = `${ASYNC_ORIGIN}/pay/unknown-token-xxxxxxxxxxxx`;
  const page = await request.get(unknown);
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain('No encontramos este pago');
  const english = await request.get(`${unknown}?lang=en`);
  expect(english.status()).toBe(200);
  expect(await english.text()).toContain('We could not find this payment');
  // Its forms lead nowhere but back to that page.
  expect(await payerPost(request, unknown, 'pay')).toEqual({ status: 303, location: pageUrl(unknown) });
});

test("an expired payment's pay post moves it to EXPIRADO, not AUTORIZADO", async ({ request, receiver, pem }) => {
  const { merchant, token } = await asyncActor(request, 'PFEX');
  await asyncOperator().setExpirySeconds.mutate({ code: merchant.code, expirySeconds: { BANK_TRANSFER: 1 } });
  const number = operationNumber('pf-exp');
  const charged = await chargeOk(
    request,
    token,
    bodyFor(merchant.code, number, 'BANK_TRANSFER', { redirect_url: RETURN_URL, callback_url: receiver.url('/late') }),
    'PENDIENTE',
  );
  const id = charged.transaction.transaction_id;
  const payerUrl = payerUrlOf(charged.transaction);
  const expiresAt = msOf(charged.transaction.expiration_date!);
  expect(expiresAt - msOf(entryOf(charged.transaction.lifecycle, 'PENDIENTE').date)).toBe(1_000);
  await until(
    'the expiration date passed',
    async () => Date.now(),
    (now) => now > expiresAt + 5,
    3_000,
    10,
  );

  const late = await payerPost(request, payerUrl, 'pay');
  expect(late).toEqual({ status: 303, location: pageUrl(payerUrl) });
  const { transaction } = await queryTransaction(request, token, merchant.code, number, id);
  expect(transaction.state).toBe('EXPIRADO');
  expect(states(transaction.lifecycle)).toEqual(['REGISTRADO', 'PENDIENTE', 'EXPIRADO']);
  expect(msOf(entryOf(transaction.lifecycle, 'EXPIRADO').date)).toBeGreaterThanOrEqual(expiresAt);
  expect(transaction.processor_response).toBeNull();
  const html = await (await request.get(payerUrl)).text();
  expect(html).toContain('data-state="EXPIRADO"');
  expect(html).toContain('Pago vencido');

  const [, , expired] = await waitForEvents(receiver, '/late', [REGISTERED, PENDING, 'transaction.expired']);
  expectSigned(expired!, pem);
  const stored = await inspect(merchant.code, number);
  expect(stored.events.map((event) => event.type)).toEqual([REGISTERED, PENDING, 'transaction.expired']);
});
