import { describe, expect, it } from 'vitest';
import type { AuthorizeResult, InstrumentFor, PaymentInstrument, ThreeDsAuthentication } from '../connector';
import { testContext } from '@tests/support/connector-context';
import { acquirerA, acquirerB, isRefundRejectingCard } from './acquirer';

function cardRequest(pan: string, overrides: Partial<InstrumentFor<'CARD'>> = {}): PaymentInstrument {
  return { method: 'CARD', pan, expiry: '1230', securityCode: '123', ...overrides };
}

function sandboxCard(pan: string) {
  return {
    bin: '400000',
    last_pan: pan.slice(-4),
    masked_pan: `400000******${pan.slice(-4)}`,
    brand: 'VISA',
    card_type: 'CREDIT',
    card_country: 'US',
    issuer: 'SANDBOX TEST BANK',
  };
}

function sandboxDetails(pan: string, plan = 'NONE', installmentNumber = '1') {
  const { bin, last_pan, masked_pan, brand, card_type, card_country, issuer } = sandboxCard(pan);
  return {
    masked_pan,
    brand,
    bin,
    last_pan,
    card_type,
    card_country,
    issuer,
    installments: { plan, installment_number: installmentNumber },
  };
}

function expectApproved(result: AuthorizeResult): Extract<AuthorizeResult, { outcome: 'approved' }> {
  if (result.outcome !== 'approved') throw new Error(`expected approved, got ${result.outcome}`);
  return result;
}

const AUTHENTICATED: ThreeDsAuthentication = {
  version: '2.2.0',
  status: 'Y',
  eci: '05',
  authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA=',
};

