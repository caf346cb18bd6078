import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession } from '@/server/modules/access/console-session';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import {
  chargeRequest,
  openTestDatabase,
  refusal,
  sessionAs,
  SETUP_TIMEOUT,
  testMerchant,
} from '@tests/support/procedure-test-support';

// Every console role rule, at the procedure level (the pages only hide what a role cannot do).
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let prisma: PrismaClient;
const ids: Record<string, string> = {};

const caller = (session?: ConsoleSession) => database.caller(session);
const as = (role: ConsoleSession['role'], merchant?: 'A' | 'B') => sessionAs(role, merchant ? ids[merchant]! : null);

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.prisma;
  for (const code of ['A', 'B']) {
    const acting = await testMerchant(prisma, `SHOP${code}`);
    ids[code] = acting.id;
    const card = await authorizeCharge(prisma, acting, chargeRequest(acting.code, `${code}-card`, 'CARD'));
    const qr = await authorizeCharge(prisma, acting, chargeRequest(acting.code, `${code}-qr`, 'QR'));
    ids[`${code}-card`] = card.transaction.transaction_id;
    ids[`${code}-qr`] = qr.transaction.transaction_id;
  }
}, SETUP_TIMEOUT);

afterAll(() => database.close());

describe('console procedures by role', () => {
  it('refuse anyone not signed in', async () => {
    expect(await refusal(() => caller().console.operations({}))).toBe('UNAUTHENTICATED');
    expect(await refusal(() => caller().console.operation({ transactionId: ids['A-card']! }))).toBe('UNAUTHENTICATED');
  });

  it("refuse the operator's procedures to anyone not signed in (401) and to other roles (403)", async () => {
    expect(await refusal(() => caller().admin.listCredentials({}))).toBe('UNAUTHENTICATED');
    expect(await refusal(() => caller(as('SUPPORT')).admin.listCredentials({}))).toBe('FORBIDDEN');
    expect(await refusal(() => caller(as('PLATFORM_ADMIN')).admin.listCredentials({}))).toBe('allowed');
  });

  it('show a merchant user only its merchant', async () => {
    const rows = (await caller(as('MERCHANT_VIEWER', 'A')).console.operations({})).rows;
    expect(rows.map((row) => row.merchantOperationNumber).sort()).toEqual(['A-card', 'A-qr']);
    expect(await refusal(() => caller(as('MERCHANT_ADMIN', 'A')).console.operation({ transactionId: ids['B-card']! }))).toBe(
      'NOT_FOUND',
    );
    expect(await refusal(() => caller(as('MERCHANT_ADMIN', 'A')).console.cancel({ transactionId: ids['B-qr']! }))).toBe(
      'NOT_FOUND',
    );
    expect((await prisma.transaction.findUniqueOrThrow({ where: { id: ids['B-qr']! } })).state).toBe('PENDIENTE');
  });

  it('show support and platform admins every merchant', async () => {
    for (const role of ['SUPPORT', 'PLATFORM_ADMIN'] as const) {
      const rows = (await caller(as(role)).console.operations({})).rows;
      expect(rows.map((row) => row.merchantCode).sort()).toEqual(['SHOPA', 'SHOPA', 'SHOPB', 'SHOPB']);
    }
  });

  it('let only admins act: viewer and support are read-only, and nothing changes', async () => {
    expect(await refusal(() => caller(as('MERCHANT_VIEWER', 'A')).console.cancel({ transactionId: ids['A-qr']! }))).toBe(
      'FORBIDDEN',
    );
    expect(await refusal(() => caller(as('SUPPORT')).console.cancel({ transactionId: ids['A-qr']! }))).toBe('FORBIDDEN');
    expect(
      await refusal(() =>
        caller(as('SUPPORT')).console.refund({
          transactionId: ids['A-card']!,
          additional_fields: { canal: 'console', reason: 'x', description: '' },
        }),
      ),
    ).toBe('FORBIDDEN');
    expect((await prisma.transaction.findUniqueOrThrow({ where: { id: ids['A-qr']! } })).state).toBe('PENDIENTE');
    expect(await prisma.refund.count()).toBe(0);
  });

  it('cancel and reverse with the API rules: a merchant admin its own, a platform admin any', async () => {
    const cancelled = await caller(as('MERCHANT_ADMIN', 'A')).console.cancel({ transactionId: ids['A-qr']! });
    expect(cancelled.operation.state).toBe('CANCELADO');
    const reversed = await caller(as('PLATFORM_ADMIN')).console.cancel({ transactionId: ids['B-card']! });
    expect(reversed.operation.state).toBe('EXTORNADO');
    const lifecycle = await prisma.lifecycleEntry.findMany({ where: { transactionId: ids['B-card']! }, orderBy: { id: 'asc' } });
    expect(lifecycle.map((entry) => entry.state)).toEqual(['REGISTRADO', 'PENDIENTE', 'AUTORIZADO', 'EXTORNADO']);
    expect(await refusal(() => caller(as('PLATFORM_ADMIN')).console.cancel({ transactionId: ids['B-card']! }))).toBe('allowed');
  });

  it('file a refund only for an eligible transaction, as the API would', async () => {
    const admin = caller(as('MERCHANT_ADMIN', 'A'));
    const fields = { canal: 'console', reason: 'cliente', description: 'talla' };
    expect(await refusal(() => admin.console.refund({ transactionId: ids['A-card']!, additional_fields: fields }))).toBe(
      'STATE_CONFLICT',
    );
    await settleAuthorized(prisma, new Date());
    const detail = await admin.console.operation({ transactionId: ids['A-card']! });
    expect(detail.transactions.map((row) => [row.state, row.refundable])).toEqual([['LIQUIDADO', true]]);
    const filed = await admin.console.refund({ transactionId: ids['A-card']!, additional_fields: fields });
    expect(filed.operations.map((refund) => [refund.state, refund.refund_amount])).toEqual([['REGISTERED', '15000']]);
    expect(await refusal(() => admin.console.refund({ transactionId: ids['A-card']!, additional_fields: fields }))).toBe(
      'STATE_CONFLICT',
    );
  });

  it('keep platform administration to platform admins', async () => {
    expect(await refusal(() => caller(as('MERCHANT_ADMIN', 'A')).admin.listCredentials({}))).toBe('FORBIDDEN');
    expect(await refusal(() => caller(as('SUPPORT')).console.platform.settleNow({}))).toBe('FORBIDDEN');
    expect(await refusal(() => caller(as('PLATFORM_ADMIN')).admin.listCredentials({}))).toBe('allowed');
  });
});

