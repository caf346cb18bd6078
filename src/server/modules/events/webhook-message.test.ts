import { describe, expect, it } from 'vitest';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { cancelOperation } from '@/server/modules/charges/cancel-operation';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { requestRefunds } from '@/server/modules/refunds/request-refunds';
import { refundEvent, transactionEvent, webhookMessage } from '@/server/core/interface/webhook-message';

// The OpenAPI document's `webhooks` (WebhookMessage) is what integrators' generated types and the
// SDK's constructEvent are built from: every body the outbox holds must be exactly one of its
// kinds (strict objects: no field missing, none unannounced).
const fixture = withTestMerchant('MESSAGES');

describe('webhook messages', () => {
  it("describe every payload the outbox holds: a card's moves to settled, a refund, a QR cancelled", async () => {
    const { transaction } = await authorizeCharge(
      fixture.db.prisma,
      fixture.merchant,
      chargeRequest(fixture.merchant.code, 'msg-1', 'CARD'),
    );
    await settleAuthorized(fixture.db.prisma, new Date(Date.now() + 1000), { transactionIds: [transaction.transaction_id] });
    await requestRefunds(fixture.db.prisma, fixture.merchant, {
      operations: [
        {
          type: 'PARTIAL',
          merchant_operation_number: 'msg-1',
          transaction_id: null,
          refund_amount: '100',
          additional_fields: { canal: 'web', reason: 'returned', description: 'one item' },
        },
      ],
    });
    await authorizeCharge(fixture.db.prisma, fixture.merchant, chargeRequest(fixture.merchant.code, 'msg-2', 'QR'));
    await cancelOperation(fixture.db.prisma, fixture.merchant, 'msg-2');

    const events = await fixture.db.prisma.outboxEvent.findMany({
      where: { merchantId: fixture.merchant.id },
      orderBy: { seq: 'asc' },
      select: { type: true, payload: true },
    });
    expect(events.map((event) => event.type)).toEqual([
      'transaction.registered',
      'transaction.pending',
      'transaction.authorized',
      'transaction.settled',
      'refund.registered',
      'transaction.registered',
      'transaction.pending',
      'transaction.cancelled',
    ]);
    for (const event of events) {
      const kind = event.type.startsWith('refund.') ? refundEvent : transactionEvent;
      expect(kind.safeParse(event.payload).error).toBeUndefined();
      expect(webhookMessage.parse(event.payload)).toMatchObject({ event_type: event.type });
    }
  });

  it('refuse a body with a field the document does not announce', () => {
    const body = { success: 'true', action: 'test', merchant_code: 'M', test_id: 'x', webhook_endpoint: { id: 'e', url: 'u' } };
    const meta = { status: { code: '00', message_ilgn: [] } };
    expect(webhookMessage.safeParse({ ...body, meta }).success).toBe(true);
    expect(webhookMessage.safeParse({ ...body, meta, extra: 1 }).success).toBe(false);
  });
});
