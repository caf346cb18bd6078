import { expect, test } from '../support/contract';
import { operationNumber, refundBody, refundItem } from '../support/api-client';
import {
  connectCulqi,
  connectMercadoPago,
  CULQI_SIMULATOR,
  MERCADOPAGO_SIMULATOR,
  routeTo,
  simulatorControl,
} from '../support/processors';
import { ASYNC_PORT } from '../support/service';
import { asyncActor, bodyFor, chargeOk, followRefund, postRefund, waitForState } from './async-helpers';

// A refund through each real processor (docs/processors/): the worker asks the merchant's account
// to return a settled payment, which Culqi (POST /v2/refunds) and Mercado Pago
// (POST /v1/payments/{id}/refunds) do once; the refund goes REGISTERED, IN_PROCESS, RESOLVED.

test('a settled card payment carried by Culqi is refunded at Culqi, whole and once', async ({ request }) => {
  const { merchant, token } = await asyncActor(request, 'CQRF');
  const { account } = await connectCulqi(merchant.code, ['CARD'], ASYNC_PORT);
  await routeTo(merchant.code, 'CARD', [account.connectorId], ASYNC_PORT);
  const number = operationNumber('cq-refund');
  const charged = await chargeOk(request, token, bodyFor(merchant.code, number, 'CARD'), 'AUTORIZADO');
  const id = charged.transaction.transaction_id;
  const chargeId = charged.transaction.additional_fields?.processor_reference;
  await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);

  const requested = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
  expect(requested.status, requested.text).toBe(200);
  const { seen } = await followRefund(request, token, merchant.code, number, requested.body.operations[0]!.refund_id, 'RESOLVED');
  expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
  const charges = await simulatorControl<{ id: string; amount: number; amount_refunded: number }[]>(CULQI_SIMULATOR, 'charges');
  expect(charges.find((each) => each.id === chargeId)).toMatchObject({ amount: 15000, amount_refunded: 15000 });
});

test('a settled card payment carried by Mercado Pago is refunded at Mercado Pago, whole and once', async ({ request }) => {
  const { merchant, token } = await asyncActor(request, 'MPRF');
  const { account } = await connectMercadoPago(merchant.code, ['CARD'], ASYNC_PORT);
  await routeTo(merchant.code, 'CARD', [account.connectorId], ASYNC_PORT);
  const number = operationNumber('mp-refund');
  const charged = await chargeOk(request, token, bodyFor(merchant.code, number, 'CARD'), 'AUTORIZADO');
  const id = charged.transaction.transaction_id;
  const paymentId = charged.transaction.additional_fields?.processor_reference;
  await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);

  const requested = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
  expect(requested.status, requested.text).toBe(200);
  const { seen } = await followRefund(request, token, merchant.code, number, requested.body.operations[0]!.refund_id, 'RESOLVED');
  expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
  const payments = await simulatorControl<
    { id: number; status: string; refunds: unknown[]; transaction_amount_refunded: number }[]
  >(MERCADOPAGO_SIMULATOR, 'payments');
  expect(payments.find((each) => String(each.id) === paymentId)).toMatchObject({
    status: 'refunded',
    transaction_amount_refunded: 150,
    refunds: [expect.objectContaining({ amount: 150, status: 'approved' })],
  });
});
