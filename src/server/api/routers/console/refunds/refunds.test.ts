import { toActingMerchant } from '@/server/modules/access/acting-merchant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { processRefunds } from '@/server/modules/refunds/process-refunds';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { payPayment } from '@/server/modules/charges/payer/payer-actions';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import type { ChargeRequest } from '@/server/core/interface/charge-request';
import { consoleCallerOf, openTestDatabase, refusal, sessionAs, SETUP_TIMEOUT } from '@tests/support/procedure-test-support';

// The console's refund procedures, role by role: detail, refundable transactions, batch and single refund.
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let prisma: PrismaClient;
const merchants: Record<string, { id: string; code: string }> = {};
const tx: Record<string, string> = {};

const person = { first_name: 'Ana', email: 'ana.quispe@example.pe' };
const METHOD_DETAILS = {
  CARD: { pan: '4111111111111111', expiry_date: '1230', security_code: '123' },
  YAPE: { phone: { country_code: '+51', subscriber: '987654321' }, otp: '123456', callback_url: 'https://shop.example/hooks' },
  BANK_TRANSFER: { redirect_url: 'https://shop.example/back' },
  QR: {},
} as const;

function body(merchant: string, number: string, method: keyof typeof METHOD_DETAILS, amount: string): ChargeRequest {
  return {
    action: 'authorize',
    channel: 'ecommerce',
    merchant_code: merchant,
    merchant_operation_number: number,
    payment_method: { method_name: method, method_details: METHOD_DETAILS[method] } as ChargeRequest['payment_method'],
    payment_details: { amount, currency: '604', billing: person, shipping: person, customer: person, product_details: [] },
  };
}

const caller = (session?: ConsoleSession) => consoleCallerOf(prisma, session);
const as = (role: ConsoleSession['role'], merchant?: 'A' | 'B') => sessionAs(role, merchant ? merchants[merchant]!.id : null);
const fields = { canal: 'console', reason: 'cliente', description: 'talla' };

async function charge(code: 'A' | 'B', name: string, method: keyof typeof METHOD_DETAILS, amount = '15000') {
  const merchant = await prisma.merchant.findUniqueOrThrow({ where: { code: merchants[code]!.code } });
  const acting = toActingMerchant(merchant);
  const answer = await authorizeCharge(prisma, acting, body(merchant.code, `${code}-${name}`, method, amount));
  tx[`${code}-${name}`] = answer.transaction.transaction_id;
}

const refundsOf = (key: string) => prisma.refund.findMany({ where: { transactionId: tx[key]! }, select: { state: true } });

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.prisma;
  for (const code of ['A', 'B'] as const) {
    const merchant = await prisma.merchant.create({ data: { code: `SHOP${code}`, name: `Shop ${code}` } });
    merchants[code] = { id: merchant.id, code: merchant.code };
    await charge(code, 'card1', 'CARD', '15000');
    await charge(code, 'card2', 'CARD', '2000');
    await charge(code, 'refunded', 'CARD', '3000');
    await charge(code, 'yape', 'YAPE', '4500');
    await charge(code, 'bank', 'BANK_TRANSFER', '9900');
  }
  // The bank transfer is paid on its payer page: settled, yet its method takes no refunds.
  for (const key of ['A-bank', 'B-bank']) {
    const { payerToken } = await prisma.transaction.findUniqueOrThrow({ where: { id: tx[key]! } });
    expect((await payPayment(prisma, payerToken!)).kind).toBe('moved');
  }
  expect(await settleAuthorized(prisma, new Date())).toBe(10);
  await charge('A', 'authorized', 'CARD', '5000');
  await charge('A', 'qr', 'QR', '2500');
  await caller(as('MERCHANT_ADMIN', 'A')).console.refund({ transactionId: tx['A-refunded']!, additional_fields: fields });
  await caller(as('PLATFORM_ADMIN')).console.refund({ transactionId: tx['B-refunded']!, additional_fields: fields });
}, SETUP_TIMEOUT);

afterAll(() => database?.close());

