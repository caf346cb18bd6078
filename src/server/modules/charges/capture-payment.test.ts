import { describe, expect, it } from 'vitest';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';
import { toAppError } from '@/server/api/errors/to-app-error';
import { sandboxStoreFor } from '@/server/payments';
import { authorizeCharge } from './authorize-charge';
import { cancelOperation } from './cancel-operation';
import { capturePayment } from './capture-payment';
import { moveCapture } from './moves/move-capture';
import { syncCaptures, voidUncaptured } from './capture-jobs';
import { settleAuthorized } from './settle-authorized';
import { requestRefunds } from '@/server/modules/refunds/request-refunds';
import { updateCapture } from '@/server/modules/routing/merchant-routing';
import { toActingMerchant } from '@/server/modules/access/acting-merchant';

// Capture later (docs/DECISIONS.md "Capture later") against a real embedded database and the
// sandbox acquirers: the authorization, the capture and its refusals, settlement of what was
// captured, DELETE before and after, the window, and a capture whose answer is lost.
const fixture = withTestMerchant('CAPTURE');
const prisma = () => fixture.db.prisma;

async function authorizeManual(number: string, capture: 'manual' | 'automatic' | undefined = 'manual') {
  const request = chargeRequest(fixture.merchant.code, number, 'CARD');
  if (request.payment_method.method_name === 'CARD' && capture) request.payment_method.method_details.capture = capture;
  return (await authorizeCharge(prisma(), fixture.merchant, request)).transaction;
}

const capture = (number: string, amount: bigint | null = null) => capturePayment(prisma(), fixture.merchant, number, amount);

async function refusal(run: () => Promise<unknown>) {
  try {
    await run();
    return 'answered';
  } catch (error) {
    const failure = toAppError(error);
    return `${failure.status} ${failure.kind}: ${failure.message}`;
  }
}

const stored = (id: string) =>
  prisma().transaction.findUniqueOrThrow({
    where: { id },
    select: {
      state: true,
      stateReason: true,
      captureStatus: true,
      capturedAmount: true,
      captureRequested: true,
      lifecycle: true,
    },
  });

const events = async (id: string) =>
  (await prisma().outboxEvent.findMany({ where: { aggregateId: id }, orderBy: { seq: 'asc' }, select: { type: true } })).map(
    (event) => event.type,
  );

const sandboxRecord = (id: string) =>
  prisma().sandboxProcessorRecord.findFirstOrThrow({
    where: { reference: id },
    select: { uncaptured: true, capturedAmount: true, voided: true },
  });

