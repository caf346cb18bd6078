import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '@/generated/prisma/client';
import { chargeRequest, SETUP_TIMEOUT, withTestMerchant } from '@tests/support/procedure-test-support';
import type { TransactionState } from '@/server/core/domain/states';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { moveTransaction } from './move-transaction';
import { moveTransactions } from './move-transactions';
import { moveRefund, registerRefunds } from '@/server/modules/refunds/refund-moves';
import type { RefundLifecycle } from '@/server/modules/refunds/refund-view';

// The move module against a real (embedded) database: what a refused move leaves, what a batch
// takes, and that every move writes one lifecycle entry and one event.
const fixture = withTestMerchant('MOVES');
const authorized: string[] = [];
const pending: string[] = [];

beforeAll(async () => {
  for (const [index, method] of (['CARD', 'CARD', 'QR', 'QR'] as const).entries()) {
    const request = chargeRequest(fixture.merchant.code, `moves-${index}`, method, { callbackUrl: 'https://shop.test/cb' });
    const { transaction } = await authorizeCharge(fixture.db.prisma, fixture.merchant, request);
    (method === 'CARD' ? authorized : pending).push(transaction.transaction_id);
  }
}, SETUP_TIMEOUT);

/** Lifecycle entries and events written for these transactions or refunds, and their states. */
async function written(ids: string[]) {
  const [lifecycle, events, transactions, refunds] = await Promise.all([
    fixture.db.prisma.lifecycleEntry.count({ where: { transactionId: { in: ids } } }),
    fixture.db.prisma.outboxEvent.findMany({ where: { aggregateId: { in: ids } }, select: { aggregateId: true, type: true } }),
    fixture.db.prisma.transaction.findMany({ where: { id: { in: ids } }, select: { id: true, state: true } }),
    fixture.db.prisma.refund.findMany({ where: { id: { in: ids } }, select: { id: true, state: true, lifecycle: true } }),
  ]);
  const states = Object.fromEntries([...transactions, ...refunds].map((row) => [row.id, row.state]));
  const refundLifecycle = refunds.reduce((sum, row) => sum + (row.lifecycle as RefundLifecycle).length, 0);
  return { entries: lifecycle + refundLifecycle, events, states };
}

/** A batch move of this merchant's transactions, with what it wrote: the states, entries and events before and after. */
async function batch(to: TransactionState, stateReason: string) {
  const ids = [...authorized, ...pending];
  const before = await written(ids);
  const where = Prisma.sql`t.merchant_id = ${fixture.merchant.id}::uuid`;
  const moved = await fixture.db.prisma.$transaction((tx) =>
    moveTransactions(tx, to, { where, orderBy: Prisma.sql`t.id`, limit: 10 }, { stateReason }),
  );
  return { moved, before, after: await written(ids) };
}

describe('moveTransaction', () => {
  it('refuses a move the table does not have, and changes nothing', async () => {
    const before = await written([pending[0]!]);
    await expect(
      fixture.db.prisma.$transaction((tx) => moveTransaction(tx, pending[0]!, 'PENDIENTE', 'LIQUIDADO', { stateReason: 'no' })),
    ).rejects.toThrow('transaction move PENDIENTE -> LIQUIDADO is not allowed');
    expect(await written([pending[0]!])).toEqual(before);
  });

  it('leaves a row that is no longer in the expected state, writing nothing', async () => {
    const before = await written([authorized[0]!]);
    const moved = await fixture.db.prisma.$transaction((tx) =>
      moveTransaction(tx, authorized[0]!, 'PENDIENTE', 'CANCELADO', { stateReason: 'late' }),
    );
    expect(moved).toBeNull();
    expect(await written([authorized[0]!])).toEqual(before);
  });

  it('writes exactly one lifecycle entry and one event per move', async () => {
    const before = await written([pending[0]!]);
    const moved = await fixture.db.prisma.$transaction((tx) =>
      moveTransaction(tx, pending[0]!, 'PENDIENTE', 'CANCELADO', { stateReason: 'Operación cancelada (test)' }),
    );
    expect(moved?.state).toBe('CANCELADO');
    expect(moved?.lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'CANCELADO']);
    const after = await written([pending[0]!]);
    expect(after.entries).toBe(before.entries + 1);
    expect(after.events.slice(before.events.length)).toEqual([{ aggregateId: pending[0], type: 'transaction.cancelled' }]);
  });
});

