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
import type { ErrorReply } from '../support/api-types';
import { asyncActor, bodyFor, chargeOk, followRefund, postRefund, waitForState } from './async-helpers';

// A refund through each real processor (docs/processors/): the worker asks the merchant's account
// to return a settled payment, which Culqi (POST /v2/refunds) and Mercado Pago
// (POST /v1/payments/{id}/refunds) do once; the refund goes REGISTERED, IN_PROCESS, RESOLVED.

const PROCESSORS = [
  {
    name: 'Culqi',
    prefix: 'CQRF',
    connect: (merchantCode: string) => connectCulqi(merchantCode, ['CARD'], ASYNC_PORT),
    // The charge at Culqi, returned whole: its amount_refunded is its amount.
    async returned(processorReference: string) {
      const charges = await simulatorControl<{ id: string; amount: number; amount_refunded: number }[]>(
        CULQI_SIMULATOR,
        'charges',
      );
      expect(charges.find((each) => each.id === processorReference)).toMatchObject({ amount: 15000, amount_refunded: 15000 });
    },
  },
  {
    name: 'Mercado Pago',
    prefix: 'MPRF',
    connect: (merchantCode: string) => connectMercadoPago(merchantCode, ['CARD'], ASYNC_PORT),
    // The payment at Mercado Pago, refunded once, whole.
    async returned(processorReference: string) {
      const payments = await simulatorControl<
        { id: number; status: string; refunds: unknown[]; transaction_amount_refunded: number }[]
      >(MERCADOPAGO_SIMULATOR, 'payments');
      expect(payments.find((each) => String(each.id) === processorReference)).toMatchObject({
        status: 'refunded',
        transaction_amount_refunded: 150,
        refunds: [expect.objectContaining({ amount: 150, status: 'approved' })],
      });
    },
  },
];

for (const processor of PROCESSORS) {
  test(`a settled card payment carried by ${processor.name} is refunded there, whole and once`, async ({ request }) => {
    const { merchant, token } = await asyncActor(request, processor.prefix);
    const { account } = await processor.connect(merchant.code);
    await routeTo(merchant.code, 'CARD', [account.connectorId], ASYNC_PORT);
    const number = operationNumber(`${processor.prefix.toLowerCase()}-refund`);
    const charged = await chargeOk(request, token, bodyFor(merchant.code, number, 'CARD'), 'AUTORIZADO');
    const id = charged.transaction.transaction_id;
    await waitForState(request, token, merchant.code, number, id, 'LIQUIDADO', 8_000);

    // Refunds in parts are not wired to this processor: a part is refused, never sent as a whole refund.
    const partial = await postRefund<ErrorReply>(
      request,
      token,
      refundBody(merchant.code, [refundItem(number, id, '5000', { type: 'PARTIAL' })]),
    );
    expect(partial.status, partial.text).toBe(422);
    expect(partial.body.meta.status.code).toBe('42');
    expect(partial.body.errors.map((each) => each.field)).toEqual(['operations[0].type']);

    const requested = await postRefund(request, token, refundBody(merchant.code, [refundItem(number, id, '15000')]));
    expect(requested.status, requested.text).toBe(200);
    const { seen } = await followRefund(
      request,
      token,
      merchant.code,
      number,
      requested.body.operations[0]!.refund_id,
      'RESOLVED',
    );
    expect(seen).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
    await processor.returned(String(charged.transaction.additional_fields?.processor_reference));
  });
}
