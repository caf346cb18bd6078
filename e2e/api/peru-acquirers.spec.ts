import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { cancel, chargeBody, getTransaction, headers, operationNumber, postCharge } from '../support/api-client';
import {
  connectIzipay,
  connectNiubiz,
  IZIPAY_SIMULATOR,
  NIUBIZ_SIMULATOR,
  routeTo,
  simulatorControl,
  simulatorMode,
} from '../support/processors';
import { startReceiver } from '../support/receiver';
import { BASE_URL } from '../support/service';
import type { ErrorReply } from '../support/api-types';
import { decodeEmvQr } from '../../tests/support/emv-qr-decoder';
import { decodeQr } from '../support/qr';
import { newActor, stored } from './charges-helpers';

// Peru's two acquirers through their simulators (docs/processors/niubiz.md, izipay.md): cards
// approved and declined at each with their documented test cards, failover between them both
// ways, capture later (whole at Niubiz, in part at Izipay) and reversal, Niubiz's QR (its
// EMVCo payload read and checked, paid at Niubiz, the unsigned callback believed only as Niubiz
// answers it) and Yape, and Izipay's IPN: a forged one refused, a replay changing nothing. Each
// test has a merchant and accounts of its own. Refunds through both are in
// e2e/async/processor-refunds.spec.ts, a lost answer settled by inquiry in
// e2e/async/acquirer-inquiry.spec.ts.

const card = (pan: string, extra: Record<string, unknown> = {}) => ({ details: { pan, security_code: '123', ...extra } });
// Documented test cards (docs/processors/sources/niubiz-api.md 13.1, izipay-api.md 10).
const NIUBIZ_APPROVED = '4919148107859067';
const NIUBIZ_DECLINED = '4444333322221111';
const IZIPAY_APPROVED = '4970100000000055';
const IZIPAY_DECLINED = '5112929646850374';

type CaptureReply = {
  operation: { transactions: { additional_fields: { capture?: { status: string; captured_amount: string | null } } }[] };
};

async function capture(request: APIRequestContext, token: string, merchantCode: string, number: string, body?: object) {
  const response = await request.post(`${BASE_URL}/charges/${merchantCode}/${number}/capture`, {
    headers: headers(token, body ? { 'content-type': 'application/json' } : {}),
    ...(body ? { data: body } : {}),
  });
  return { status: response.status(), body: (await response.json()) as CaptureReply & ErrorReply };
}

test('CARD at Niubiz and at Izipay: each approves its approved test card and declines its declined one', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'PA');
  const niubiz = await connectNiubiz(merchant.code, ['CARD']);
  const izipay = await connectIzipay(merchant.code);
  for (const [account, approved, declined, declineCode] of [
    [niubiz.account, NIUBIZ_APPROVED, NIUBIZ_DECLINED, '180'],
    [izipay.account, IZIPAY_APPROVED, IZIPAY_DECLINED, '63'],
  ] as const) {
    await routeTo(merchant.code, 'CARD', [account.connectorId]);
    const paid = await postCharge(request, token, chargeBody(merchant.code, operationNumber('pa'), 'CARD', card(approved)));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transaction.state).toBe('AUTORIZADO');
    expect(paid.body.transaction.additional_fields).toMatchObject({ processor: account.connectorId, attempt: 1 });
    expect(paid.body.transaction.additional_fields?.processor_reference).toEqual(expect.any(String));
    expect(paid.body.transaction.processor_response?.result_message.code).toBe('00');
    expect(paid.text).not.toContain(approved);

    const refused = await postCharge(request, token, chargeBody(merchant.code, operationNumber('pa'), 'CARD', card(declined)));
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body.transaction.state).toBe('DENEGADO');
    expect(refused.body.transaction.processor_response?.result_message.code).toBe(declineCode);
  }
  // Card data went only where each processor's documentation sends it (other tests' requests share the log).
  const niubizLog = await simulatorControl<{ path: string; body: string }[]>(NIUBIZ_SIMULATOR, 'requests');
  const withCard = niubizLog.filter((each) => each.body.includes(NIUBIZ_APPROVED)).map((each) => each.path);
  expect(withCard.filter((path) => !path.startsWith('/api.antifraud/v1/antifraud/ecommerce/'))).toEqual([]);
  expect(withCard.filter((path) => path.endsWith(`/${niubiz.keys.merchantId}`))).toHaveLength(1);
});