describe('console.refundableTransactions', () => {
  it('lists only settled, refundable, not yet refunded transactions of the merchant', async () => {
    for (const role of ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const) {
      const list = await caller(as(role, 'A')).console.refundableTransactions({});
      expect(list.merchant).toEqual({ code: 'SHOPA', name: 'Shop A' });
      expect(list.rows.map((row) => row.merchantOperationNumber).sort()).toEqual(['A-card1', 'A-card2', 'A-yape']);
      expect(list.more).toBe(false);
    }
    const searched = await caller(as('MERCHANT_ADMIN', 'A')).console.refundableTransactions({ search: 'A-card' });
    expect(searched.rows.map((row) => [row.merchantOperationNumber, row.amount, row.method]).sort()).toEqual([
      ['A-card1', '15000', 'CARD'],
      ['A-card2', '2000', 'CARD'],
    ]);
  });

  it('answers not found when a merchant user names another merchant, and makes platform staff choose one', async () => {
    expect(
      await refusal(() => caller(as('MERCHANT_VIEWER', 'A')).console.refundableTransactions({ merchantCode: 'SHOPB' })),
    ).toBe('NOT_FOUND');
    for (const role of ['SUPPORT', 'PLATFORM_ADMIN'] as const) {
      expect(await refusal(() => caller(as(role)).console.refundableTransactions({}))).toBe('VALIDATION');
      expect(await refusal(() => caller(as(role)).console.refundableTransactions({ merchantCode: 'NOPE' }))).toBe('NOT_FOUND');
      const list = await caller(as(role)).console.refundableTransactions({ merchantCode: 'SHOPB' });
      expect(list.rows.map((row) => row.merchantOperationNumber).sort()).toEqual(['B-card1', 'B-card2', 'B-yape']);
    }
    expect(await refusal(() => caller().console.refundableTransactions({ merchantCode: 'SHOPA' }))).toBe('UNAUTHENTICATED');
  });
});

