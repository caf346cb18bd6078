import { describe, expect, it } from 'vitest';
import type { PaymentChange, StatusResult } from '@/server/payments';
import { authorizationVerdict, inquiryVerdict, notificationVerdict, verdictRow, type NotifiedPayment } from './verdict';
import { transactionRow } from '@tests/support/transaction-row';

const approvedStatus: StatusResult = {
  outcome: 'approved',
  authorizationCode: 'A1B2C3',
  brandTransactionId: '123456789012345',
  processorReference: 'ch_live_1',
};

describe('authorizationVerdict', () => {
  const decided = { card: null, methodDetails: {} };
  it('approves, declines a decline or a failure, and leaves a pending or unverified answer PENDIENTE', () => {
    const approval = { authorization_code: 'A1', brand_transaction_id: 'B1', result_message: 'Aprobado' } as never;
    expect(
      authorizationVerdict({
        ...decided,
        outcome: 'approved',
        stateReason: 'ok',
        processorResponse: approval,
        processorReference: 'ch_1',
      }),
    ).toEqual({
      to: 'AUTORIZADO',
      stateReason: 'ok',
      processorResponse: approval,
      declineClass: null,
      processorReference: 'ch_1',
    });
    const refusal = { result_message: { code: '05', description: 'No autorizada' } };
    expect(
      authorizationVerdict({
        ...decided,
        outcome: 'declined',
        stateReason: 'no',
        processorResponse: refusal,
        declineClass: 'soft',
      }),
    ).toEqual({ to: 'DENEGADO', stateReason: 'no', processorResponse: refusal, declineClass: 'soft' });
    expect(
      authorizationVerdict({
        ...decided,
        outcome: 'technical_failure',
        reason: 'timeout',
        stateReason: 't',
        processorResponse: null,
      }),
    ).toEqual({ to: 'DENEGADO', stateReason: 't', processorResponse: null, declineClass: 'technical' });
    const order = { stateReason: 'p', processorResponse: null, expiresAt: new Date(), continueUrl: null, methodDetails: {} };
    expect(authorizationVerdict({ outcome: 'pending', ...order })).toBeNull();
    expect(authorizationVerdict({ outcome: 'verifying' })).toBeNull();
  });
});

describe('inquiryVerdict', () => {
  it.each<[string, StatusResult, boolean, ReturnType<typeof inquiryVerdict>]>([
    [
      'approved',
      approvedStatus,
      false,
      {
        to: 'AUTORIZADO',
        stateReason: 'Transacción aprobada',
        processorResponse: {
          authorization_code: 'A1B2C3',
          brand_transaction_id: '123456789012345',
          result_message: { code: '00', description: 'Aprobado' },
        },
        declineClass: null,
        processorReference: 'ch_live_1',
      },
    ],
    [
      'declined',
      { outcome: 'declined', code: '51', declineClass: 'soft' },
      false,
      {
        to: 'DENEGADO',
        stateReason: 'Denegada por el procesador (51)',
        processorResponse: { result_message: { code: '51', description: 'Denegada por el procesador (51)' } },
        declineClass: 'soft',
      },
    ],
    [
      'never received',
      { outcome: 'not_found' },
      false,
      { to: 'DENEGADO', stateReason: 'El procesador no recibió el pago', declineClass: 'technical' },
    ],
    ['unknown', { outcome: 'unknown' }, false, null],
    ['not supported', { outcome: 'not_supported', flow: 'status' }, false, null],
    [
      'unknown after the sync gave up',
      { outcome: 'unknown' },
      true,
      { to: 'DENEGADO', stateReason: 'El procesador no confirmó el pago; anulado', declineClass: 'technical' },
    ],
  ])('%s', (_, status, gaveUp, verdict) => {
    expect(inquiryVerdict(status, gaveUp)).toEqual(verdict);
  });
});

const card = (over: Partial<NotifiedPayment> = {}): NotifiedPayment => ({
  method: 'CARD',
  state: 'PENDIENTE',
  statusCheckAt: new Date('2026-11-26T10:00:00Z'),
  processorResponse: null,
  ...over,
});
const cashCode = (over: Partial<NotifiedPayment> = {}): NotifiedPayment =>
  card({ method: 'PAGOEFECTIVO', statusCheckAt: null, ...over });