test('failover from Niubiz to Izipay: Niubiz fails (5xx), Izipay approves', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'PNI');
  const niubiz = await connectNiubiz(merchant.code, ['CARD']);
  const izipay = await connectIzipay(merchant.code);
  await routeTo(merchant.code, 'CARD', [niubiz.account.connectorId, izipay.account.connectorId]);
  await simulatorMode(NIUBIZ_SIMULATOR, 'errors', niubiz.keys.merchantId);
  try {
    const number = operationNumber('pni');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card(IZIPAY_APPROVED)));
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body.transaction.state).toBe('AUTORIZADO');
    expect(charged.body.transaction.additional_fields).toMatchObject({ processor: izipay.account.connectorId, attempt: 2 });
    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.attempt, row.state, row.connectorId, row.declineClass])).toEqual([
      [1, 'DENEGADO', niubiz.account.connectorId, 'technical'],
      [2, 'AUTORIZADO', izipay.account.connectorId, null],
    ]);
  } finally {
    await simulatorMode(NIUBIZ_SIMULATOR, 'normal', niubiz.keys.merchantId);
  }
});

test('failover from Izipay to Niubiz: Izipay refuses the call (PSP_106, call limit: nothing done), Niubiz approves', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'PIN');
  const niubiz = await connectNiubiz(merchant.code, ['CARD']);
  const izipay = await connectIzipay(merchant.code);
  await routeTo(merchant.code, 'CARD', [izipay.account.connectorId, niubiz.account.connectorId]);
  await simulatorMode(IZIPAY_SIMULATOR, 'rate_limited', izipay.keys.shopId);
  try {
    const number = operationNumber('pin');
    const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card(NIUBIZ_APPROVED)));
    expect(charged.status, charged.text).toBe(200);
    expect(charged.body.transaction.state).toBe('AUTORIZADO');
    expect(charged.body.transaction.additional_fields).toMatchObject({ processor: niubiz.account.connectorId, attempt: 2 });
    const rows = await stored(merchant.code, number);
    expect(rows.transactions.map((row) => [row.attempt, row.state, row.connectorId])).toEqual([
      [1, 'DENEGADO', izipay.account.connectorId],
      [2, 'AUTORIZADO', niubiz.account.connectorId],
    ]);
  } finally {
    await simulatorMode(IZIPAY_SIMULATOR, 'normal', izipay.keys.shopId);
  }
});

test('capture later: Niubiz confirms the whole sale (a part is refused before Niubiz is asked), Izipay validates a part; a held one is reversed', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'PCP');
  const niubiz = await connectNiubiz(merchant.code, ['CARD']);
  const izipay = await connectIzipay(merchant.code);
  for (const [account, approved, part] of [
    [niubiz.account, NIUBIZ_APPROVED, null],
    [izipay.account, IZIPAY_APPROVED, '9000'],
  ] as const) {
    await routeTo(merchant.code, 'CARD', [account.connectorId]);
    const number = operationNumber('pcp');
    const held = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'CARD', card(approved, { capture: 'manual' })),
    );
    expect(held.status, held.text).toBe(200);
    expect(held.body.transaction.additional_fields?.capture).toMatchObject({ mode: 'MANUAL', status: 'UNCAPTURED' });
    if (part === null) {
      const refusedPart = await capture(request, token, merchant.code, number, { amount: '9000' });
      expect(refusedPart.status).toBe(422);
      expect(refusedPart.body.meta.status.code).toBe('42');
    }
    const captured = await capture(request, token, merchant.code, number, part ? { amount: part } : undefined);
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body.operation.transactions[0]!.additional_fields.capture).toMatchObject({
      status: 'CAPTURED',
      captured_amount: part ?? '15000',
    });

    const other = operationNumber('pcv');
    const second = await postCharge(
      request,
      token,
      chargeBody(merchant.code, other, 'CARD', card(approved, { capture: 'manual' })),
    );
    expect(second.body.transaction.state).toBe('AUTORIZADO');
    const reversed = await cancel(request, token, merchant.code, other);
    expect(reversed.status, reversed.text).toBe(200);
    expect((await stored(merchant.code, other)).transactions[0]!.state).toBe('EXTORNADO');
  }
  // What each processor holds: the Niubiz sale confirmed, the other voided.
  const niubizLog = await simulatorControl<{ method: string; path: string }[]>(NIUBIZ_SIMULATOR, 'requests');
  const mine = niubizLog.filter((each) => each.path.includes(niubiz.keys.merchantId));
  expect(mine.filter((each) => each.path.startsWith('/api.confirmation/'))).toHaveLength(1);
  expect(mine.filter((each) => each.method === 'PUT' && each.path.startsWith('/api.authorization/v3/void/'))).toHaveLength(1);
});

