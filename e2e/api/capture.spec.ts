import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import type { ErrorReply } from '../support/api-types';
import {
  cancel,
  charge,
  chargeBody,
  headers,
  operationNumber,
  postRefund,
  refundBody,
  refundItem,
  tokenFor,
} from '../support/api-client';
import { BASE_URL, createMerchant, settleNow, storedOperation } from '../support/service';

// Authorize now, capture later (docs/DECISIONS.md "Capture later"):
// POST /charges/{merchant_code}/{merchant_operation_number}/capture, on either database.

type Capture = { mode: string; status: string; capturable_amount: string; captured_amount: string | null };
type OperationReply = {
  success: boolean;
  operation: { state: string; transactions: { state: string; additional_fields: { capture?: Capture } | null }[] };
};

async function setup(request: APIRequestContext, prefix: string) {
  const merchant = await createMerchant(prefix);
  return { merchant, token: await tokenFor(request, merchant) };
}

async function authorize(request: APIRequestContext, token: string, merchantCode: string, capture?: 'manual' | 'automatic') {
  const number = operationNumber('cap');
  const body = chargeBody(merchantCode, number, 'CARD', capture ? { details: { capture } } : {});
  const response = await charge(request, token, body);
  const answer = (await response.json()) as { transaction: { state: string; additional_fields: { capture?: Capture } } };
  expect(response.status(), JSON.stringify(answer)).toBe(200);
  expect(answer.transaction.state).toBe('AUTORIZADO');
  return { number, capture: answer.transaction.additional_fields.capture };
}

async function capture(request: APIRequestContext, token: string, merchantCode: string, number: string, body?: object) {
  const response = await request.post(`${BASE_URL}/charges/${merchantCode}/${number}/capture`, {
    headers: headers(token, body ? { 'content-type': 'application/json' } : {}),
    ...(body ? { data: body } : {}),
  });
  return { status: response.status(), body: (await response.json()) as OperationReply & ErrorReply };
}

