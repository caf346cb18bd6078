import { describe, expect, it } from 'vitest';
import { PaymentMethod, RefundState, TransactionState, UserRole } from '@/generated/prisma/enums';
import { ROLES } from '@/server/modules/access/console-session';
import { PAYMENT_METHODS, REFUND_STATES, TRANSACTION_STATES } from '@/server/core/domain/states';
import type { RefundObject } from '@/server/core/interface/refund';
import type { TransactionObject } from '@/server/core/interface/transaction';
import { eventOf } from './event-of';

const audience = { merchantId: 'm-1', merchantCode: 'SHOP', merchantOperationNumber: 'op-1' };

describe('eventOf', () => {
  it('makes the callback envelope of a transaction move, to deliver when there is a callback URL', () => {
    const transaction = { transaction_id: 't-1', state: 'AUTORIZADO' } as TransactionObject;
    const event = eventOf({ ...audience, to: 'AUTORIZADO', callbackUrl: 'https://shop.test/cb', transaction });
    expect(event).toEqual({
      id: event.id,
      merchantId: 'm-1',
      type: 'transaction.authorized',
      aggregateId: 't-1',
      callbackUrl: 'https://shop.test/cb',
      destination: 'https://shop.test',
      status: 'PENDING',
      payload: {
        success: 'true',
        action: 'notify',
        merchant_code: 'SHOP',
        merchant_operation_number: 'op-1',
        event_id: event.id,
        event_type: 'transaction.authorized',
        transaction,
        meta: event.payload.meta,
      },
    });
  });

  it('names every move and skips delivery without a callback URL', () => {
    const refund = { refund_id: 'r-1' } as RefundObject;
    const types = REFUND_STATES.map((to) => eventOf({ ...audience, to, callbackUrl: null, refund }));
    expect(types.map((event) => [event.type, event.aggregateId, event.status])).toEqual([
      ['refund.registered', 'r-1', 'SKIPPED'],
      ['refund.in_process', 'r-1', 'SKIPPED'],
      ['refund.resolved', 'r-1', 'SKIPPED'],
      ['refund.rejected', 'r-1', 'SKIPPED'],
    ]);
    const transaction = { transaction_id: 't-1' } as TransactionObject;
    expect(TRANSACTION_STATES.map((to) => eventOf({ ...audience, to, callbackUrl: null, transaction }).type)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.authorized',
      'transaction.declined',
      'transaction.cancelled',
      'transaction.reversed',
      'transaction.expired',
      'transaction.settled',
    ]);
  });
});

describe('the database enums', () => {
  it("hold the domain's values, in its order", () => {
    expect(Object.values(TransactionState)).toEqual([...TRANSACTION_STATES]);
    expect(Object.values(PaymentMethod)).toEqual([...PAYMENT_METHODS]);
    expect(Object.values(RefundState)).toEqual([...REFUND_STATES]);
    expect(Object.values(UserRole)).toEqual([...ROLES]);
  });
});