describe('console operations table', () => {
  it('filters by state and method, searches by number, last four, email and id, and pages', async () => {
    const support = caller(as('SUPPORT'));
    const numbers = async (input: Parameters<typeof support.console.operations>[0]) =>
      (await support.console.operations(input)).rows.map((row) => row.merchantOperationNumber).sort();
    expect(await numbers({ method: 'QR' })).toEqual(['A-qr', 'B-qr']);
    expect(await numbers({ search: 'B-' })).toEqual(['B-card', 'B-qr']);
    expect(await numbers({ search: '1111' })).toEqual(['A-card', 'B-card']);
    expect(await numbers({ search: 'ANA.QUISPE@' })).toEqual(['A-card', 'A-qr', 'B-card', 'B-qr']);
    expect(await numbers({ search: ids['B-qr']! })).toEqual(['B-qr']);
    expect(await numbers({ minAmount: '10000' })).toEqual(['A-card', 'B-card']);
    expect(await numbers({ merchantCode: 'SHOPB', state: 'EXTORNADO' })).toEqual(['B-card']);
    const first = await support.console.operations({ limit: 3, sort: 'amount_asc' });
    const second = await support.console.operations({ limit: 3, sort: 'amount_asc', cursor: first.nextCursor! });
    expect(first.rows.map((row) => row.amount)).toEqual(['2500', '2500', '15000']);
    expect(second.rows.map((row) => row.amount)).toEqual(['15000']);
    expect(second.nextCursor).toBeNull();
  });
});