test('captures part of a manual authorization once; it settles and refunds at the captured amount', async ({ request }) => {
  const { merchant, token } = await setup(request, 'CPA');
  const authorized = await authorize(request, token, merchant.code, 'manual');
  expect(authorized.capture).toMatchObject({
    mode: 'MANUAL',
    status: 'UNCAPTURED',
    capturable_amount: '15000',
    captured_amount: null,
  });
  // Nothing settles before its capture.
  await settleNow(merchant.code);
  expect((await storedOperation(merchant.code, authorized.number)).transactions[0]!.state).toBe('AUTORIZADO');

  const captured = await capture(request, token, merchant.code, authorized.number, { amount: '9000' });
  expect(captured.status).toBe(200);
  expect(captured.body.success).toBe(true);
  expect(captured.body.operation.state).toBe('AUTORIZADO');
  expect(captured.body.operation.transactions[0]!.additional_fields!.capture).toMatchObject({
    status: 'CAPTURED',
    captured_amount: '9000',
    capturable_amount: '0',
  });
  const stored = await storedOperation(merchant.code, authorized.number);
  expect(stored.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
  expect(stored.events.map((event) => event.type)).toContain('transaction.captured');

  await settleNow(merchant.code);
  expect((await storedOperation(merchant.code, authorized.number)).transactions[0]!.state).toBe('LIQUIDADO');
  const tooMuch = await postRefund<ErrorReply>(
    request,
    token,
    refundBody(merchant.code, [refundItem(authorized.number, null, '15000')]),
  );
  expect(tooMuch.status).toBe(400);
  const refunded = await postRefund(request, token, refundBody(merchant.code, [refundItem(authorized.number, null, '9000')]));
  expect(refunded.status, refunded.text).toBe(200);
});

test('captures all of it with no body, then refuses a second capture (409 41)', async ({ request }) => {
  const { merchant, token } = await setup(request, 'CPB');
  const { number } = await authorize(request, token, merchant.code, 'manual');
  const first = await capture(request, token, merchant.code, number);
  expect(first.status).toBe(200);
  expect(first.body.operation.transactions[0]!.additional_fields!.capture).toMatchObject({ captured_amount: '15000' });
  const second = await capture(request, token, merchant.code, number, {});
  expect([second.status, second.body.meta.status.code]).toEqual([409, '41']);
});

test('refuses an automatic payment, too much, an unknown operation and a reversed payment', async ({ request }) => {
  const { merchant, token } = await setup(request, 'CPC');
  const automatic = await authorize(request, token, merchant.code);
  expect(automatic.capture).toBeUndefined();
  const refusedAutomatic = await capture(request, token, merchant.code, automatic.number);
  expect([refusedAutomatic.status, refusedAutomatic.body.meta.status.code]).toEqual([409, '41']);

  const manual = await authorize(request, token, merchant.code, 'manual');
  for (const amount of ['15001', '0', '1.5', 'all']) {
    const refused = await capture(request, token, merchant.code, manual.number, { amount });
    expect([refused.status, refused.body.meta.status.code], amount).toEqual([400, '10']);
    expect(refused.body.errors.map((error) => error.field)).toEqual(['amount']);
  }
  const unknown = await capture(request, token, merchant.code, 'no-such-operation');
  expect([unknown.status, unknown.body.meta.status.code]).toEqual([404, '30']);

  expect((await cancel(request, token, merchant.code, manual.number)).status).toBe(200);
  const afterVoid = await capture(request, token, merchant.code, manual.number);
  expect([afterVoid.status, afterVoid.body.meta.status.code]).toEqual([409, '41']);
  expect((await storedOperation(merchant.code, manual.number)).transactions[0]!.state).toBe('EXTORNADO');
});

test('DELETE after the capture reverses the captured payment', async ({ request }) => {
  const { merchant, token } = await setup(request, 'CPD');
  const { number } = await authorize(request, token, merchant.code, 'manual');
  expect((await capture(request, token, merchant.code, number, { amount: '5000' })).status).toBe(200);
  const cancelled = await cancel(request, token, merchant.code, number);
  expect(cancelled.status).toBe(200);
  expect((await storedOperation(merchant.code, number)).transactions[0]!.state).toBe('EXTORNADO');
});

test('of 10 concurrent captures exactly one succeeds', async ({ request }) => {
  const { merchant, token } = await setup(request, 'CPE');
  const { number } = await authorize(request, token, merchant.code, 'manual');
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => capture(request, token, merchant.code, number, { amount: '7000' })),
  );
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
  const stored = await storedOperation(merchant.code, number);
  expect(stored.transactions[0]).toMatchObject({ captureStatus: 'CAPTURED', capturedAmount: '7000' });
  expect(stored.events.filter((event) => event.type === 'transaction.captured')).toHaveLength(1);
});

test('10 concurrent captures racing a DELETE: at most one capture, and the final state matches every answer', async ({
  request,
}) => {
  const { merchant, token } = await setup(request, 'CPF');
  const { number } = await authorize(request, token, merchant.code, 'manual');
  const captures = Array.from({ length: 10 }, () => capture(request, token, merchant.code, number));
  const deleted = cancel(request, token, merchant.code, number);
  const answers = await Promise.all(captures);
  const deletion = await deleted;
  expect(deletion.status).toBe(200);
  const succeeded = answers.filter((answer) => answer.status === 200);
  expect(succeeded.length).toBeLessThanOrEqual(1);
  for (const answer of answers.filter((each) => each.status !== 200))
    expect([answer.status, answer.body.meta.status.code]).toEqual([409, '41']);
  const stored = await storedOperation(merchant.code, number);
  expect(stored.transactions[0]!.state).toBe('EXTORNADO');
  // A capture answered 200 was captured before the DELETE, which then reversed the captured payment.
  expect(stored.transactions[0]!.captureStatus).toBe(succeeded.length === 1 ? 'CAPTURED' : 'UNCAPTURED');
  expect(stored.events.filter((event) => event.type === 'transaction.captured')).toHaveLength(succeeded.length);
  // At the processor: the authorization released, or the one capture made and returned; nothing stays captured.
  expect(stored.sandboxRecords).toEqual([
    expect.objectContaining({
      reference: stored.transactions[0]!.id,
      outcome: 'approved',
      uncaptured: true,
      capturedAmount: succeeded.length === 1 ? '15000' : null,
      voided: true,
    }),
  ]);
});