// docs/DESIGN.md 8's card rules hold on every acquirer (docs/ORCHESTRATION.md 1).
describe.each([acquirerA, acquirerB])('$id', (acquirer) => {
  it('is a CARD acquirer that accepts a 3-D Secure result', () => {
    expect(acquirer.methods).toEqual(['CARD']);
    expect(acquirer.capabilities).toStrictEqual({
      instalments: true,
      threeDsResult: true,
      cardWithoutCode: true,
      reversal: true,
      refunds: true,
      separateCapture: true,
      partialCapture: true,
      captureHoldDays: null,
      partialRefund: true,
      savedCards: { tokenize: false, tokenWithoutCode: false, mitWithNti: true, zeroAmountVerify: true, deleteToken: false },
    });
  });

  it("follows docs/DESIGN.md 8's saved-card rules: an NTI on approvals, none for 1109, MITs only with the card's initial NTI", async () => {
    const first = { initiator: 'CUSTOMER', usage: 'FIRST', reason: 'RECURRING', initialNti: null } as const;
    const saved = expectApproved(
      await acquirer.authorize(cardRequest('4111111111111111', { storedCredential: first }), testContext()),
    );
    expect(saved.networkTransactionId).toMatch(/^[0-9]{15}$/);
    const mit = (pan: string, initialNti: string | null) =>
      acquirer.authorize(
        cardRequest(pan, {
          securityCode: undefined,
          storedCredential: { initiator: 'MERCHANT', usage: 'SUBSEQUENT', reason: 'RECURRING', initialNti },
        }),
        testContext(),
      );
    const code = (result: AuthorizeResult) => result.processorResponse?.result_message.code;
    expect(expectApproved(await mit('4111111111111111', saved.networkTransactionId!)).networkTransactionId).toMatch(
      /^[0-9]{15}$/,
    );
    // Without an NTI, or with another card's: 58, hard.
    expect(code(await mit('4111111111111111', null))).toBe('58');
    const other = expectApproved(await acquirer.authorize(cardRequest('5555555555554444'), testContext()));
    expect(code(await mit('4111111111111111', other.networkTransactionId!))).toBe('58');
    // 1109 approves without an NTI.
    expect(
      expectApproved(await acquirer.authorize(cardRequest('4000000000001109'), testContext())).networkTransactionId,
    ).toBeUndefined();
    // 1307 declines MITs (57, hard) and approves anything else.
    const hardNti = expectApproved(
      await acquirer.authorize(cardRequest('4000000000001307'), testContext()),
    ).networkTransactionId!;
    const hard = await mit('4000000000001307', hardNti);
    expect([hard.outcome, code(hard), hard.outcome === 'declined' && hard.declineClass]).toEqual(['declined', '57', 'hard']);
    // 1208 declines a one-click charge (05, soft) and approves the charge that saves it.
    const oneClick = { initiator: 'CUSTOMER', usage: 'SUBSEQUENT', reason: null, initialNti: null } as const;
    const soft = await acquirer.authorize(cardRequest('4000000000001208', { storedCredential: oneClick }), testContext());
    expect([soft.outcome, code(soft), soft.outcome === 'declined' && soft.declineClass]).toEqual(['declined', '05', 'soft']);
    expectApproved(await acquirer.authorize(cardRequest('4000000000001208', { storedCredential: first }), testContext()));
    // 1406 asks for 3-D Secure (65) on the charge that saves it, and only there.
    const unauthenticated = await acquirer.authorize(cardRequest('4000000000001406', { storedCredential: first }), testContext());
    expect(code(unauthenticated)).toBe('65');
    expectApproved(
      await acquirer.authorize(
        cardRequest('4000000000001406', { storedCredential: first }),
        testContext({ authentication: AUTHENTICATED }),
      ),
    );
    expectApproved(await acquirer.authorize(cardRequest('4000000000001406'), testContext()));
  });

  it('approves an ordinary card with code 00', async () => {
    const result = expectApproved(await acquirer.authorize(cardRequest('4111111111111111'), testContext()));
    expect(result.stateReason).toBe('Transacción aprobada');
    expect(Object.keys(result.processorResponse)).toEqual(['authorization_code', 'brand_transaction_id', 'result_message']);
    expect(result.processorResponse.result_message).toEqual({ code: '00', description: 'Aprobado' });
    expect(result.processorResponse.authorization_code).toMatch(/^\d{6}$/);
    expect(result.processorResponse.brand_transaction_id).toMatch(/^\d{15}$/);
    expect(result.card).toStrictEqual({
      bin: '411111',
      last_pan: '1111',
      masked_pan: '411111******1111',
      brand: 'VISA',
      card_type: 'CREDIT',
      card_country: 'US',
      issuer: 'SANDBOX BANK',
    });
    expect(result.methodDetails).toStrictEqual({
      masked_pan: '411111******1111',
      brand: 'VISA',
      bin: '411111',
      last_pan: '1111',
      card_type: 'CREDIT',
      card_country: 'US',
      issuer: 'SANDBOX BANK',
      installments: { plan: 'NONE', installment_number: '1' },
    });
  });

  it('draws new authorization data for every approval', async () => {
    const first = expectApproved(await acquirer.authorize(cardRequest('4111111111111111'), testContext()));
    const second = expectApproved(await acquirer.authorize(cardRequest('4111111111111111'), testContext()));
    expect(first.processorResponse.brand_transaction_id).not.toBe(second.processorResponse.brand_transaction_id);
  });

  it('echoes the installment plan and number', async () => {
    const request = cardRequest('4000000000005126', {
      installments: { plan: 'CUOTAS_SIN_INTERES', number: '3' },
    });
    const result = await acquirer.authorize(request, testContext());
    expect(result.methodDetails).toStrictEqual(sandboxDetails('4000000000005126', 'CUOTAS_SIN_INTERES', '3'));
  });

  it('approves 4000000000005126 (only its refunds are rejected)', async () => {
    const result = expectApproved(await acquirer.authorize(cardRequest('4000000000005126'), testContext()));
    expect(result.processorResponse.result_message.code).toBe('00');
    expect(result.card).toStrictEqual(sandboxCard('4000000000005126'));
    expect(result.methodDetails).toStrictEqual(sandboxDetails('4000000000005126'));
  });

  it.each([
    ['4000000000000002', '05', 'Denegada por el emisor', 'soft'],
    ['4000000000009995', '51', 'Fondos insuficientes', 'soft'],
    ['4000000000000069', '54', 'Tarjeta vencida', 'hard'],
    ['4000000000000127', 'N7', 'Código de seguridad inválido', 'hard'],
  ])('declines test PAN %s with %s', async (pan, code, description, declineClass) => {
    expect(await acquirer.authorize(cardRequest(pan), testContext())).toStrictEqual({
      outcome: 'declined',
      stateReason: description,
      processorResponse: { result_message: { code, description } },
      declineClass,
      card: sandboxCard(pan),
      methodDetails: sandboxDetails(pan),
    });
  });

  it('fails 4000000000000119 with processor error 96 before any decision', async () => {
    const pan = '4000000000000119';
    expect(await acquirer.authorize(cardRequest(pan), testContext())).toStrictEqual({
      outcome: 'technical_failure',
      reason: 'processor_error',
      stateReason: 'Error del procesador',
      processorResponse: { result_message: { code: '96', description: 'Error del procesador' } },
      card: sandboxCard(pan),
      methodDetails: sandboxDetails(pan),
    });
  });

  it.each(['4000000000003220', '4000000000003063', '4000000000003253'])(
    "approves 3-D Secure test PAN %s: its authentication is the directory server's",
    async (pan) => {
      expect((await acquirer.authorize(cardRequest(pan), testContext())).outcome).toBe('approved');
      expect((await acquirer.authorize(cardRequest(pan), testContext({ authentication: AUTHENTICATED }))).outcome).toBe(
        'approved',
      );
    },
  );

  it('declines 4000000000003261 with 65 (sca_required) unless authenticated', async () => {
    const pan = '4000000000003261';
    expect(await acquirer.authorize(cardRequest(pan), testContext())).toStrictEqual({
      outcome: 'declined',
      stateReason: 'El emisor requiere autenticación',
      processorResponse: { result_message: { code: '65', description: 'El emisor requiere autenticación' } },
      declineClass: 'sca_required',
      card: sandboxCard(pan),
      methodDetails: sandboxDetails(pan),
    });
    for (const status of ['Y', 'A'] as const) {
      const authenticated = testContext({ authentication: { ...AUTHENTICATED, status } });
      expectApproved(await acquirer.authorize(cardRequest(pan), authenticated));
    }
  });

  it('answers no ordinary or DESIGN.md 8 payment late', () => {
    for (const pan of ['4111111111111111', '4000000000000002', '4000000000000119', '4000000000005126']) {
      expect(acquirer.answersLate?.(cardRequest(pan))).toBe(false);
    }
    expect(acquirer.answersLate?.({ method: 'QR' })).toBe(false);
  });

  it('declines a past expiry month with 54, before any test-PAN rule', async () => {
    const expired = await acquirer.authorize(cardRequest('4000000000000002', { expiry: '1026' }), testContext());
    expect(expired.outcome).toBe('declined');
    expect(expired.processorResponse).toStrictEqual({
      result_message: { code: '54', description: 'Tarjeta vencida' },
    });
    expect(expired.stateReason).toBe('Tarjeta vencida');
  });

  it('keeps a card valid through the end of its expiry month (UTC)', async () => {
    const request = cardRequest('4111111111111111', { expiry: '1126' });
    const lastInstant = testContext({ now: new Date('2026-11-30T23:59:59.999Z') });
    const nextMonth = testContext({ now: new Date('2026-12-01T00:00:00.000Z') });
    expect((await acquirer.authorize(request, lastInstant)).outcome).toBe('approved');
    const late = await acquirer.authorize(request, nextMonth);
    expect(late.outcome).toBe('declined');
    expect(late.processorResponse?.result_message.code).toBe('54');
  });

  it('declines an impossible expiry month with 54', async () => {
    const result = await acquirer.authorize(cardRequest('4111111111111111', { expiry: '1330' }), testContext());
    expect(result.outcome).toBe('declined');
    expect(result.processorResponse?.result_message).toStrictEqual({
      code: '54',
      description: 'Tarjeta vencida',
    });
  });

  it('declines a Luhn-valid PAN of no known brand with 14 and no card', async () => {
    expect(await acquirer.authorize(cardRequest('1234567812345670'), testContext())).toStrictEqual({
      outcome: 'declined',
      stateReason: 'Número de tarjeta inválido',
      processorResponse: { result_message: { code: '14', description: 'Número de tarjeta inválido' } },
      declineClass: 'hard',
      card: null,
      methodDetails: {
        masked_pan: '123456******5670',
        bin: '123456',
        last_pan: '5670',
        installments: { plan: 'NONE', installment_number: '1' },
      },
    });
  });

  it('throws on an unvalidated PAN or another method', async () => {
    await expect(acquirer.authorize(cardRequest('4111111111111112'), testContext())).rejects.toThrow('validated PAN');
    await expect(acquirer.authorize({ method: 'QR' }, testContext())).rejects.toThrow(
      'The CARD connector cannot authorize a QR request',
    );
  });
});

