import { expect, test } from '../support/contract';
import { operationNumber, refundBody, refundItem } from '../support/api-client';
import {
  connectCulqi,
  connectIzipay,
  connectMercadoPago,
  connectNiubiz,
  CULQI_SIMULATOR,
  IZIPAY_SIMULATOR,
  MERCADOPAGO_SIMULATOR,
  NIUBIZ_SIMULATOR,
  routeTo,
  simulatorControl,
} from '../support/processors';
import { ASYNC_ORIGIN, ASYNC_PORT } from '../support/service';
import { headers as apiHeaders } from '../support/api-client';
import type { ErrorReply } from '../support/api-types';
import { asyncActor, bodyFor, chargeOk, followRefund, postRefund, waitForState } from './async-helpers';

// A refund through each real processor (docs/processors/): the worker asks the merchant's account
// to return a settled payment, which Culqi (POST /v2/refunds, its refund's id in the metadata),
// Mercado Pago (POST /v1/payments/{id}/refunds under the refund's key), Niubiz (POST
// /api.refund/v1/refund/{merchantId}/{transactionId}, its externalReferenceId ours) and Izipay
// (Transaction/CancelOrRefund REFUND_ONLY) do once each; every refund goes REGISTERED,
// IN_PROCESS, RESOLVED.

/** Izipay's own record of an order, read as the merchant's server would (Order/Get, Basic shop id and password). */
async function izipayOrder(keys: { shopId: string; password: string }, orderId: string) {
  const answer = await fetch(`${IZIPAY_SIMULATOR}/api-payment/V4/Order/Get`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${keys.shopId}:${keys.password}`).toString('base64')}`,
    },
    body: JSON.stringify({ orderId }),
  });
  return ((await answer.json()) as { answer: { transactions: { operationType: string; amount: number }[] } }).answer;
}

type Refunded = { processorReference: string; transactionId: string; refundIds: string[]; keys: unknown };

const PROCESSORS: {
  name: string;
  prefix: string;
  card?: Record<string, string>;
  connect(merchantCode: string): Promise<{ account: { connectorId: string }; keys: unknown }>;
  returned(refunded: Refunded): Promise<void>;
}[] = [
  {
    name: 'Culqi',
    prefix: 'CQRF',
    connect: (merchantCode: string) => connectCulqi(merchantCode, ['CARD'], ASYNC_PORT),
    // The charge at Culqi: one refund of each part, each naming ours, adding up to its amount.
    async returned({ processorReference, refundIds }) {
      const charges = await simulatorControl<{ id: string; amount: number; amount_refunded: number }[]>(
        CULQI_SIMULATOR,
        'charges',
      );
      expect(charges.find((each) => each.id === processorReference)).toMatchObject({ amount: 15000, amount_refunded: 15000 });
      const refunds = await simulatorControl<{ charge_id: string; amount: number; metadata: Record<string, string> }[]>(
        CULQI_SIMULATOR,
        'refunds',
      );
      expect(
        refunds.filter((each) => each.charge_id === processorReference).map((each) => [each.amount, each.metadata.refund_id]),
      ).toEqual([
        [5000, refundIds[0]],
        [10000, refundIds[1]],
      ]);
    },
  },
  {
    name: 'Mercado Pago',
    prefix: 'MPRF',
    connect: (merchantCode: string) => connectMercadoPago(merchantCode, ['CARD'], ASYNC_PORT),
    // The payment at Mercado Pago: refunded in two parts, once each.
    async returned({ processorReference }) {
      const payments = await simulatorControl<
        { id: number; status: string; refunds: unknown[]; transaction_amount_refunded: number }[]
      >(MERCADOPAGO_SIMULATOR, 'payments');
      expect(payments.find((each) => String(each.id) === processorReference)).toMatchObject({
        status: 'refunded',
        transaction_amount_refunded: 150,
        refunds: [
          expect.objectContaining({ amount: 50, status: 'approved' }),
          expect.objectContaining({ amount: 100, status: 'approved' }),
        ],
      });
    },
  },
  {
    name: 'Niubiz',
    prefix: 'NBRF',
    // Niubiz's documented approved test card (docs/processors/sources/niubiz-api.md 13.1).
    card: { pan: '4919148107859067' },
    connect: (merchantCode: string) => connectNiubiz(merchantCode, ['CARD'], ASYNC_PORT),
    // The sale at Niubiz: refunded in two parts adding up to its amount.
    async returned({ processorReference }) {
      expect(await simulatorControl(NIUBIZ_SIMULATOR, `sales/${processorReference}`)).toEqual({
        status: 'Authorized',
        amount: '15000',
        refunded: '15000',
      });
    },
  },
  {
    name: 'Izipay',
    prefix: 'IZRF',
    // Izipay's documented accepted test card (docs/processors/sources/izipay-api.md 10.1).
    card: { pan: '4970100000000055' },
    connect: (merchantCode: string) => connectIzipay(merchantCode, ASYNC_PORT),
    // The order at Izipay: its payment and one CREDIT per part.
    async returned({ transactionId, keys }) {
      const order = await izipayOrder(keys as { shopId: string; password: string }, transactionId);
      expect(order.transactions.map((each) => [each.operationType, each.amount])).toEqual([
        ['DEBIT', 15000],
        ['CREDIT', 5000],
        ['CREDIT', 10000],
      ]);
    },
  },
];