test('QR through Niubiz: its EMVCo payload decodes and checks; paid at Niubiz, the callback is believed as Niubiz answers it; a replay and a forgery change nothing', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'PQR');
  const niubiz = await connectNiubiz(merchant.code, ['QR']);
  await routeTo(merchant.code, 'QR', [niubiz.account.connectorId]);
  const receiver = await startReceiver();
  try {
    const number = operationNumber('pqr');
    const charged = await postCharge(
      request,
      token,
      chargeBody(merchant.code, number, 'QR', { details: { callback_url: receiver.url('/pqr') } }),
    );
    expect(charged.status, charged.text).toBe(200);
    const pending = charged.body.transaction;
    expect(pending.state).toBe('PENDIENTE');
    const response = pending.processor_response!;
    // The payload text is the one the image draws, and an EMVCo payload: every tag, length, the CRC.
    expect(decodeQr(response.qr_image!)).toBe(response.qr_payload);
    const payload = decodeEmvQr(response.qr_payload!);
    expect(payload.byId.get('01')).toBe('12');
    expect(payload.byId.get('53')).toBe('604');
    expect(payload.byId.get('54')).toBe('150.00');
    expect(payload.byId.get('58')).toBe('PE');
    expect(response.qr_id).toEqual(expect.any(String));
    expect(pending.additional_fields).not.toHaveProperty('sandbox');

    // Somebody claims it was paid before anyone paid: Niubiz says otherwise, nothing moves.
    const forged = await request.post(niubiz.account.notificationUrl, {
      headers: { 'content-type': 'application/json' },
      data: { tagId: response.qr_id, status: 'PAID', externalReference: pending.transaction_id, amount: '150.00' },
    });
    // Taken as Niubiz's word about the code (pending), which moves nothing.
    expect(forged.status()).toBe(200);
    expect(await forged.json()).toMatchObject({ received: true, duplicate: false, outcome: 'unchanged' });
    expect((await stored(merchant.code, number)).transactions[0]!.state).toBe('PENDIENTE');
    // A callback about a code Niubiz never made for this account is refused.
    const unknown = await request.post(niubiz.account.notificationUrl, {
      headers: { 'content-type': 'application/json' },
      data: { tagId: 'f00dfeedf00dfeedf00dfeed', status: 'PAID' },
    });
    expect(unknown.status()).toBe(401);

    expect(await simulatorControl(NIUBIZ_SIMULATOR, `qr/${response.qr_id}/pay`, {})).toEqual({ delivered: 200 });
    const after = await getTransaction(request, token, merchant.code, number, pending.transaction_id);
    const transaction = after.body.operation.transactions[0]!;
    expect(transaction.state).toBe('AUTORIZADO');
    expect(transaction.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    const callbacks = await receiver.waitFor((received) =>
      received.some((each) => each.json.event_type === 'transaction.authorized'),
    );
    expect(callbacks.find((each) => each.json.event_type === 'transaction.authorized')?.json).toMatchObject({
      merchant_operation_number: number,
      transaction: { state: 'AUTORIZADO' },
    });

    // Niubiz's callback again (a retry or a replay): acknowledged, nothing moves twice.
    await simulatorControl(NIUBIZ_SIMULATOR, `qr/${response.qr_id}/notify`, {});
    const again = await stored(merchant.code, number);
    expect(again.transactions[0]!.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(again.events.filter((event) => event.type === 'transaction.authorized')).toHaveLength(1);
  } finally {
    await receiver.close();
  }
});