describe('isRefundRejectingCard', () => {
  it('recognises card 4000000000005126 by BIN and last four', () => {
    expect(isRefundRejectingCard('400000', '5126')).toBe(true);
    expect(isRefundRejectingCard('400000', '0002')).toBe(false);
    expect(isRefundRejectingCard('411111', '5126')).toBe(false);
  });
});

// docs/ORCHESTRATION.md 1: what A declines, fails or answers late, B approves.
describe('the failover test PANs', () => {
  it('4000000000008005: declined 05 (soft) at A, approved at B', async () => {
    const pan = '4000000000008005';
    expect(await acquirerA.authorize(cardRequest(pan), testContext())).toStrictEqual({
      outcome: 'declined',
      stateReason: 'Denegada por el emisor',
      processorResponse: { result_message: { code: '05', description: 'Denegada por el emisor' } },
      declineClass: 'soft',
      card: sandboxCard(pan),
      methodDetails: sandboxDetails(pan),
    });
    expectApproved(await acquirerB.authorize(cardRequest(pan), testContext()));
  });

  it('4000000000008013: technical failure 96 at A, approved at B', async () => {
    const pan = '4000000000008013';
    expect(await acquirerA.authorize(cardRequest(pan), testContext())).toStrictEqual({
      outcome: 'technical_failure',
      reason: 'processor_error',
      stateReason: 'Error del procesador',
      processorResponse: { result_message: { code: '96', description: 'Error del procesador' } },
      card: sandboxCard(pan),
      methodDetails: sandboxDetails(pan),
    });
    expectApproved(await acquirerB.authorize(cardRequest(pan), testContext()));
  });

  it('4000000000008021: approved at A but answered late there; approved on time at B', async () => {
    const pan = '4000000000008021';
    expectApproved(await acquirerA.authorize(cardRequest(pan), testContext()));
    expect(acquirerA.answersLate?.(cardRequest(pan))).toBe(true);
    expectApproved(await acquirerB.authorize(cardRequest(pan), testContext()));
    expect(acquirerB.answersLate?.(cardRequest(pan))).toBe(false);
  });

  it('gives the acquirers their own ids and names', () => {
    expect([acquirerA.id, acquirerB.id]).toEqual(['sandbox-acquirer-a', 'sandbox-acquirer-b']);
    expect([acquirerA.name, acquirerB.name]).toEqual(['Sandbox card acquirer A', 'Sandbox card acquirer B']);
  });
});

describe.each([acquirerA, acquirerB])('$id after authorization', (acquirer) => {
  const reference = (bin: string, last4: string) => ({
    transactionId: 'b3c1f2de-0000-4000-8000-000000000001',
    method: 'CARD' as const,
    amount: 15_000n,
    currency: '604',
    card: { bin, last4 },
    processorReference: null,
    createdAt: null,
  });
  const refundOf = (bin: string, last4: string) => ({
    ...reference(bin, last4),
    refundId: 'f0e1d2c3-0000-4000-8000-000000000001',
    refundAmount: 15_000n,
    registeredAt: new Date(),
  });

  it('rejects refunds of card 4000000000005126 only', async () => {
    expect(await acquirer.refund!(refundOf('400000', '5126'))).toStrictEqual({
      outcome: 'rejected',
      reason: 'El procesador rechazó el reembolso de esta tarjeta',
    });
    expect(await acquirer.refund!(refundOf('400000', '0002'))).toStrictEqual({ outcome: 'resolved' });
    expect(await acquirer.refund!(refundOf('411111', '5126'))).toStrictEqual({ outcome: 'resolved' });
  });
});
