import { describe, expect, it, vi } from 'vitest';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';
import { toAppError } from '@/server/api/errors/to-app-error';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import type * as Connectors from '@/server/modules/processors/connectors';
import { requestRefunds, type RefundItem } from './request-refunds';

// A processor that declares refunds but not refunds in parts (`partialRefund: false`) is never
// sent a part: it could only return the whole payment. None of today's processors is one (Culqi
// refunds in parts since its refunds are looked for by their metadata), so the sandbox card
// acquirer stands in for one here.
vi.mock('@/server/modules/processors/connectors', async (importOriginal) => {
  const actual = await importOriginal<typeof Connectors>();
  return {
    ...actual,
    capabilitiesForTransaction: async (...args: Parameters<typeof actual.capabilitiesForTransaction>) => ({
      ...(await actual.capabilitiesForTransaction(...args)),
      partialRefund: false,
    }),
  };
});

const fixture = withTestMerchant('WHOLE');

const item = (number: string, type: 'TOTAL' | 'PARTIAL', amount: string): RefundItem => ({
  type,
  merchant_operation_number: number,
  transaction_id: null,
  refund_amount: amount,
  additional_fields: { canal: 'web', reason: 'returned', description: 'test' },
});

describe('a processor that refunds only in whole', () => {
  it('is refused a PARTIAL refund with 422 on type, nothing registered, and takes a TOTAL one', async () => {
    const number = 'whole-1';
    const { transaction } = await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      chargeRequest(fixture.merchant.code, number, 'CARD'),
    );
    await settleAuthorized(fixture.db.prisma, new Date(Date.now() + 1000), { transactionIds: [transaction.transaction_id] });
    const refused = await requestRefunds(fixture.db.prisma, fixture.merchant, {
      operations: [item(number, 'PARTIAL', '5000')],
    }).then(
      () => null,
      (error: unknown) => toAppError(error),
    );
    expect(refused?.kind).toBe('METHOD_RULE');
    expect(refused?.errors.map((each) => each.field)).toEqual(['operations[0].type']);
    expect(await fixture.db.prisma.refund.count({ where: { transactionId: transaction.transaction_id } })).toBe(0);
    const whole = await requestRefunds(fixture.db.prisma, fixture.merchant, { operations: [item(number, 'TOTAL', '15000')] });
    expect(whole.operations.map((each) => [each.type, each.refund_amount, each.state])).toEqual([
      ['TOTAL', '15000', 'REGISTERED'],
    ]);
  });
});
