import { describe, expect, it } from 'vitest';
import { chargeRequest, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { capturePayment } from '@/server/modules/charges/capture-payment';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { moveRefund } from '@/server/modules/refunds/refund-moves';
import { requestRefunds } from '@/server/modules/refunds/request-refunds';
import { listOperations, toOperationRowView } from './list-operations';
import { operationDetail } from './operation-detail';
import { operationsCsv } from './operations-csv';
import { overview } from './overview';

// The money's whole story as the console tells it (issue 50): a card of S/ 150.00 authorized to
// capture later, S/ 100.00 of it captured and settled, S/ 40.00 refunded (RESOLVED) and S/ 30.00
// being refunded (REGISTERED); beside it an authorization still to capture and one captured with
// its authorization. Every figure of the operation page, the list, the export and the overview.
const fixture = withTestMerchant('STORY');
const prisma = () => fixture.db.prisma;
const scope = () => ({ kind: 'one' as const, merchantId: fixture.merchant.id });
const FIELDS = { canal: 'web', reason: 'one item returned', description: '' };

async function charge(number: string, capture: 'manual' | 'automatic') {
  const request = chargeRequest(fixture.merchant.code, number, 'CARD');
  if (request.payment_method.method_name === 'CARD') request.payment_method.method_details.capture = capture;
  return (await authorizeCharge(prisma(), fixture.merchant, request)).transaction.transaction_id;
}

async function refund(number: string, cents: string) {
  const answer = await requestRefunds(prisma(), fixture.merchant, {
    operations: [
      {
        type: 'PARTIAL',
        merchant_operation_number: number,
        transaction_id: null,
        refund_amount: cents,
        additional_fields: FIELDS,
      },
    ],
  });
  return answer.operations[0]!.refund_id;
}

const ids: Record<string, string> = {};

describe('the money story', () => {
  it('builds the story', async () => {
    ids.story = await charge('story-1', 'manual');
    await capturePayment(prisma(), fixture.merchant, 'story-1', 10000n);
    expect(await settleAuthorized(prisma(), new Date(Date.now() + 1000), { transactionIds: [ids.story] })).toBe(1);
    const resolved = await refund('story-1', '4000');
    await prisma().$transaction(async (tx) => {
      await moveRefund(tx, resolved, 'REGISTERED', 'IN_PROCESS');
      await moveRefund(tx, resolved, 'IN_PROCESS', 'RESOLVED');
    });
    await refund('story-1', '3000');
    ids.uncaptured = await charge('story-2', 'manual');
    ids.automatic = await charge('story-3', 'automatic');
  });

  it('the operation page: each figure, and every movement in order with its amount', async () => {
    const detail = await operationDetail(prisma(), scope(), ids.story!);
    const transaction = detail.transactions[0]!;
    expect(transaction.money).toEqual({
      authorized: '15000',
      captured: '10000',
      refunded: '4000',
      refundInProcess: '3000',
      refundable: '3000',
    });
    expect(transaction.refundable).toBe(true);
    expect(transaction.history.map((entry) => [entry.kind, entry.amount])).toEqual([
      ['REGISTRADO', null],
      ['PENDIENTE', null],
      ['AUTORIZADO', '15000'],
      ['CAPTURED', '10000'],
      ['LIQUIDADO', '10000'],
      ['REFUND_REGISTERED', '4000'],
      ['REFUND_IN_PROCESS', '4000'],
      ['REFUND_RESOLVED', '4000'],
      ['REFUND_REGISTERED', '3000'],
    ]);
    const times = transaction.history.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The capture's time is its event's.
    const captured = await prisma().outboxEvent.findFirstOrThrow({
      where: { aggregateId: ids.story, type: 'transaction.captured' },
    });
    expect(transaction.history[3]!.at).toBe(captured.createdAt.toISOString());

    const waiting = (await operationDetail(prisma(), scope(), ids.uncaptured!)).transactions[0]!;
    expect(waiting.money).toEqual({ authorized: '15000', captured: null, refunded: '0', refundInProcess: '0', refundable: '0' });
    expect(waiting.capturable).toBe(true);
  });

  it('the operations list and its export say what was captured, refunded and is being refunded', async () => {
    const page = await listOperations(prisma(), scope(), { limit: 10 });
    const money = Object.fromEntries(
      page.rows.map(toOperationRowView).map((row) => [row.merchantOperationNumber, [row.state, row.money]]),
    );
    expect(money).toEqual({
      'story-1': [
        'LIQUIDADO',
        { authorized: '15000', captured: '10000', refunded: '4000', refundInProcess: '3000', refundable: '3000' },
      ],
      'story-2': ['AUTORIZADO', { authorized: '15000', captured: null, refunded: '0', refundInProcess: '0', refundable: '0' }],
      'story-3': ['AUTORIZADO', { authorized: '15000', captured: '15000', refunded: '0', refundInProcess: '0', refundable: '0' }],
    });
    const text = await new Response(operationsCsv(prisma(), scope(), {})).text();
    const [header, ...lines] = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const column = (name: string) => header!.split(',').indexOf(name);
    const figures = ['amount', 'captured_amount', 'refunded_amount', 'refund_in_process_amount'];
    const cells = Object.fromEntries(
      lines
        .map((line) => line.split(','))
        .map((row): [string, string[]] => [row[column('merchant_operation_number')]!, figures.map((name) => row[column(name)]!)]),
    );
    expect(cells).toEqual({
      'story-1': ['150.00', '100.00', '40.00', '30.00'],
      'story-2': ['150.00', '', '0.00', '0.00'],
      'story-3': ['150.00', '150.00', '0.00', '0.00'],
    });
  });

  it('the overview counts what was captured, the rest apart, and refunds once resolved', async () => {
    const summary = await overview(prisma(), scope());
    const month = summary.windows.find((window) => window.window === '30d')!;
    expect(month.volumes).toEqual([{ currency: '604', cents: '25000' }]);
    expect(month.uncaptured).toEqual([{ currency: '604', cents: '15000' }]);
    expect(summary.refunds).toEqual({
      resolved: { count: 1, amounts: [{ currency: '604', cents: '4000' }] },
      inProcess: { count: 1, amounts: [{ currency: '604', cents: '3000' }] },
    });
    expect(summary.volumeByDay.reduce((sum, day) => sum + Number((day as Record<string, unknown>).CARD ?? 0), 0)).toBe(250);
  });
});
