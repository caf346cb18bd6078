import { describe, expect, it } from 'vitest';
import {
  canRefundTransition,
  canTransition,
  decideCancel,
  PAYMENT_METHODS,
  REFUND_STATES,
  REFUNDABLE_METHODS,
  statesMovingTo,
  TRANSACTION_STATES,
  type CancelDecision,
  type PaymentMethod,
  type RefundState,
  type TransactionState,
} from './states';

const ALLOWED_MOVES: ReadonlyArray<readonly [TransactionState | null, TransactionState]> = [
  [null, 'REGISTRADO'],
  ['REGISTRADO', 'PENDIENTE'],
  ['REGISTRADO', 'CANCELADO'],
  ['PENDIENTE', 'AUTORIZADO'],
  ['PENDIENTE', 'DENEGADO'],
  ['PENDIENTE', 'CANCELADO'],
  ['PENDIENTE', 'EXPIRADO'],
  ['AUTORIZADO', 'EXTORNADO'],
  ['AUTORIZADO', 'LIQUIDADO'],
];

describe('the enumerations', () => {
  it('list every value in order', () => {
    expect(TRANSACTION_STATES).toEqual([
      'REGISTRADO',
      'PENDIENTE',
      'AUTORIZADO',
      'DENEGADO',
      'CANCELADO',
      'EXTORNADO',
      'EXPIRADO',
      'LIQUIDADO',
    ]);
    expect(PAYMENT_METHODS).toEqual(['CARD', 'YAPE', 'BANK_TRANSFER', 'CUOTEALO', 'PAGOEFECTIVO', 'QR']);
    expect(REFUND_STATES).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED', 'REJECTED']);
    expect(REFUNDABLE_METHODS).toEqual(['CARD', 'YAPE', 'CUOTEALO']);
  });
});