describe('moveTransactions', () => {
  it('moves nothing to a state the table reaches from no state', async () => {
    const { moved, before, after } = await batch('REGISTRADO', 'no');
    expect(moved).toBe(0);
    expect(after).toEqual(before);
  });

  it('never takes a row whose state the table does not move from: expiry leaves authorized payments', async () => {
    const { moved, before, after } = await batch('EXPIRADO', 'El pago no se completó antes de su vencimiento');
    // pending[0] was cancelled above: only pending[1] is still PENDIENTE.
    expect(moved).toBe(1);
    expect(after.states).toEqual({ ...before.states, [pending[1]!]: 'EXPIRADO' });
    expect(after.entries).toBe(before.entries + 1);
    expect(after.events.slice(before.events.length)).toEqual([{ aggregateId: pending[1], type: 'transaction.expired' }]);
  });

  it('settles only AUTORIZADO rows, each with one lifecycle entry and one event', async () => {
    const { moved, before, after } = await batch('LIQUIDADO', 'Transacción liquidada');
    expect(moved).toBe(2);
    expect(after.states).toEqual({ ...before.states, [authorized[0]!]: 'LIQUIDADO', [authorized[1]!]: 'LIQUIDADO' });
    expect(after.entries).toBe(before.entries + 2);
    expect(
      after.events
        .slice(before.events.length)
        .map((event) => event.aggregateId)
        .sort(),
    ).toEqual([...authorized].sort());
  });
});

describe('refund moves', () => {
  let refundId: string;

  it('registers refunds with one lifecycle entry and one event each, in the request order', async () => {
    refundId = randomUUID();
    const refunds = await fixture.db.prisma.$transaction((tx) =>
      registerRefunds(
        tx,
        authorized.map((transactionId, index) => ({
          id: index === 0 ? refundId : randomUUID(),
          merchantId: fixture.merchant.id,
          transactionId,
          type: 'TOTAL',
          refundAmount: 15000n,
          transactionAmount: 15000n,
          currency: '604',
          additionalFields: { canal: 'web', reason: 'r', description: 'd' },
        })),
      ),
    );
    expect(refunds.map((refund) => refund.state)).toEqual(['REGISTERED', 'REGISTERED']);
    const ids = refunds.map((refund) => refund.refund_id);
    expect(ids[0]).toBe(refundId);
    const after = await written(ids);
    expect(after.entries).toBe(2);
    expect(after.events).toHaveLength(2);
    expect(after.events.every((event) => event.type === 'refund.registered')).toBe(true);
    // Each refund shows its own payment (the copies in its row are its transaction's and operation's).
    const stored = await fixture.db.prisma.refund.findMany({
      where: { id: { in: ids } },
      select: {
        merchantOperationNumber: true,
        method: true,
        cardBrand: true,
        maskedPan: true,
        transaction: {
          select: { method: true, cardBrand: true, maskedPan: true, operation: { select: { merchantOperationNumber: true } } },
        },
      },
    });
    expect(stored).toHaveLength(2);
    for (const { transaction, ...shown } of stored) {
      expect(shown).toEqual({
        merchantOperationNumber: transaction.operation.merchantOperationNumber,
        method: 'CARD',
        cardBrand: transaction.cardBrand,
        maskedPan: transaction.maskedPan,
      });
      expect(transaction.method).toBe('CARD');
      expect(transaction.maskedPan).toMatch(/^\d{6}\*+\d{4}$/);
    }
  });

  it('refuses to register a refund of a transaction that does not exist, and writes nothing', async () => {
    const id = randomUUID();
    const missing = randomUUID();
    const refund = {
      id,
      merchantId: fixture.merchant.id,
      transactionId: missing,
      type: 'TOTAL',
      refundAmount: 15000n,
      transactionAmount: 15000n,
      currency: '604',
      additionalFields: { canal: 'web', reason: 'r', description: 'd' },
    };
    await expect(fixture.db.prisma.$transaction((tx) => registerRefunds(tx, [refund]))).rejects.toThrow(
      `refund ${id}: no transaction ${missing} to refund`,
    );
    expect(await fixture.db.prisma.refund.count({ where: { id } })).toBe(0);
    expect(await fixture.db.prisma.outboxEvent.count({ where: { aggregateId: id } })).toBe(0);
  });

  it('refuses a refund move the table does not have, and changes nothing', async () => {
    const before = await written([refundId]);
    await expect(fixture.db.prisma.$transaction((tx) => moveRefund(tx, refundId, 'REGISTERED', 'RESOLVED'))).rejects.toThrow(
      'refund move REGISTERED -> RESOLVED is not allowed',
    );
    expect(await written([refundId])).toEqual(before);
  });

  it('moves a refund on with one lifecycle entry and one event, once', async () => {
    const before = await written([refundId]);
    expect(await fixture.db.prisma.$transaction((tx) => moveRefund(tx, refundId, 'REGISTERED', 'IN_PROCESS'))).toBe(true);
    expect(await fixture.db.prisma.$transaction((tx) => moveRefund(tx, refundId, 'REGISTERED', 'IN_PROCESS'))).toBe(false);
    const after = await written([refundId]);
    expect(after.states[refundId]).toBe('IN_PROCESS');
    expect(after.entries).toBe(before.entries + 1);
    expect(after.events.slice(before.events.length)).toEqual([{ aggregateId: refundId, type: 'refund.in_process' }]);
  });
});
