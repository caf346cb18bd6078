import { expect, test } from '../support/contract';
import { charge, chargeBody, operationNumber, read, tokenFor } from '../support/api-client';
import { createMerchant, storedOperation } from '../support/service';

test('a CARD charge is authorized and stored with its lifecycle', async ({ request }) => {
  const merchant = await createMerchant('SMK');
  const token = await tokenFor(request, merchant);
  const number = operationNumber();
  const { status, body } = await read<{ transaction: { state: string; transaction_id: string } }>(
    await charge(request, token, chargeBody(merchant.code, number, 'CARD')),
  );
  expect(status).toBe(200);
  expect(body.transaction.state).toBe('AUTORIZADO');
  const stored = await storedOperation(merchant.code, number);
  expect(stored.transactions.map((row) => [row.id, row.state])).toEqual([[body.transaction.transaction_id, 'AUTORIZADO']]);
  expect(stored.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
});
