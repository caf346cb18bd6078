import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { challengePayment } from '@tests/support/challenge-payment';
import { chargeRequest, SETUP_TIMEOUT, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { moveTransaction } from '@/server/modules/charges/moves/move-transaction';
import { takeVaultedCard } from '@/server/modules/charges/card-vault';
import { publicThreeDs, type ThreeDsResult } from '@/server/core/three-ds/directory';
import { cancelChallenge, challengeView, submitChallengeCode, type CompleteChallenge } from './challenge';
import { abandonPayment, payPayment } from './payer-actions';

// The hosted 3-D Secure challenge (docs/ORCHESTRATION.md 5) with a fake `complete` that does what
// the orchestration loop's completeChallenge does: takes the card, authorizes (Y) or declines
// (N), keeps the public result, and answers the state and the merchant's redirect_url.
const fixture = withTestMerchant('CHALLENGE', 'Bodega Ana');
let merchantId: string;
const calls: { transactionId: string; result: ThreeDsResult }[] = [];

const complete: CompleteChallenge = async (transactionId, result) => {
  calls.push({ transactionId, result });
  const card = await takeVaultedCard(fixture.db.prisma, transactionId);
  if (!card) throw new Error('no card to authorize with');
  const to = result.status === 'Y' ? 'AUTORIZADO' : 'DENEGADO';
  await fixture.db.prisma.$transaction((tx) =>
    moveTransaction(tx, transactionId, 'PENDIENTE', to, {
      stateReason: `3-D Secure ${result.status}`,
      threeDs: publicThreeDs(result),
    }),
  );
  const row = await fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
  return { state: to, redirectUrl: row.redirectUrl };
};

beforeAll(async () => {
  merchantId = fixture.merchant.id;
}, SETUP_TIMEOUT);

afterEach(() => {
  calls.length = 0;
  vi.restoreAllMocks();
});

const stored = (transactionId: string) => fixture.db.prisma.transaction.findUniqueOrThrow({ where: { id: transactionId } });
const vaulted = (transactionId: string) => fixture.db.prisma.cardVaultEntry.count({ where: { transactionId } });
const asText = (value: unknown) =>
  JSON.stringify(value, (_key, each: unknown) => (typeof each === 'bigint' ? each.toString() : each));

describe('challengeView', () => {
  it('shows the merchant, amount, masked card and tries of an open challenge, and no card data', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    const view = await challengeView(fixture.db.prisma, payment.token);
    expect(view).toMatchObject({
      transactionId: payment.transactionId,
      merchantName: 'Bodega Ana',
      merchantOperationNumber: payment.operationNumber,
      amount: 15_000n,
      currency: '604',
      maskedPan: '400000******3220',
      brand: 'VISA',
      state: 'PENDIENTE',
      stage: 'open',
      triesLeft: 3,
      returnUrl: null,
    });
    expect(asText(view)).not.toContain(payment.card.pan);
    // No security code is kept to show (its three digits could be in any id by chance: the field is looked for).
    expect(asText(view)).not.toMatch(/security|cvv/i);
  });

  it('is null for a token of another method, an unknown token and one of another shape', async () => {
    const qr = await authorizeCharge(fixture.db.prisma, fixture.merchant, chargeRequest(fixture.merchant.code, 'qr-view', 'QR'));
    const { payerToken } = await stored(qr.transaction.transaction_id);
    expect(await challengeView(fixture.db.prisma, payerToken!)).toBeNull();
    expect(await challengeView(fixture.db.prisma, 'A'.repeat(24))).toBeNull();
    expect(await challengeView(fixture.db.prisma, 'short\u0000')).toBeNull();
  });

  it('shows a challenge past its expiry as expired, with the way back to the merchant', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId, { expiresAt: new Date(Date.now() - 1000) });
    const view = await challengeView(fixture.db.prisma, payment.token);
    expect(view).toMatchObject({ stage: 'expired', state: 'EXPIRADO' });
    expect(new URL(view!.returnUrl!).searchParams.get('state')).toBe('EXPIRADO');
  });
});