describe('console.refundBatch', () => {
  const item = (key: string, reason = 'cliente') => ({
    transactionId: tx[key] ?? key,
    additional_fields: { ...fields, reason },
  });

  it('is refused to signed-out users, viewers and support, and nothing is filed', async () => {
    const batch = { merchantCode: 'SHOPA', items: [item('A-card1')] };
    expect(await refusal(() => caller().console.refundBatch(batch))).toBe('UNAUTHENTICATED');
    expect(await refusal(() => caller(as('MERCHANT_VIEWER', 'A')).console.refundBatch(batch))).toBe('FORBIDDEN');
    expect(await refusal(() => caller(as('SUPPORT')).console.refundBatch(batch))).toBe('FORBIDDEN');
    expect(await refundsOf('A-card1')).toEqual([]);
  });

  it('keeps a merchant admin to its merchant and makes a platform admin choose one', async () => {
    expect(
      await refusal(() =>
        caller(as('MERCHANT_ADMIN', 'A')).console.refundBatch({ merchantCode: 'SHOPB', items: [item('B-card1')] }),
      ),
    ).toBe('NOT_FOUND');
    expect(await refusal(() => caller(as('PLATFORM_ADMIN')).console.refundBatch({ items: [item('A-card1')] }))).toBe(
      'VALIDATION',
    );
    // Another merchant's transaction in one's own batch is simply not found.
    const outcome = await caller(as('MERCHANT_ADMIN', 'A')).console.refundBatch({ items: [item('B-card1')] });
    expect(outcome).toEqual({
      filed: false,
      merchantCode: 'SHOPA',
      items: [{ transactionId: tx['B-card1'], refusal: { reason: 'not_found', detail: null } }],
    });
    expect(await refundsOf('B-card1')).toEqual([]);
  });

  it('holds 1 to 50 items, with a reason for each', async () => {
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    expect(await refusal(() => admin.console.refundBatch({ items: [] }))).toBe('VALIDATION');
    expect(await refusal(() => admin.console.refundBatch({ items: Array.from({ length: 51 }, () => item('A-card1')) }))).toBe(
      'VALIDATION',
    );
    expect(await refusal(() => admin.console.refundBatch({ items: [item('A-card1', '')] }))).toBe('VALIDATION');
  });

  it('refuses the whole batch when one item is ineligible, saying why for each, and files nothing', async () => {
    const outcome = await caller(as('MERCHANT_ADMIN', 'A')).console.refundBatch({
      items: [
        item('A-card1'),
        item('A-authorized'),
        item('A-refunded'),
        item('A-bank'),
        item('A-qr'),
        item('not-a-uuid'),
        item('00000000-0000-4000-8000-000000000000'),
        item('A-card2'),
        item('A-card2'),
      ],
    });
    expect(outcome.filed).toBe(false);
    expect(outcome.items.map((entry) => [entry.transactionId, 'refusal' in entry ? entry.refusal : 'filed'])).toEqual([
      [tx['A-card1'], null],
      [tx['A-authorized'], { reason: 'not_settled', detail: 'AUTORIZADO' }],
      [tx['A-refunded'], { reason: 'already_refunded', detail: null }],
      [tx['A-bank'], { reason: 'method_not_refundable', detail: 'BANK_TRANSFER' }],
      [tx['A-qr'], { reason: 'method_not_refundable', detail: 'QR' }],
      ['not-a-uuid', { reason: 'not_found', detail: null }],
      ['00000000-0000-4000-8000-000000000000', { reason: 'not_found', detail: null }],
      [tx['A-card2'], null],
      [tx['A-card2'], { reason: 'repeated_in_batch', detail: null }],
    ]);
    for (const key of ['A-card1', 'A-card2', 'A-authorized', 'A-bank', 'A-qr']) expect(await refundsOf(key)).toEqual([]);
    expect(await refundsOf('A-refunded')).toEqual([{ state: 'REGISTERED' }]);
  });

  it('files every item of an eligible batch, each with its own reason, as POST /refund would', async () => {
    const outcome = await caller(as('MERCHANT_ADMIN', 'A')).console.refundBatch({
      merchantCode: 'SHOPA',
      items: [item('A-card1', 'talla'), item('A-yape', 'no llegó')],
    });
    if (!outcome.filed) throw new Error('the batch was refused');
    expect(
      outcome.items.map(({ transactionId, refund }) => [
        transactionId,
        refund.state,
        refund.refund_amount,
        refund.merchant_operation_number,
        refund.additional_fields.reason,
        refund.lifecycle.map((entry) => entry.state),
      ]),
    ).toEqual([
      [tx['A-card1'], 'REGISTERED', '15000', 'A-card1', 'talla', ['REGISTERED']],
      [tx['A-yape'], 'REGISTERED', '4500', 'A-yape', 'no llegó', ['REGISTERED']],
    ]);
    const events = await prisma.outboxEvent.findMany({ where: { aggregateId: outcome.items[0]!.refund.refund_id } });
    expect(events.map((event) => event.type)).toEqual(['refund.registered']);
    const left = await caller(as('MERCHANT_ADMIN', 'A')).console.refundableTransactions({});
    expect(left.rows.map((row) => row.merchantOperationNumber)).toEqual(['A-card2']);
  });

  it('lets a platform admin file for the merchant it chose', async () => {
    const outcome = await caller(as('PLATFORM_ADMIN')).console.refundBatch({ merchantCode: 'SHOPB', items: [item('B-card2')] });
    expect(outcome.filed).toBe(true);
    expect(await refundsOf('B-card2')).toEqual([{ state: 'REGISTERED' }]);
  });
});

