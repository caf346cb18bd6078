import { expect, test } from '../support/contract';
import { operationNumber } from '../support/api-client';
import { connectIzipay, IZIPAY_SIMULATOR, routeTo, simulatorControl, simulatorMode } from '../support/processors';
import { ASYNC_PORT, storedOperation } from '../support/service';
import { asyncActor, bodyFor, postCharge, waitForState } from './async-helpers';

// A lost answer at Peru's acquirer, settled by asking it (docs/ORCHESTRATION.md 3): Izipay makes
// the payment but answers after the attempt's timeout, and is still too slow for the inquiry the
// charge makes at once; the payment waits in doubt, nowhere else, until the worker's status sync
// asks Izipay again (Order/Get by our transaction id) and finds it approved. One payment at
// Izipay, one attempt, no failover.

test('a payment Izipay made after the timeout is found by the worker asking Izipay: AUTORIZADO, one attempt, one payment', async ({
  request,
}) => {
  test.setTimeout(90_000);
  const { merchant, token } = await asyncActor(request, 'IZLA');
  const izipay = await connectIzipay(merchant.code, ASYNC_PORT);
  await routeTo(merchant.code, 'CARD', [izipay.account.connectorId, 'sandbox-acquirer-a'], ASYNC_PORT);
  const number = operationNumber('izla');
  // Slower than the service's 2 s timeout: the work is done, the answer comes too late.
  await simulatorMode(IZIPAY_SIMULATOR, 'slow', izipay.keys.shopId, 2_600);
  let transactionId = '';
  try {
    const charged = await postCharge(request, token, bodyFor(merchant.code, number, 'CARD', { pan: '4970100000000055' }));
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body.transaction.state).toBe('PENDIENTE');
    transactionId = charged.body.transaction.transaction_id;
  } finally {
    await simulatorMode(IZIPAY_SIMULATOR, 'normal', izipay.keys.shopId);
  }
  const { transaction } = await waitForState(request, token, merchant.code, number, transactionId, 'AUTORIZADO', 60_000);
  expect(transaction.additional_fields).toMatchObject({ processor: izipay.account.connectorId, attempt: 1 });
  const stored = await storedOperation(merchant.code, number, ASYNC_PORT);
  expect(stored.transactions.map((row) => [row.attempt, row.state, row.connectorId])).toEqual([
    [1, 'AUTORIZADO', izipay.account.connectorId],
  ]);
  // Izipay holds exactly one payment of this order.
  const log = await simulatorControl<{ path: string; body: string }[]>(IZIPAY_SIMULATOR, 'requests');
  const creates = log.filter((each) => each.path.endsWith('/Charge/CreatePayment') && each.body.includes(transactionId));
  expect(creates).toHaveLength(1);
});
