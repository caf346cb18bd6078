import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { chargeRequest, openTestDatabase, sessionAs, SETUP_TIMEOUT, testMerchant } from '@tests/support/procedure-test-support';

// console.overview and console.refunds (the refund search) only count and show the user's
// merchant, whatever merchant the request names; support and platform admins see every one.
// A: one approved card (refunded) and one pending QR. B: two approved cards (one refunded), a
// declined card and two pending QRs.
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let prisma: PrismaClient;
const ids: Record<string, string> = {};

const caller = (session?: ConsoleSession) => database.caller(session);
const as = (role: ConsoleSession['role'], merchant?: 'A' | 'B') => sessionAs(role, merchant ? ids[merchant]! : null);
const DECLINED_PAN = '4000000000000002';

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.prisma;
  const charges = {
    A: [
      ['card', 'CARD'],
      ['qr', 'QR'],
    ],
    B: [
      ['card1', 'CARD'],
      ['card2', 'CARD'],
      ['declined', 'CARD'],
      ['qr1', 'QR'],
      ['qr2', 'QR'],
    ],
  } as const;
  for (const code of ['A', 'B'] as const) {
    const merchant = await testMerchant(prisma, `SHOP${code}`);
    ids[code] = merchant.id;
    for (const [name, method] of charges[code]) {
      const pan = name === 'declined' ? DECLINED_PAN : undefined;
      const answer = await authorizeCharge(prisma, merchant, chargeRequest(merchant.code, `${code}-${name}`, method, { pan }));
      ids[`${code}-${name}`] = answer.transaction.transaction_id;
    }
  }
  await settleAuthorized(prisma, new Date(), { transactionIds: [ids['A-card']!, ids['B-card1']!] });
  const fields = { canal: 'console', reason: 'cliente', description: '' };
  await caller(as('MERCHANT_ADMIN', 'A')).console.refund({ transactionId: ids['A-card']!, additional_fields: fields });
  await caller(as('MERCHANT_ADMIN', 'B')).console.refund({ transactionId: ids['B-card1']!, additional_fields: fields });
}, SETUP_TIMEOUT);

afterAll(() => database?.close());

type Overview = Awaited<ReturnType<ReturnType<typeof caller>['console']['overview']>>;

/**
 * The overview's figures of its 30-day window (the test's payments fall in it even when the
 * business day turns during the run): operations, approval rate, approved volume, pending, refunds.
 */
function figures(overview: Overview) {
  const month = overview.windows.find((window) => window.window === '30d')!;
  return {
    count: month.count,
    approved: month.approved,
    declined: month.declined,
    approvalRate: month.approvalRate,
    volumes: month.volumes,
    uncaptured: month.uncaptured,
    pending: overview.pending,
    refunds: overview.refunds,
    methods: overview.methods,
  };
}

/** console.overview with an input it has no field for, as a script could send it over HTTP. */
const overviewNaming = (session: ConsoleSession, merchantCode: string) =>
  (caller(session).console.overview as unknown as (input: unknown) => Promise<Overview>)({ merchantCode });

const figuresOf = {
  A: {
    count: 2,
    approved: 1,
    declined: 0,
    approvalRate: 1,
    volumes: [{ currency: '604', cents: '15000' }],
    uncaptured: [],
    pending: 1,
    refunds: { resolved: { count: 0, amounts: [] }, inProcess: { count: 1, amounts: [{ currency: '604', cents: '15000' }] } },
    methods: ['CARD', 'QR'],
  },
  B: {
    count: 5,
    approved: 2,
    declined: 1,
    approvalRate: 2 / 3,
    volumes: [{ currency: '604', cents: '30000' }],
    uncaptured: [],
    pending: 2,
    refunds: { resolved: { count: 0, amounts: [] }, inProcess: { count: 1, amounts: [{ currency: '604', cents: '15000' }] } },
    methods: ['CARD', 'QR'],
  },
  all: {
    count: 7,
    approved: 3,
    declined: 1,
    approvalRate: 3 / 4,
    volumes: [{ currency: '604', cents: '45000' }],
    uncaptured: [],
    pending: 3,
    refunds: { resolved: { count: 0, amounts: [] }, inProcess: { count: 2, amounts: [{ currency: '604', cents: '30000' }] } },
    methods: ['CARD', 'QR'],
  },
};

describe('console.overview', () => {
  it("counts only a merchant user's merchant, even when the request names another", async () => {
    for (const role of ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const) {
      expect(figures(await caller(as(role, 'A')).console.overview())).toEqual(figuresOf.A);
      expect(figures(await overviewNaming(as(role, 'A'), 'SHOPB'))).toEqual(figuresOf.A);
      expect(figures(await caller(as(role, 'B')).console.overview())).toEqual(figuresOf.B);
    }
  });

  it('counts every merchant for support and platform admins', async () => {
    for (const role of ['SUPPORT', 'PLATFORM_ADMIN'] as const) {
      expect(figures(await caller(as(role)).console.overview())).toEqual(figuresOf.all);
    }
  });

  it("draws a merchant's charts from its own payments only", async () => {
    const a = await caller(as('MERCHANT_VIEWER', 'A')).console.overview();
    const all = await caller(as('SUPPORT')).console.overview();
    // Soles per method over the 30 days, and the days with a decided payment at their rate.
    const charted = (overview: Overview) => ({
      volume: Object.fromEntries(
        overview.methods.map((method) => [
          method,
          overview.volumeByDay.reduce((sum, day) => sum + Number((day as Record<string, unknown>)[method] ?? 0), 0),
        ]),
      ),
      rates: overview.approvalByDay.flatMap((day) => (day.rate === null ? [] : [day.rate])),
    });
    expect(charted(a)).toEqual({ volume: { CARD: 150, QR: 0 }, rates: [100] });
    expect(charted(all)).toEqual({ volume: { CARD: 450, QR: 0 }, rates: [75] });
  });
});

describe('console.refunds (the refund search)', () => {
  const numbers = (answer: { operations: { merchant_operation_number: string }[] }) =>
    answer.operations.map((refund) => refund.merchant_operation_number).sort();

  it("shows a merchant user only its merchant's refunds, even when it names another merchant or operation", async () => {
    for (const role of ['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const) {
      const procedures = caller(as(role, 'A')).console;
      const own = await procedures.refunds({});
      expect([own.merchant_code, own.operations_count, numbers(own)]).toEqual(['SHOPA', '1', ['A-card']]);
      const named = await procedures.refunds({ merchant_code: 'SHOPB' });
      expect([named.operations_count, named.operations, named.next_cursor]).toEqual(['0', [], null]);
      const byNumber = await procedures.refunds({ merchant_operation_number: 'B-card1' });
      expect([byNumber.operations_count, byNumber.operations]).toEqual(['0', []]);
      const byTransaction = await procedures.refunds({ transaction_id: ids['B-card1']! });
      expect([byTransaction.operations_count, byTransaction.operations]).toEqual(['0', []]);
    }
  });

  it('shows support and platform admins every merchant, or the one they name', async () => {
    for (const role of ['SUPPORT', 'PLATFORM_ADMIN'] as const) {
      const procedures = caller(as(role)).console;
      const all = await procedures.refunds({});
      expect([all.operations_count, numbers(all)]).toEqual(['2', ['A-card', 'B-card1']]);
      const named = await procedures.refunds({ merchant_code: 'SHOPB' });
      expect([named.merchant_code, named.operations_count, numbers(named)]).toEqual(['SHOPB', '1', ['B-card1']]);
    }
  });
});
