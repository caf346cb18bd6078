import { beforeAll, describe, expect, it } from 'vitest';
import { chargeRequest, SETUP_TIMEOUT, withTestMerchant } from '@tests/support/procedure-test-support';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { movedTransactionSelect } from '@/server/modules/charges/moves/record-transaction-moves';
import { inquiryVerdict } from '@/server/modules/charges/verdict';
import { applyVerdict, type Answered } from './apply-verdict';

// The one path from a processor's answer to the rows, against a real (embedded) database: the
// table checked, a payment that moved on or is held left alone, and what a verdict writes.
const fixture = withTestMerchant('VERDICT');
const ids: Record<'authorized' | 'pending' | 'held', string> = { authorized: '', pending: '', held: '' };

beforeAll(async () => {
  for (const [name, method] of [
    ['authorized', 'CARD'],
    ['pending', 'QR'],
    ['held', 'QR'],
  ] as const) {
    const request = chargeRequest(fixture.merchant.code, `verdict-${name}`, method, { callbackUrl: 'https://shop.test/cb' });
    ids[name] = (await authorizeCharge(fixture.db.prisma, fixture.merchant, request)).transaction.transaction_id;
  }
}, SETUP_TIMEOUT);

/** The payment as the status sync and the notifications read it before applying a verdict. */
async function answered(id: string): Promise<Answered> {
  const { merchantId, operation, ...row } = await fixture.db.prisma.transaction.findUniqueOrThrow({
    where: { id },
    select: movedTransactionSelect,
  });
  const audience = {
    merchantId,
    merchantCode: operation.merchant.code,
    merchantOperationNumber: operation.merchantOperationNumber,
  };
  return { row, audience, written: 'row' };
}

async function written(id: string) {
  const [row, entries, events] = await Promise.all([
    fixture.db.prisma.transaction.findUniqueOrThrow({
      where: { id },
      select: { state: true, stateReason: true, processorReference: true, statusChecks: true, statusCheckAt: true },
    }),
    fixture.db.prisma.lifecycleEntry.findMany({ where: { transactionId: id }, select: { state: true }, orderBy: { id: 'asc' } }),
    fixture.db.prisma.outboxEvent.findMany({ where: { aggregateId: id }, select: { type: true }, orderBy: { createdAt: 'asc' } }),
  ]);
  return { ...row, lifecycle: entries.map((entry) => entry.state), events: events.map((event) => event.type) };
}

const approved = inquiryVerdict({
  outcome: 'approved',
  authorizationCode: 'A1',
  brandTransactionId: 'B1',
  processorReference: 'qr-ref-1',
})!;

describe('applyVerdict', () => {
  it('refuses a move the table forbids (an approved payment declined by a status answer) and writes nothing', async () => {
    const before = await written(ids.authorized);
    const verdict = inquiryVerdict({ outcome: 'not_found' })!;
    await expect(applyVerdict(fixture.db.prisma, await answered(ids.authorized), verdict, new Date())).rejects.toThrow(
      'transaction move AUTORIZADO -> DENEGADO is not allowed',
    );
    expect(await written(ids.authorized)).toEqual(before);
  });

  it("writes a PENDIENTE payment's verdict once: state, reference column, lifecycle entry, event, the checks counted", async () => {
    const read = await answered(ids.pending);
    expect(await applyVerdict(fixture.db.prisma, read, approved, new Date(), { statusChecks: 3 })).toBe(true);
    const after = await written(ids.pending);
    expect(after).toMatchObject({
      state: 'AUTORIZADO',
      stateReason: 'Transacción aprobada',
      processorReference: 'qr-ref-1',
      statusChecks: 3,
      statusCheckAt: null,
    });
    expect(after.lifecycle.slice(-2)).toEqual(['PENDIENTE', 'AUTORIZADO']);
    expect(after.events.at(-1)).toBe('transaction.authorized');
    // The same answer again, from the payment as it was read: it has moved on, nothing is written.
    expect(await applyVerdict(fixture.db.prisma, read, approved, new Date())).toBe(false);
    expect(await written(ids.pending)).toEqual(after);
  });

  it('leaves a payment a cancellation holds while its processor is asked', async () => {
    await fixture.db.prisma.transaction.update({ where: { id: ids.held }, data: { undoUntil: new Date(Date.now() + 60_000) } });
    const before = await written(ids.held);
    expect(await applyVerdict(fixture.db.prisma, await answered(ids.held), approved, new Date())).toBe(false);
    expect(await written(ids.held)).toEqual(before);
  });
});