test('Yape through Niubiz: its documented test phone and code are approved; a wrong code is declined', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'PYA');
  const niubiz = await connectNiubiz(merchant.code, ['YAPE']);
  await routeTo(merchant.code, 'YAPE', [niubiz.account.connectorId]);
  const yape = (otp: string) => ({ details: { phone: { country_code: '+51', subscriber: '969929157' }, otp } });
  const paid = await postCharge(request, token, chargeBody(merchant.code, operationNumber('pya'), 'YAPE', yape('557454')));
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.transaction.state).toBe('AUTORIZADO');
  expect(paid.body.transaction.additional_fields).toMatchObject({ processor: niubiz.account.connectorId, attempt: 1 });
  const wrong = operationNumber('pya');
  const refused = await postCharge(request, token, chargeBody(merchant.code, wrong, 'YAPE', yape('000000')));
  expect(refused.status, refused.text).toBe(200);
  expect(refused.body.transaction.state).toBe('DENEGADO');
  const rows = await stored(merchant.code, wrong);
  expect(rows.transactions.map((row) => [row.state, row.connectorId, row.declineClass])).toEqual([
    ['DENEGADO', niubiz.account.connectorId, 'hard'],
  ]);
  // The one-time code is never echoed.
  expect(JSON.stringify(refused.body.transaction.payment_method)).not.toContain('000000');
});

test('Izipay IPN: a valid one is taken, a forged kr-hash is refused 401, a byte-for-byte replay changes nothing', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'PIP');
  const izipay = await connectIzipay(merchant.code);
  await routeTo(merchant.code, 'CARD', [izipay.account.connectorId]);
  const number = operationNumber('pip');
  const charged = await postCharge(request, token, chargeBody(merchant.code, number, 'CARD', card(IZIPAY_APPROVED)));
  expect(charged.body.transaction.state).toBe('AUTORIZADO');
  const uuid = charged.body.transaction.additional_fields?.processor_reference as string;

  const sent = await simulatorControl<{ deliveries: { ipn_id: number; status: number }[] }>(
    IZIPAY_SIMULATOR,
    `transactions/${uuid}/ipn`,
    {},
  );
  expect(sent.deliveries.map((each) => each.status)).toEqual([200]);
  const ipns = await simulatorControl<{ ipn_id: number; kr_hash: string }[]>(IZIPAY_SIMULATOR, 'ipns');
  const delivered = ipns.find((each) => each.ipn_id === sent.deliveries[0]!.ipn_id)!;

  // The same form with another answer under the first one's hash: not Izipay's.
  const forged = new URLSearchParams({
    'kr-hash': delivered.kr_hash,
    'kr-hash-algorithm': 'sha256_hmac',
    'kr-hash-key': 'password',
    'kr-answer-type': 'V4/Payment',
    'kr-answer': JSON.stringify({ orderStatus: 'PAID', orderDetails: { orderId: charged.body.transaction.transaction_id } }),
  });
  const refused = await request.post(izipay.account.notificationUrl, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: forged.toString(),
  });
  expect(refused.status()).toBe(401);

  const replay = await simulatorControl<{ status: number }>(IZIPAY_SIMULATOR, `ipns/${delivered.ipn_id}/replay`, {});
  expect(replay.status).toBe(200);
  const after = await stored(merchant.code, number);
  expect(after.transactions.map((row) => row.state)).toEqual(['AUTORIZADO']);
  expect(after.events.filter((event) => event.type === 'transaction.authorized')).toHaveLength(1);
});