describe('canTransition', () => {
  it.each(ALLOWED_MOVES)('allows %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  const refused = [null, ...TRANSACTION_STATES].flatMap((from) =>
    TRANSACTION_STATES.filter(
      (to) => !ALLOWED_MOVES.some(([allowedFrom, allowedTo]) => allowedFrom === from && allowedTo === to),
    ).map((to) => [from, to] as const),
  );

  it('refuses every other move (72 pairs minus the 9 allowed)', () => {
    expect(refused).toHaveLength(9 * 8 - 9);
  });

  it.each(refused)('refuses %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });

  it('refuses the notable wrong moves', () => {
    expect(canTransition(null, 'PENDIENTE')).toBe(false);
    expect(canTransition('REGISTRADO', 'AUTORIZADO')).toBe(false);
    expect(canTransition('PENDIENTE', 'EXTORNADO')).toBe(false);
    expect(canTransition('PENDIENTE', 'LIQUIDADO')).toBe(false);
    expect(canTransition('AUTORIZADO', 'CANCELADO')).toBe(false);
    expect(canTransition('LIQUIDADO', 'EXTORNADO')).toBe(false);
    expect(canTransition('DENEGADO', 'PENDIENTE')).toBe(false);
    expect(canTransition('EXPIRADO', 'AUTORIZADO')).toBe(false);
    expect(canTransition('CANCELADO', 'CANCELADO')).toBe(false);
  });
});

describe('statesMovingTo', () => {
  it.each(TRANSACTION_STATES)('lists the states the table moves to %s from', (to) => {
    const expected = ALLOWED_MOVES.filter(([from, allowedTo]) => from !== null && allowedTo === to).map(([from]) => from);
    expect(statesMovingTo(to)).toEqual(expected);
  });

  it('gives the batches their one source state', () => {
    expect(statesMovingTo('LIQUIDADO')).toEqual(['AUTORIZADO']);
    expect(statesMovingTo('EXPIRADO')).toEqual(['PENDIENTE']);
  });
});

describe('canRefundTransition', () => {
  const allowed: ReadonlyArray<readonly [RefundState | null, RefundState]> = [
    [null, 'REGISTERED'],
    ['REGISTERED', 'IN_PROCESS'],
    ['IN_PROCESS', 'RESOLVED'],
    ['IN_PROCESS', 'REJECTED'],
  ];

  it.each(allowed)('allows %s -> %s', (from, to) => {
    expect(canRefundTransition(from, to)).toBe(true);
  });

  const refused = [null, ...REFUND_STATES].flatMap((from) =>
    REFUND_STATES.filter((to) => !allowed.some(([f, t]) => f === from && t === to)).map((to) => [from, to] as const),
  );

  it('refuses 16 of the 20 pairs', () => {
    expect(refused).toHaveLength(16);
  });

  it.each(refused)('refuses %s -> %s', (from, to) => {
    expect(canRefundTransition(from, to)).toBe(false);
  });
});

describe('decideCancel', () => {
  const expected = (state: TransactionState, method: PaymentMethod): string => {
    if (state === 'REGISTRADO' || state === 'PENDIENTE') return 'move CANCELADO';
    if (state === 'AUTORIZADO') return method === 'CARD' || method === 'YAPE' ? 'move EXTORNADO' : 'refused method';
    if (state === 'CANCELADO' || state === 'EXTORNADO') return `already ${state}`;
    return 'refused state';
  };

  const summary = (decision: CancelDecision): string => {
    if (decision.kind === 'move') return `move ${decision.to}`;
    if (decision.kind === 'already') return `already ${decision.state}`;
    return `refused ${decision.reason}`;
  };

  const table = TRANSACTION_STATES.flatMap((state) => PAYMENT_METHODS.map((method) => [state, method] as const));

  it('covers all 48 pairs', () => {
    expect(table).toHaveLength(48);
  });

  it.each(table)('%s %s', (state, method) => {
    expect(summary(decideCancel(state, method))).toBe(expected(state, method));
  });

  it('cancels before any money moved', () => {
    expect(decideCancel('PENDIENTE', 'QR')).toEqual({ kind: 'move', to: 'CANCELADO' });
    expect(decideCancel('REGISTRADO', 'CARD')).toEqual({ kind: 'move', to: 'CANCELADO' });
  });

  it('reverses authorized card and Yape payments', () => {
    expect(decideCancel('AUTORIZADO', 'CARD')).toEqual({ kind: 'move', to: 'EXTORNADO' });
    expect(decideCancel('AUTORIZADO', 'YAPE')).toEqual({ kind: 'move', to: 'EXTORNADO' });
  });

  it('reports an operation already cancelled or reversed', () => {
    expect(decideCancel('CANCELADO', 'BANK_TRANSFER')).toEqual({ kind: 'already', state: 'CANCELADO' });
    expect(decideCancel('EXTORNADO', 'CARD')).toEqual({ kind: 'already', state: 'EXTORNADO' });
  });

  it('explains a refusal by method, pointing at refunds where the method has them', () => {
    expect(decideCancel('AUTORIZADO', 'CUOTEALO')).toEqual({
      kind: 'refused',
      reason: 'method',
      message:
        "An authorized CUOTEALO payment cannot be cancelled or reversed because the payer's money has moved; request a refund once it is settled.",
    });
    expect(decideCancel('AUTORIZADO', 'QR')).toEqual({
      kind: 'refused',
      reason: 'method',
      message:
        "An authorized QR payment cannot be cancelled or reversed because the payer's money has moved; QR payments cannot be refunded.",
    });
  });

  it('explains a refusal by state', () => {
    expect(decideCancel('DENEGADO', 'CARD')).toEqual({
      kind: 'refused',
      reason: 'state',
      message: 'The operation was declined (DENEGADO); there is nothing to cancel.',
    });
    expect(decideCancel('EXPIRADO', 'PAGOEFECTIVO')).toEqual({
      kind: 'refused',
      reason: 'state',
      message: 'The operation expired (EXPIRADO); there is nothing to cancel.',
    });
    expect(decideCancel('LIQUIDADO', 'YAPE')).toEqual({
      kind: 'refused',
      reason: 'state',
      message: 'The operation is already settled (LIQUIDADO) and cannot be cancelled; request a refund instead.',
    });
    expect(decideCancel('LIQUIDADO', 'BANK_TRANSFER')).toEqual({
      kind: 'refused',
      reason: 'state',
      message: 'The operation is already settled (LIQUIDADO) and cannot be cancelled; BANK_TRANSFER payments cannot be refunded.',
    });
  });
});