for (const processor of PROCESSORS) {
  test(`a settled card payment carried by ${processor.name} is refunded there in two parts, each once`, async ({ request }) => {
    const { merchant, token } = await asyncActor(request, processor.prefix);
    const { account, keys } = await processor.connect(merchant.code);
    await routeTo(merchant.code, 'CARD', [account.connectorId], ASYNC_PORT);
    const number = operationNumber(`${processor.prefix.toLowerCase()}-refund`);
    const charged = await chargeOk(request, token, bodyFor(merchant.code, number, 'CARD', processor.card), 'AUTORIZADO');
    const id = charged.transaction.transaction_id;
    await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);

    const refundIds: string[] = [];
    for (const amount of ['5000', '10000']) {
      const requested = await postRefund(
        request,
        token,
        refundBody(merchant.code, [refundItem(number, id, amount, { type: 'PARTIAL' })]),
      );
      expect(requested.status, requested.text).toBe(200);
      const refundId = requested.body.operations[0]!.refund_id;
      const { seen } = await followRefund(request, token, merchant.code, number, refundId, 'RESOLVED');
      expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
      refundIds.push(refundId);
    }
    await processor.returned({
      processorReference: String(charged.transaction.additional_fields?.processor_reference),
      transactionId: id,
      refundIds,
      keys,
    });
  });
}

test('a card payment carried by Mercado Pago is reserved, captured in part there, and refunded in part', async ({ request }) => {
  const { merchant, token } = await asyncActor(request, 'MPCP');
  const { account } = await connectMercadoPago(merchant.code, ['CARD'], ASYNC_PORT);
  await routeTo(merchant.code, 'CARD', [account.connectorId], ASYNC_PORT);
  const number = operationNumber('mpcp');
  const charged = await chargeOk(request, token, bodyFor(merchant.code, number, 'CARD', { capture: 'manual' }), 'AUTORIZADO');
  const id = charged.transaction.transaction_id;
  const reference = String(charged.transaction.additional_fields?.processor_reference);
  type Payment = {
    id: number;
    status: string;
    captured: boolean;
    transaction_amount: number;
    transaction_amount_refunded: number;
  };
  const atProcessor = async () =>
    (await simulatorControl<Payment[]>(MERCADOPAGO_SIMULATOR, 'payments')).find((each) => String(each.id) === reference);
  expect(await atProcessor()).toMatchObject({ status: 'authorized', captured: false, transaction_amount: 150 });

  const captured = await request.post(`${ASYNC_ORIGIN}/api/charges/${merchant.code}/${number}/capture`, {
    headers: apiHeaders(token),
    data: { amount: '9000' },
  });
  expect(captured.status(), await captured.text()).toBe(200);
  expect(await atProcessor()).toMatchObject({ status: 'approved', captured: true, transaction_amount: 90 });

  await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);
  const requested = await postRefund(
    request,
    token,
    refundBody(merchant.code, [refundItem(number, id, '4000', { type: 'PARTIAL' })]),
  );
  expect(requested.status, requested.text).toBe(200);
  const { seen } = await followRefund(request, token, merchant.code, number, requested.body.operations[0]!.refund_id, 'RESOLVED');
  expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
  expect(await atProcessor()).toMatchObject({ status: 'approved', transaction_amount: 90, transaction_amount_refunded: 40 });
});

test('a card payment carried by Culqi is held, and captured whole there; a part is refused before Culqi is asked', async ({
  request,
}) => {
  const { merchant, token } = await asyncActor(request, 'CQCP');
  const { account } = await connectCulqi(merchant.code, ['CARD'], ASYNC_PORT);
  await routeTo(merchant.code, 'CARD', [account.connectorId], ASYNC_PORT);
  const number = operationNumber('cqcp');
  const charged = await chargeOk(request, token, bodyFor(merchant.code, number, 'CARD', { capture: 'manual' }), 'AUTORIZADO');
  const reference = String(charged.transaction.additional_fields?.processor_reference);
  const atCulqi = async () =>
    (await simulatorControl<{ id: string; capture: boolean; amount: number }[]>(CULQI_SIMULATOR, 'charges')).find(
      (each) => each.id === reference,
    );
  expect(await atCulqi()).toMatchObject({ capture: false, amount: 15000 });
  const capture = (data?: object) =>
    request.post(`${ASYNC_ORIGIN}/api/charges/${merchant.code}/${number}/capture`, {
      headers: apiHeaders(token),
      ...(data ? { data } : {}),
    });
  const part = await capture({ amount: '9000' });
  expect(part.status()).toBe(422);
  expect(((await part.json()) as ErrorReply).meta.status.code).toBe('42');
  expect(await atCulqi()).toMatchObject({ capture: false });
  const whole = await capture();
  expect(whole.status(), await whole.text()).toBe(200);
  expect(await atCulqi()).toMatchObject({ capture: true, amount: 15000 });
});