const paid: PaymentChange = { kind: 'paid', operationId: '1234567890', paidAt: new Date('2026-11-26T10:05:00Z') };

describe('notificationVerdict', () => {
  it('settles a card payment in doubt as the processor says, and leaves one not in doubt alone', () => {
    expect(notificationVerdict(card(), { kind: 'approved', ...approvedStatus })).toMatchObject({
      to: 'AUTORIZADO',
      processorReference: 'ch_live_1',
    });
    expect(notificationVerdict(card(), { kind: 'declined', code: '05', declineClass: 'hard' })).toMatchObject({
      to: 'DENEGADO',
      declineClass: 'hard',
    });
    expect(notificationVerdict(card(), { kind: 'voided' })).toEqual({
      to: 'DENEGADO',
      stateReason: 'El procesador anuló el pago',
    });
    expect(notificationVerdict(card({ statusCheckAt: null }), { kind: 'approved', ...approvedStatus })).toBeNull();
    expect(notificationVerdict(card({ state: 'AUTORIZADO' }), { kind: 'declined', code: '05', declineClass: 'hard' })).toBeNull();
  });

  it('moves a payment order when its payer paid, it expired or it was voided', () => {
    expect(notificationVerdict(cashCode(), paid)).toMatchObject({
      to: 'AUTORIZADO',
      stateReason: 'Pago confirmado por el procesador',
      processorResponse: { operationNumber: '1234567890', result_message: { code: '100', description: 'CIP pagado' } },
    });
    expect(notificationVerdict(cashCode(), { kind: 'expired' })).toEqual({
      to: 'EXPIRADO',
      stateReason: 'El pago no se completó antes de su vencimiento',
      expiresAt: null,
    });
    expect(notificationVerdict(cashCode(), { kind: 'voided' })).toEqual({
      to: 'CANCELADO',
      stateReason: 'Orden anulada en el procesador',
      expiresAt: null,
    });
    expect(notificationVerdict(card(), paid)).toBeNull();
  });

  it('names money taken for a payment that had ended here, and moves nothing for refunds or bookkeeping', () => {
    for (const state of ['DENEGADO', 'EXPIRADO', 'CANCELADO']) {
      expect(notificationVerdict(cashCode({ state }), paid)).toBe('late_approval');
      expect(notificationVerdict(card({ state }), { kind: 'approved', ...approvedStatus })).toBe('late_approval');
    }
    expect(notificationVerdict(card(), { kind: 'refunded' })).toBeNull();
    expect(notificationVerdict(cashCode(), { kind: 'none' })).toBeNull();
  });
});

describe('verdictRow', () => {
  const at = new Date('2026-12-02T10:00:00.000Z');
  const claimed = transactionRow(['REGISTRADO'], at, { additionalFields: { processor: 'culqi-1', attempt: 1 } });

  it('passes an attempt in flight through PENDIENTE to the verdict, its reference in its own column', () => {
    const verdict = inquiryVerdict(approvedStatus)!;
    expect(verdictRow(claimed, verdict, at)).toEqual({
      ...claimed,
      state: 'AUTORIZADO',
      stateReason: 'Transacción aprobada',
      processorResponse: verdict.processorResponse,
      processorReference: 'ch_live_1',
      lifecycle: [
        { state: 'REGISTRADO', at },
        { state: 'PENDIENTE', at },
        { state: 'AUTORIZADO', at },
      ],
    });
  });

  it('moves a PENDIENTE payment once, keeping what the verdict does not say', () => {
    const pending = {
      ...claimed,
      state: 'PENDIENTE' as const,
      processorReference: 'ord_1',
      lifecycle: [...claimed.lifecycle, { state: 'PENDIENTE' as const, at }],
    };
    const declined = verdictRow(pending, inquiryVerdict({ outcome: 'not_found' })!, at);
    expect(declined).toMatchObject({
      state: 'DENEGADO',
      stateReason: 'El procesador no recibió el pago',
      processorReference: 'ord_1',
      processorResponse: null,
    });
    expect(declined.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'DENEGADO']);
  });
});
