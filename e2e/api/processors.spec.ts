import { createHmac, randomUUID } from 'node:crypto';
import { expect, test } from '../support/contract';
import { cancel, chargeBody, getTransaction, operationNumber, postCharge } from '../support/api-client';
import {
  connectCulqi,
  connectMercadoPago,
  CULQI_SIMULATOR,
  MERCADOPAGO_SIMULATOR,
  routeTo,
  simulatorControl,
} from '../support/processors';
import { startReceiver } from '../support/receiver';
import { newActor, stored } from './charges-helpers';

// Merchants' own Culqi and Mercado Pago accounts over HTTP (docs/processors/): payments routed
// to them through the simulators of their APIs (tests/simulators), failover between a processor
// and a sandbox acquirer both ways, a PagoEfectivo order paid by Culqi's notification, and
// notifications that are forged, stale or replayed. Each test has a merchant and accounts of
// its own, so no test changes what another routes.

const card = (pan: string, securityCode = '123') => ({ details: { pan, security_code: securityCode } });

test('CARD and YAPE through a Culqi account: approved by Culqi, its charge id kept, one attempt', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'CQ');
  const { account } = await connectCulqi(merchant.code);
  await routeTo(merchant.code, 'CARD', [account.connectorId]);
  await routeTo(merchant.code, 'YAPE', [account.connectorId]);

  const paid = await postCharge(request, token, chargeBody(merchant.code, operationNumber('cq'), 'CARD'));
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.transaction.state).toBe('AUTORIZADO');
  expect(paid.body.transaction.additional_fields).toEqual({
    processor: account.connectorId,
    attempt: 1,
    processor_reference: expect.stringMatching(/^chr_test_[A-Za-z0-9]{16}$/),
  });
  expect(paid.body.transaction.processor_response?.result_message).toEqual({ code: '00', description: 'Aprobado' });
  const charges = await simulatorControl<{ id: string; metadata: Record<string, string> }[]>(CULQI_SIMULATOR, 'charges');
  const charged = charges.find((each) => each.id === paid.body.transaction.additional_fields?.processor_reference);
  expect(charged?.metadata.transaction_id).toBe(paid.body.transaction.transaction_id);

  const yape = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('cqy'), 'YAPE', {
      details: { phone: { country_code: '+51', subscriber: '900000001' }, otp: '425251' },
    }),
  );
  expect(yape.status, yape.text).toBe(200);
  expect(yape.body.transaction.state).toBe('AUTORIZADO');
  expect(yape.body.transaction.payment_method.method_details).toMatchObject({ issuer: 'YAPE', card_country: 'PE' });
  expect(yape.body.transaction.additional_fields?.processor).toBe(account.connectorId);
});

test('CARD and YAPE through a Mercado Pago account: approved, its payment id kept, and a decline keeps its status_detail', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'MP');
  const { account } = await connectMercadoPago(merchant.code);
  await routeTo(merchant.code, 'CARD', [account.connectorId]);
  await routeTo(merchant.code, 'YAPE', [account.connectorId]);

  const paid = await postCharge(request, token, chargeBody(merchant.code, operationNumber('mp'), 'CARD'));
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.transaction.state).toBe('AUTORIZADO');
  expect(paid.body.transaction.additional_fields).toEqual({
    processor: account.connectorId,
    attempt: 1,
    processor_reference: expect.stringMatching(/^\d+$/),
  });
  const payments = await simulatorControl<{ id: number; external_reference: string }[]>(MERCADOPAGO_SIMULATOR, 'payments');
  expect(payments.find((each) => String(each.id) === paid.body.transaction.additional_fields?.processor_reference)).toMatchObject(
    {
      external_reference: paid.body.transaction.transaction_id,
    },
  );

  const yape = await postCharge(request, token, chargeBody(merchant.code, operationNumber('mpy'), 'YAPE'));
  expect(yape.status, yape.text).toBe(200);
  expect(yape.body.transaction.state).toBe('AUTORIZADO');

  const declined = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('mpd'), 'CARD', {
      details: { pan: '4009175332806176', card_holder: { first_name: 'FUND' } },
    }),
  );
  expect(declined.status, declined.text).toBe(200);
  expect(declined.body.transaction.state).toBe('DENEGADO');
  expect(declined.body.transaction.processor_response?.result_message.code).toBe('cc_rejected_insufficient_amount');
  // A soft decline stays where it was declined: the merchant did not opt in to retrying them.
  expect(declined.body.transaction.additional_fields?.attempt).toBe(1);
});

test('failover from Culqi to a sandbox acquirer: the issuer did not answer at Culqi, acquirer A approves', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'CQF');
  const { account } = await connectCulqi(merchant.code);
  await routeTo(merchant.code, 'CARD', [account.connectorId, 'sandbox-acquirer-a']);
  const number = operationNumber('cqf');
  // Culqi's test card for issuer_not_available (docs.culqi.com …/tarjetas-de-prueba).
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card('370001000000000', '2511')));
  expect(charged.status, charged.text).toBe(200);
  expect(charged.body.transaction.state).toBe('AUTORIZADO');
  expect(charged.body.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-a', attempt: 2 });
  const query = await getTransaction(request, token, merchant.code, number, charged.body.transaction.transaction_id);
  expect(
    query.body.operation.transactions.map((each) => [
      each.state,
      each.additional_fields?.processor,
      each.processor_response?.result_message.code,
    ]),
  ).toEqual([
    ['DENEGADO', account.connectorId, 'issuer_not_available'],
    ['AUTORIZADO', 'sandbox-acquirer-a', '00'],
  ]);
});