describe('capture later', () => {
  it('authorizes without capturing, shows the capture, and settles only once captured, at the captured amount', async () => {
    const authorized = await authorizeManual('cap-1');
    expect(authorized.state).toBe('AUTORIZADO');
    expect(authorized.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO']);
    expect(authorized.additional_fields?.capture).toMatchObject({
      mode: 'MANUAL',
      status: 'UNCAPTURED',
      capturable_amount: '15000',
      captured_amount: null,
    });
    const id = authorized.transaction_id;
    expect(await sandboxRecord(id)).toEqual({ uncaptured: true, capturedAmount: null, voided: false });
    expect(await settleAuthorized(prisma(), new Date(Date.now() + 1000), { transactionIds: [id] })).toBe(0);

    const answer = await capture('cap-1', 9000n);
    const transaction = answer.operation.transactions[0]!;
    expect(transaction.state).toBe('AUTORIZADO');
    expect(transaction.additional_fields?.capture).toMatchObject({
      status: 'CAPTURED',
      captured_amount: '9000',
      capturable_amount: '0',
    });
    expect((await stored(id)).lifecycle).toHaveLength(3);
    expect(await events(id)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.authorized',
      'transaction.captured',
    ]);
    expect(await sandboxRecord(id)).toEqual({ uncaptured: true, capturedAmount: 9000n, voided: false });

    expect(await settleAuthorized(prisma(), new Date(Date.now() + 1000), { transactionIds: [id] })).toBe(1);
    const item = (type: 'TOTAL' | 'PARTIAL', amount: string) => ({
      type,
      merchant_operation_number: 'cap-1',
      transaction_id: id,
      refund_amount: amount,
      additional_fields: { canal: 'web', reason: 'r', description: 'd' },
    });
    expect(await refusal(() => requestRefunds(prisma(), fixture.merchant, { operations: [item('TOTAL', '15000')] }))).toBe(
      '400 VALIDATION: must equal the refundable amount 9000 for a TOTAL refund',
    );
    const refunded = await requestRefunds(prisma(), fixture.merchant, { operations: [item('TOTAL', '9000')] });
    expect(refunded.operations[0]).toMatchObject({ refund_amount: '9000', transaction_amount: '15000' });
  });

  it('captures all of it without an amount; refuses automatic, twice, too much, unknown and ended payments', async () => {
    await authorizeManual('cap-2');
    expect(await refusal(() => capture('cap-2', 15001n))).toBe('400 VALIDATION: must be at most the authorized amount 15000');
    const answer = await capture('cap-2');
    expect(answer.operation.transactions[0]!.additional_fields?.capture).toMatchObject({ captured_amount: '15000' });
    expect(await refusal(() => capture('cap-2'))).toBe('409 STATE_CONFLICT: the payment is captured already');

    await authorizeManual('cap-3', 'automatic');
    expect(await refusal(() => capture('cap-3'))).toBe('409 STATE_CONFLICT: the payment was captured with its authorization');
    expect(await refusal(() => capture('cap-none'))).toBe('404 NOT_FOUND: no such operation for this merchant');

    await authorizeManual('cap-4');
    await cancelOperation(prisma(), fixture.merchant, 'cap-4');
    expect(await refusal(() => capture('cap-4'))).toBe(
      '409 STATE_CONFLICT: only AUTORIZADO payments can be captured (state is EXTORNADO)',
    );
  });

  it('follows the merchant’s setting (set as the console and the CLI set it) when the request does not say', async () => {
    const scope = { kind: 'one' as const, merchantId: fixture.merchant.id };
    const set = (mode: 'MANUAL' | 'AUTOMATIC', method: 'CARD' | 'YAPE' = 'CARD', windowDays?: number) =>
      updateCapture(prisma(), scope, { method, mode, ...(windowDays ? { windowDays } : {}) });
    expect((await set('MANUAL', 'CARD', 3)).capture).toEqual({ mode: 'MANUAL', windowDays: 3, capturable: true });
    expect(await refusal(() => set('MANUAL', 'YAPE'))).toBe(
      '422 METHOD_RULE: YAPE payments are captured when the payer pays: only CARD is captured later',
    );
    const stored = await prisma().merchant.findUniqueOrThrow({ where: { id: fixture.merchant.id } });
    const merchant = toActingMerchant(stored);
    expect(merchant.captureModes).toEqual({ CARD: 'MANUAL' });
    const before = Date.now();
    const { transaction } = await authorizeCharge(prisma(), merchant, chargeRequest(merchant.code, 'cap-5', 'CARD'));
    expect(transaction.additional_fields?.capture).toMatchObject({ status: 'UNCAPTURED' });
    const window = transaction.additional_fields!.capture!.capture_before.unix_time * 1000 - before;
    expect(window).toBeGreaterThan(3 * 86_400_000 - 5_000);
    expect(window).toBeLessThan(3 * 86_400_000 + 5_000);
    expect((await set('AUTOMATIC')).capture).toEqual({ mode: 'AUTOMATIC', windowDays: 3, capturable: true });
    expect((await prisma().merchant.findUniqueOrThrow({ where: { id: fixture.merchant.id } })).captureModes).toEqual({});
  });

  it('lets exactly one of 10 concurrent captures through', async () => {
    const { transaction_id: id } = await authorizeManual('cap-6');
    const answers = await Promise.all(Array.from({ length: 10 }, () => refusal(() => capture('cap-6', 5000n))));
    expect(answers.filter((answer) => answer === 'answered')).toHaveLength(1);
    expect(answers.filter((answer) => answer.startsWith('409 STATE_CONFLICT'))).toHaveLength(9);
    expect(await stored(id)).toMatchObject({ captureStatus: 'CAPTURED', capturedAmount: 5000n });
    expect((await events(id)).filter((type) => type === 'transaction.captured')).toHaveLength(1);
  });

  it('voids a captured payment on DELETE: EXTORNADO, nothing left captured at the processor', async () => {
    const { transaction_id: id } = await authorizeManual('cap-7');
    await capture('cap-7');
    const answer = await cancelOperation(prisma(), fixture.merchant, 'cap-7');
    expect(answer.operation.state).toBe('EXTORNADO');
    expect(await sandboxRecord(id)).toEqual({ uncaptured: true, capturedAmount: 15000n, voided: true });
  });

  it('voids an authorization still uncaptured past its window, with its reason and event', async () => {
    const { transaction_id: id } = await authorizeManual('cap-8');
    await prisma().transaction.update({ where: { id }, data: { captureBefore: new Date(Date.now() - 1000) } });
    expect(await voidUncaptured(prisma())).toBe(1);
    expect(await stored(id)).toMatchObject({
      state: 'EXTORNADO',
      stateReason: 'Autorización anulada: no se capturó dentro de su plazo',
      captureStatus: 'UNCAPTURED',
    });
    expect((await events(id)).at(-1)).toBe('transaction.reversed');
    expect(await sandboxRecord(id)).toMatchObject({ capturedAmount: null, voided: true });
    expect(await voidUncaptured(prisma())).toBe(0);
  });

  it('tries a void its processor cannot take again a minute later, not on every pass', async () => {
    const { transaction_id: id } = await authorizeManual('cap-8b');
    await prisma().transaction.update({ where: { id }, data: { captureBefore: new Date(Date.now() - 1000) } });
    const store = sandboxStoreFor(prisma());
    await store.setMode('sandbox-acquirer-a', 'outage');
    try {
      expect(await voidUncaptured(prisma())).toBe(0);
    } finally {
      await store.setMode('sandbox-acquirer-a', 'normal');
    }
    const retryAt = (await prisma().transaction.findUniqueOrThrow({ where: { id } })).captureCheckAt!;
    expect(retryAt.getTime() - Date.now()).toBeGreaterThan(50_000);
    expect(await voidUncaptured(prisma())).toBe(0);
    expect(await stored(id)).toMatchObject({ state: 'AUTORIZADO', captureStatus: 'UNCAPTURED' });
    expect(await voidUncaptured(prisma(), new Date(retryAt.getTime() + 1))).toBe(1);
    expect(await stored(id)).toMatchObject({ state: 'EXTORNADO', captureStatus: 'UNCAPTURED' });
  });

  it('answers 503 while its processor cannot be asked, and the capture sync captures it once it can', async () => {
    const { transaction_id: id } = await authorizeManual('cap-9');
    const store = sandboxStoreFor(prisma());
    await store.setMode('sandbox-acquirer-a', 'outage');
    try {
      expect(await refusal(() => capture('cap-9', 7000n))).toBe(
        '503 UNAVAILABLE: The processor has not confirmed the capture yet; ask again shortly',
      );
      expect(await stored(id)).toMatchObject({ captureStatus: 'CAPTURING', captureRequested: 7000n });
      // Another capture, and a DELETE, wait for this one to be settled.
      expect(await refusal(() => capture('cap-9'))).toBe('409 STATE_CONFLICT: a capture of this payment is under way');
      expect(await syncCaptures(prisma(), new Date(Date.now() + 60_000))).toBe(0);
      expect(await stored(id)).toMatchObject({ captureStatus: 'CAPTURING' });
    } finally {
      await store.setMode('sandbox-acquirer-a', 'normal');
    }
    await prisma().transaction.update({ where: { id }, data: { captureCheckAt: new Date(Date.now() - 1000) } });
    expect(await syncCaptures(prisma())).toBe(1);
    expect(await stored(id)).toMatchObject({ captureStatus: 'CAPTURED', capturedAmount: 7000n, captureRequested: null });
    expect(await sandboxRecord(id)).toMatchObject({ capturedAmount: 7000n });
    expect((await events(id)).at(-1)).toBe('transaction.captured');
  });

  it('moves only as the capture table says, from where the payment is: a refused or stale move writes nothing', async () => {
    const { transaction_id: id } = await authorizeManual('cap-moves');
    const before = { row: await stored(id), events: await events(id) };
    await expect(prisma().$transaction((tx) => moveCapture(tx, id, 'UNCAPTURED', { to: 'CAPTURED' }))).rejects.toThrow(
      'capture move UNCAPTURED -> CAPTURED is not allowed',
    );
    // The table allows CAPTURING -> CAPTURED, but the payment is not CAPTURING.
    expect(await prisma().$transaction((tx) => moveCapture(tx, id, 'CAPTURING', { to: 'CAPTURED' }))).toBe(false);
    // A cancellation holds it while its processor is asked: no capture is claimed.
    await prisma().transaction.update({ where: { id }, data: { undoUntil: new Date(Date.now() + 60_000) } });
    const claim = { to: 'CAPTURING' as const, amount: 1000n, checkAt: new Date() };
    expect(await prisma().$transaction((tx) => moveCapture(tx, id, 'UNCAPTURED', claim))).toBe(false);
    expect({ row: await stored(id), events: await events(id) }).toEqual(before);
  });
});