describe('console.refund (one transaction, the batch path)', () => {
  it('answers not found for a text that is no id and for another merchant, and refuses read-only roles', async () => {
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    expect(await refusal(() => admin.console.refund({ transactionId: 'abc', additional_fields: fields }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.console.cancel({ transactionId: 'abc' }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.console.refund({ transactionId: tx['B-card1']!, additional_fields: fields }))).toBe(
      'NOT_FOUND',
    );
    expect(
      await refusal(() =>
        caller(as('MERCHANT_VIEWER', 'A')).console.refund({ transactionId: tx['A-card2']!, additional_fields: fields }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await refusal(() => caller(as('SUPPORT')).console.refund({ transactionId: tx['A-card2']!, additional_fields: fields })),
    ).toBe('FORBIDDEN');
    expect(await refusal(() => admin.console.refund({ transactionId: tx['A-bank']!, additional_fields: fields }))).toBe(
      'METHOD_RULE',
    );
    expect(await refundsOf('A-card2')).toEqual([]);
  });
});

describe('console.refundDetail', () => {
  it('shows the refund, its lifecycle, the transaction it refunds, the merchant and its callbacks', async () => {
    const [refund] = await prisma.refund.findMany({ where: { transactionId: tx['A-yape']! } });
    await processRefunds(prisma, 0);
    await processRefunds(prisma, 0);
    for (const session of [as('MERCHANT_VIEWER', 'A'), as('MERCHANT_ADMIN', 'A'), as('SUPPORT'), as('PLATFORM_ADMIN')]) {
      const detail = await caller(session).console.refundDetail({ refundId: refund!.id.toUpperCase() });
      expect(detail.refund.refund_id).toBe(refund!.id);
      expect(detail.refund.lifecycle.map((entry) => entry.state)).toEqual(['REGISTERED', 'IN_PROCESS', 'RESOLVED']);
      expect([detail.refund.state, detail.refund.refund_reason]).toEqual(['RESOLVED', 'Reembolso realizado']);
      expect(detail.merchant).toEqual({ code: 'SHOPA', name: 'Shop A' });
      expect([detail.transaction.transaction_id, detail.transaction.state, detail.transaction.amount]).toEqual([
        tx['A-yape'],
        'LIQUIDADO',
        '4500',
      ]);
      expect(detail.transaction.payment_method.method_name).toBe('YAPE');
      expect(detail.events.map((event) => [event.type, event.callbackUrl])).toEqual([
        ['refund.registered', 'https://shop.example/hooks'],
        ['refund.in_process', 'https://shop.example/hooks'],
        ['refund.resolved', 'https://shop.example/hooks'],
      ]);
    }
  });

  it("answers not found for another merchant's refund, an unknown id and a text that is no id", async () => {
    const [other] = await prisma.refund.findMany({ where: { transactionId: tx['B-refunded']! } });
    for (const role of ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const) {
      expect(await refusal(() => caller(as(role, 'A')).console.refundDetail({ refundId: other!.id }))).toBe('NOT_FOUND');
    }
    for (const refundId of ['00000000-0000-4000-8000-000000000000', 'x', "1' OR '1'='1"]) {
      expect(await refusal(() => caller(as('PLATFORM_ADMIN')).console.refundDetail({ refundId }))).toBe('NOT_FOUND');
    }
    expect(await refusal(() => caller().console.refundDetail({ refundId: other!.id }))).toBe('UNAUTHENTICATED');
    expect((await caller(as('SUPPORT')).console.refundDetail({ refundId: other!.id })).merchant.code).toBe('SHOPB');
  });
});

describe('console.platform.settleNow of named transactions (what the console suite settles)', () => {
  it('settles only the transactions named', async () => {
    await charge('B', 'late1', 'CARD');
    await charge('B', 'late2', 'CARD');
    const settled = await caller(as('PLATFORM_ADMIN')).console.platform.settleNow({ transactionIds: [tx['B-late1']!] });
    expect(settled).toEqual({ settled: 1 });
    const states = await prisma.transaction.findMany({
      where: { id: { in: [tx['B-late1']!, tx['B-late2']!] } },
      select: { id: true, state: true },
    });
    expect(Object.fromEntries(states.map((row) => [row.id, row.state]))).toEqual({
      [tx['B-late1']!]: 'LIQUIDADO',
      [tx['B-late2']!]: 'AUTORIZADO',
    });
  });
});
