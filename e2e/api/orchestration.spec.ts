import { expect, test } from '../support/contract';
import { cancel, chargeBody, getTransaction, operationNumber, postCharge } from '../support/api-client';
import { operatorConsole } from '../support/service';
import { newActor, stored } from './charges-helpers';

// Orchestration over HTTP (docs/ORCHESTRATION.md 2, 3, 5), with the test PANs that behave
// differently per acquirer, so nothing here changes a connector every other suite shares.

const card = (pan: string, extra: Record<string, unknown> = {}) => ({ details: { pan, ...extra } });

test('a technical failure at acquirer A moves on to B: the answer is attempt 2, GET lists both, oldest first', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'ORC');
  const number = operationNumber('fo');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card('4000000000008013')));
  expect(charged.status, charged.text).toBe(200);
  expect(charged.body.transaction.state).toBe('AUTORIZADO');
  expect(charged.body.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-b', attempt: 2 });

  const query = await getTransaction(request, token, merchant.code, number, charged.body.transaction.transaction_id);
  expect(query.status, query.text).toBe(200);
  expect(
    query.body.operation.transactions.map((transaction) => [
      transaction.state,
      transaction.additional_fields,
      transaction.processor_response?.result_message.code,
    ]),
  ).toEqual([
    ['DENEGADO', { processor: 'sandbox-acquirer-a', attempt: 1 }, '96'],
    ['AUTORIZADO', { processor: 'sandbox-acquirer-b', attempt: 2 }, '00'],
  ]);
  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.attempt, row.state, row.connectorId])).toEqual([
    [1, 'DENEGADO', 'sandbox-acquirer-a'],
    [2, 'AUTORIZADO', 'sandbox-acquirer-b'],
  ]);
});

test('a soft decline stays at A until the merchant turns retries of soft declines on; then B approves it', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'ORC');
  const before = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('soft'), 'CARD', card('4000000000008005')),
  );
  expect(before.body.transaction.state).toBe('DENEGADO');
  expect(before.body.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-a', attempt: 1 });

  await operatorConsole().routing.updatePolicy.mutate({
    merchantCode: merchant.code,
    method: 'CARD',
    maxAttempts: 2,
    budgetMs: 10_000,
    retrySoftDeclines: true,
  });
  const after = await postCharge(
    request,
    token,
    chargeBody(merchant.code, operationNumber('soft'), 'CARD', card('4000000000008005')),
  );
  expect(after.status, after.text).toBe(200);
  expect(after.body.transaction.state).toBe('AUTORIZADO');
  expect(after.body.transaction.additional_fields).toEqual({ processor: 'sandbox-acquirer-b', attempt: 2 });
});

test('an answer after the timeout is settled by asking the same processor: one approval, at A', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'ORC');
  const number = operationNumber('slow');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card('4000000000008021')));
  expect(charged.status, charged.text).toBe(200);
  expect(charged.body.transaction.state).toBe('AUTORIZADO');
  const rows = await stored(merchant.code, number);
  expect(rows.transactions.map((row) => [row.state, row.connectorId])).toEqual([['AUTORIZADO', 'sandbox-acquirer-a']]);
});

test('3-D Secure: a challenged card is PENDIENTE with the challenge page until DELETE cancels it', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'ORC');
  await operatorConsole().routing.updateThreeDs.mutate({
    merchantCode: merchant.code,
    setting: { mode: 'ALWAYS', overAmount: null },
  });
  const number = operationNumber('3ds');
  const charged = await postCharge(
    request,
    token,
    chargeBody(merchant.code, number, 'CARD', card('4000000000003220', { redirect_url: 'https://shop.test/back' })),
  );
  expect(charged.status, charged.text).toBe(200);
  expect(charged.body.transaction.state).toBe('PENDIENTE');
  expect(charged.body.transaction.continue_url).toMatch(/\/pay\/[A-Za-z0-9_-]+$/);
  expect(charged.body.transaction.expiration_date).not.toBeNull();
  expect(charged.text).not.toContain('4000000000003220');

  const cancelled = await cancel(request, token, merchant.code, number);
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.operation.state).toBe('CANCELADO');
});

test('a payment in flight cannot be cancelled: 409 while the processor has it', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'ORC');
  const number = operationNumber('busy');
  // 8021: acquirer A answers after its timeout, so the charge is with it for a while.
  const charging = postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card('4000000000008021')));
  await expect.poll(async () => (await stored(merchant.code, number).catch(() => null))?.transactions.length ?? 0).toBe(1);
  const refused = await cancel(request, token, merchant.code, number);
  expect(refused.status, refused.text).toBe(409);
  expect((await charging).body.transaction.state).toBe('AUTORIZADO');
});