describe('submitChallengeCode', () => {
  it('completes with Y on the sandbox code and sends the browser to redirect_url with the state', async () => {
    const logs = [vi.spyOn(console, 'log'), vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')];
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    const outcome = await submitChallengeCode(fixture.db.prisma, payment.token, ' 123456 ', complete);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.transactionId).toBe(payment.transactionId);
    expect(calls[0]!.result).toMatchObject({ version: '2.2.0', status: 'Y', eci: '05', challenged: true });
    expect(calls[0]!.result.authenticationValue).toBeTruthy();
    expect(outcome).toMatchObject({ kind: 'completed', state: 'AUTORIZADO' });
    const back = new URL((outcome as { redirectUrl: string }).redirectUrl);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.example.pe/return');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      order: '7',
      merchant_operation_number: payment.operationNumber,
      transaction_id: payment.transactionId,
      state: 'AUTORIZADO',
    });

    const row = await stored(payment.transactionId);
    expect(row.state).toBe('AUTORIZADO');
    expect(row.threeDs).toEqual({ version: '2.2.0', status: 'Y', eci: '05', challenged: true });
    expect(asText(row)).not.toContain(calls[0]!.result.authenticationValue!);
    expect(await vaulted(payment.transactionId)).toBe(0);
    const logged = logs.flatMap((spy) => spy.mock.calls.map((call) => asText(call)));
    for (const line of logged) expect(line).not.toContain(payment.card.pan);

    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toEqual({
      kind: 'unchanged',
      state: 'AUTORIZADO',
    });
    expect(calls).toHaveLength(1);
    expect(await challengeView(fixture.db.prisma, payment.token)).toMatchObject({ stage: 'closed', state: 'AUTORIZADO' });
  });

  it('counts wrong codes in three_ds and completes with N at the third', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '000000', complete)).toEqual({
      kind: 'retry',
      triesLeft: 2,
    });
    expect((await stored(payment.transactionId)).threeDs).toEqual({ status: 'C', tries: 1 });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '654321', complete)).toEqual({
      kind: 'retry',
      triesLeft: 1,
    });
    expect(await challengeView(fixture.db.prisma, payment.token)).toMatchObject({ stage: 'open', triesLeft: 1 });
    expect(calls).toHaveLength(0);

    const outcome = await submitChallengeCode(fixture.db.prisma, payment.token, '111111', complete);
    expect(calls.map((call) => call.result)).toEqual([
      { version: '2.2.0', status: 'N', eci: '07', challenged: true, authenticationValue: null },
    ]);
    expect(outcome).toMatchObject({ kind: 'completed', state: 'DENEGADO' });
    expect((await stored(payment.transactionId)).state).toBe('DENEGADO');
  });

  it('completes the card that never passes with N, whatever the code', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId, { pan: '4000000000003253' });
    await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete);
    expect(calls.map((call) => call.result.status)).toEqual(['N']);
  });

  it('counts no try for a code that is not six digits', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    for (const code of ['', '12345', '1234567', 'abcdef', '12 456']) {
      expect(await submitChallengeCode(fixture.db.prisma, payment.token, code, complete)).toEqual({ kind: 'invalid_code' });
    }
    expect((await stored(payment.transactionId)).threeDs).toEqual({ status: 'C', tries: 0 });
  });

  it('ends on the result page when the payment has no redirect_url', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId, { redirectUrl: null });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toEqual({
      kind: 'completed',
      state: 'AUTORIZADO',
      redirectUrl: null,
    });
  });

  it('completes once when two tabs send the code at the same time', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    const outcomes = await Promise.all(
      [1, 2].map(() => submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)),
    );
    expect(calls).toHaveLength(1);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['completed', 'unchanged']);
  });

  it('lets the payer try again when the completion fails', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    const failing: CompleteChallenge = async () => {
      throw new Error('not wired');
    };
    await expect(submitChallengeCode(fixture.db.prisma, payment.token, '123456', failing)).rejects.toThrow('not wired');
    expect((await stored(payment.transactionId)).threeDs).toEqual({ status: 'C', tries: 0 });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toMatchObject({
      state: 'AUTORIZADO',
    });
  });

  it('keeps a challenge failed after its third wrong code, even when that completion failed and the right code follows', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId, { tries: 2 });
    const failing: CompleteChallenge = async () => {
      throw new Error('not wired');
    };
    await expect(submitChallengeCode(fixture.db.prisma, payment.token, '000000', failing)).rejects.toThrow('not wired');
    expect((await stored(payment.transactionId)).threeDs).toEqual({ status: 'C', tries: 3 });
    await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete);
    expect(calls.map((call) => call.result.status)).toEqual(['N']);
  });

  it('shows a payment being authorized as processing, and takes no code for it', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    await fixture.db.prisma.transaction.update({
      where: { id: payment.transactionId },
      data: { threeDs: { status: 'C', tries: 0, completing: true } },
    });
    expect(await challengeView(fixture.db.prisma, payment.token)).toMatchObject({ stage: 'processing' });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toEqual({
      kind: 'unchanged',
      state: 'PENDIENTE',
    });
    expect(calls).toHaveLength(0);
  });

  it('expires a challenge past its expiry and drops its card, without completing', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId, { expiresAt: new Date(Date.now() - 1000) });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toEqual({ kind: 'expired' });
    expect((await stored(payment.transactionId)).state).toBe('EXPIRADO');
    expect(await vaulted(payment.transactionId)).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('cannot complete without the card in the vault', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId, { vault: false });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toEqual({ kind: 'unavailable' });
    expect(calls).toHaveLength(0);
  });

  it('finds no challenge for other tokens', async () => {
    for (const token of ['A'.repeat(24), 'x', `${'A'.repeat(24)}\u0000`]) {
      expect(await submitChallengeCode(fixture.db.prisma, token, '123456', complete)).toEqual({ kind: 'not_found' });
      expect(await cancelChallenge(fixture.db.prisma, token)).toEqual({ kind: 'not_found' });
    }
  });
});

describe('cancelChallenge', () => {
  it('cancels the payment and drops its card at once', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    expect(await cancelChallenge(fixture.db.prisma, payment.token)).toEqual({ kind: 'moved', state: 'CANCELADO' });
    const row = await fixture.db.prisma.transaction.findUniqueOrThrow({
      where: { id: payment.transactionId },
      include: { lifecycle: { orderBy: { id: 'asc' } } },
    });
    expect(row.state).toBe('CANCELADO');
    expect(row.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'CANCELADO']);
    expect(await vaulted(payment.transactionId)).toBe(0);
    expect(await cancelChallenge(fixture.db.prisma, payment.token)).toEqual({ kind: 'unchanged', state: 'CANCELADO' });
    expect(await submitChallengeCode(fixture.db.prisma, payment.token, '123456', complete)).toEqual({
      kind: 'unchanged',
      state: 'CANCELADO',
    });
  });
});

describe("the other payer pages' actions", () => {
  it('neither pay nor abandon a CARD payment (pay would authorize it without its processor)', async () => {
    const payment = await challengePayment(fixture.db.prisma, merchantId);
    expect(await payPayment(fixture.db.prisma, payment.token)).toEqual({ kind: 'not_found' });
    expect(await abandonPayment(fixture.db.prisma, payment.token)).toEqual({ kind: 'not_found' });
    expect((await stored(payment.transactionId)).state).toBe('PENDIENTE');
    expect(await vaulted(payment.transactionId)).toBe(1);
  });
});