test('failover from Mercado Pago to a sandbox acquirer: Mercado Pago refuses the account (429), acquirer B approves', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'MPF');
  const { account, keys } = await connectMercadoPago(merchant.code);
  await routeTo(merchant.code, 'CARD', [account.connectorId, 'sandbox-acquirer-b']);
  await simulatorControl(MERCADOPAGO_SIMULATOR, 'mode', { mode: 'rate_limited', key: keys.secretKey });
  try {
    const number = operationNumber('mpf');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body.transaction.state).toBe('AUTORIZADO');
    expect(charged.body.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-b', attempt: 2 });
    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.attempt, row.state, row.connectorId, row.declineClass])).toEqual([
      [1, 'DENEGADO', account.connectorId, 'technical'],
      [2, 'AUTORIZADO', 'sandbox-acquirer-b', null],
    ]);
  } finally {
    await simulatorControl(MERCADOPAGO_SIMULATOR, 'mode', { mode: 'normal', key: keys.secretKey });
  }
});

test('failover from a sandbox acquirer to Culqi: A fails technically, Culqi approves', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'SCQ');
  const { account } = await connectCulqi(merchant.code);
  await routeTo(merchant.code, 'CARD', ['sandbox-acquirer-a', account.connectorId]);
  const charged = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('scq'), 'CARD', card('4000000000008013')),
  );
  expect(charged.status, charged.text).toBe(200);
  expect(charged.body.transaction.state).toBe('AUTORIZADO');
  expect(charged.body.transaction.additional_fields).toMatchObject({ processor: account.connectorId, attempt: 2 });
});

test('a reversal through Culqi returns the whole charge at Culqi, once', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'CQR');
  const { account } = await connectCulqi(merchant.code);
  await routeTo(merchant.code, 'CARD', [account.connectorId]);
  const number = operationNumber('cqr');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
  const chargeId = charged.body.transaction.additional_fields?.processor_reference;
  const reversed = await cancel(request, token, merchant.code, number);
  expect(reversed.status, reversed.text).toBe(200);
  expect(reversed.body.operation.state).toBe('EXTORNADO');
  expect(reversed.body.operation.transactions[0]!.processor_response?.reverse_code).toMatch(/^ref_test_/);
  const again = await cancel(request, token, merchant.code, number);
  expect(again.body.operation.state).toBe('EXTORNADO');
  const charges = await simulatorControl<{ id: string; amount: number; amount_refunded: number }[]>(CULQI_SIMULATOR, 'charges');
  expect(charges.find((each) => each.id === chargeId)).toMatchObject({ amount: 15000, amount_refunded: 15000 });
});

test.describe('a Culqi PagoEfectivo order and its notifications', () => {
  test('is PENDIENTE with Culqi’s CIP until Culqi says it was paid; then AUTORIZADO, called back, and a replay changes nothing', async ({
    request,
  }) => {
    const { merchant, token } = await newActor(request, 'CQP');
    const { account } = await connectCulqi(merchant.code);
    await routeTo(merchant.code, 'PAGOEFECTIVO', [account.connectorId]);
    const number = operationNumber('cqp');
    const receiver = await startReceiver();
    const charged = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'PAGOEFECTIVO', { details: { callback_url: receiver.url('/cqp') } }),
    );
    expect(charged.status, charged.text).toBe(200);
    const pending = charged.body.transaction;
    expect(pending.state).toBe('PENDIENTE');
    const orderId = pending.additional_fields?.processor_reference as string;
    expect(orderId).toMatch(/^ord_test_/);
    const orders = await simulatorControl<{ id: string; payment_code: string }[]>(CULQI_SIMULATOR, 'orders');
    expect(pending.processor_response?.cip).toBe(orders.find((order) => order.id === orderId)?.payment_code);

    // The payer page of a Culqi order shows the CIP and cannot pay it itself.
    const page = await request.get(pending.processor_response!.cip_url!);
    expect(await page.text()).toContain(pending.processor_response!.cip!);
    const payHere = await request.post(`${pending.processor_response!.cip_url}/pay`, { maxRedirects: 0 });
    expect((await stored(merchant.code, number)).transactions[0]!.state).toBe('PENDIENTE');
    expect(payHere.status()).not.toBe(200);

    const paid = await simulatorControl<{ event_id: string; deliveries: { status: number }[] }>(
      CULQI_SIMULATOR,
      `orders/${orderId}/pay`,
      {},
    );
    expect(paid.deliveries[0]?.status).toBe(200);
    const query = await getTransaction(request, token, merchant.code, number, pending.transaction_id);
    const transaction = query.body.operation.transactions[0]!;
    expect(transaction.state).toBe('AUTORIZADO');
    expect(transaction.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(transaction.processor_response).toMatchObject({
      cip: pending.processor_response?.cip,
      operationNumber: orderId,
      result_message: { code: '100', description: 'CIP pagado' },
    });
    // The merchant hears of it by callback, as of any move.
    const callbacks = await receiver.waitFor((received) =>
      received.some((each) => each.json.event_type === 'transaction.authorized'),
    );
    await receiver.close();
    expect(callbacks.find((each) => each.json.event_type === 'transaction.authorized')?.json).toMatchObject({
      merchant_operation_number: number,
      transaction: { state: 'AUTORIZADO' },
    });

    // Culqi sends the same event again (a retry, or a replay): acknowledged, nothing moves twice.
    const replay = await simulatorControl<{ deliveries: { status: number }[] }>(
      CULQI_SIMULATOR,
      `events/${paid.event_id}/resend`,
      {},
    );
    expect(replay.deliveries.at(-1)?.status).toBe(200);
    const after = await stored(merchant.code, number);
    expect(after.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(after.events.filter((event) => event.type === 'transaction.authorized')).toHaveLength(1);
  });

  test('a forged Culqi notification (no or wrong Basic credentials) is refused 401 and changes nothing', async ({ request }) => {
    const { merchant, token } = await newActor(request, 'CQX');
    const { account } = await connectCulqi(merchant.code);
    await routeTo(merchant.code, 'PAGOEFECTIVO', [account.connectorId]);
    const number = operationNumber('cqx');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'PAGOEFECTIVO'));
    const orderId = charged.body.transaction.additional_fields?.processor_reference as string;
    const forged = JSON.stringify({
      object: 'event',
      id: `evt_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
      type: 'order.status.changed',
      creation_date: Date.now(),
      data: JSON.stringify({ object: 'order', id: orderId, state: 'paid' }),
    });
    for (const authorization of [
      undefined,
      `Basic ${Buffer.from(`${account.webhookUsername}:not-the-password`).toString('base64')}`,
    ]) {
      const answer = await request.post(account.notificationUrl, {
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        data: forged,
      });
      expect(answer.status()).toBe(401);
      expect((await answer.json()) as { meta: { status: { code: string } } }).toMatchObject({ meta: { status: { code: '20' } } });
    }
    expect((await stored(merchant.code, number)).transactions[0]!.state).toBe('PENDIENTE');
  });
});

test.describe('Mercado Pago notifications', () => {
  test('a signed notification about a payment is taken; a wrong signature, a stale one and a replay change nothing', async ({
    request,
  }) => {
    const { merchant, token } = await newActor(request, 'MPN');
    const { account, keys } = await connectMercadoPago(merchant.code);
    await routeTo(merchant.code, 'CARD', [account.connectorId]);
    const number = operationNumber('mpn');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD'));
    const paymentId = charged.body.transaction.additional_fields?.processor_reference as string;

    // Test payments notify nothing by themselves (Mercado Pago's Webhooks page): the panel's
    // "Simular" sends the payment's creation to the application's Webhooks URL, which is the
    // account's notification URL (the payment carried none: the service's address is local http).
    const simulated = await simulatorControl<{ deliveries: { url: string; status: number }[] }>(
      MERCADOPAGO_SIMULATOR,
      `payments/${paymentId}/notify`,
      { action: 'payment.created' },
    );
    expect(simulated.deliveries.map((each) => [each.url.startsWith(`${account.notificationUrl}?`), each.status])).toEqual([
      [true, 200],
    ]);

    const body = JSON.stringify({ id: Date.now(), type: 'payment', action: 'payment.updated', data: { id: paymentId } });
    const url = `${account.notificationUrl}?data.id=${paymentId}&type=payment`;
    const sign = (ts: number, requestId: string, secret = keys.webhookSecret) =>
      `ts=${ts},v1=${createHmac('sha256', secret).update(`id:${paymentId};request-id:${requestId};ts:${ts};`).digest('hex')}`;
    const post = (signature: string, requestId: string) =>
      request.post(url, {
        headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-request-id': requestId },
        data: body,
      });
    const now = Math.floor(Date.now() / 1000);
    const requestId = randomUUID();
    expect((await post(sign(now, requestId, 'not-the-secret-0123456789'), requestId)).status()).toBe(401);
    expect((await post(sign(now - 4_000, requestId), requestId)).status()).toBe(401);
    const first = await post(sign(now, requestId), requestId);
    expect(first.status()).toBe(200);
    // Mercado Pago says the payment is approved, as the service already holds it: nothing moves.
    expect(await first.json()).toMatchObject({ received: true, duplicate: false, outcome: 'unchanged' });
    const replay = await post(sign(now, requestId), requestId);
    expect(replay.status()).toBe(200);
    expect(await replay.json()).toMatchObject({ received: true, duplicate: true });
    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.state, row.lifecycle.length])).toEqual([['AUTORIZADO', 3]]);
  });
});
