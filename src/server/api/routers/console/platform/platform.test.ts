import { toActingMerchant } from '@/server/modules/access/acting-merchant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@/generated/prisma/client';
import type { ConsoleSession, Role } from '@/server/modules/access/console-session';
import { authorizeCharge } from '@/server/modules/charges/authorize-charge';
import { chargeRequest, openTestDatabase, refusal, SETUP_TIMEOUT } from '@tests/support/procedure-test-support';

// Every role rule of console.platform.*: platform staff read, only platform admins change.
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let prisma: PrismaClient;
let merchantId = '';

const as = (role: Role) => {
  const session: ConsoleSession = {
    userId: null,
    email: `${role.toLowerCase()}@test.pe`,
    role,
    merchantId: role.startsWith('MERCHANT') ? merchantId : null,
  };
  return database.caller(session).console.platform;
};

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.prisma;
  const merchant = await prisma.merchant.create({ data: { code: 'PLATA', name: 'Bodega Plata' } });
  merchantId = merchant.id;
  const acting = toActingMerchant(merchant);
  await authorizeCharge(prisma, acting, chargeRequest('PLATA', 'card-1', 'CARD'));
  await authorizeCharge(prisma, acting, chargeRequest('PLATA', 'card-2', 'CARD'));
  await authorizeCharge(prisma, acting, chargeRequest('PLATA', 'qr-1', 'QR'));
}, SETUP_TIMEOUT);

afterAll(() => database.close());

const counts = async () => ({
  merchants: await prisma.merchant.count(),
  facilitators: await prisma.facilitator.count(),
  linked: await prisma.merchant.count({ where: { facilitatorId: { not: null } } }),
  authorized: await prisma.transaction.count({ where: { state: 'AUTORIZADO' } }),
});

const changes = (platform: ReturnType<typeof as>) => [
  () => platform.createMerchant({ code: 'NEWM', name: 'New' }),
  () => platform.createFacilitator({ code: 'NEWF', name: 'New' }),
  () => platform.linkMerchant({ facilitatorCode: 'NEWF', merchantCode: 'PLATA' }),
  () => platform.unlinkMerchant({ merchantCode: 'PLATA' }),
  () => platform.settleNow({}),
  () => platform.settleNow({ merchantCode: 'PLATA' }),
];

describe('platform procedures by role', () => {
  it('refuse anyone not signed in', async () => {
    expect(await refusal(() => database.caller().console.platform.merchants({}))).toBe('UNAUTHENTICATED');
    expect(await refusal(() => database.caller().console.platform.settleNow({}))).toBe('UNAUTHENTICATED');
  });

  it.each(['MERCHANT_ADMIN', 'MERCHANT_VIEWER'] as const)('refuse %s every read and change', async (role) => {
    const before = await counts();
    const platform = as(role);
    for (const read of [() => platform.merchants({}), () => platform.facilitators(), () => platform.awaitingSettlement({})]) {
      expect(await refusal(read)).toBe('FORBIDDEN');
    }
    for (const change of changes(platform)) expect(await refusal(change)).toBe('FORBIDDEN');
    expect(await counts()).toEqual(before);
  });

  it('let support read everything and change nothing', async () => {
    const before = await counts();
    const support = as('SUPPORT');
    expect((await support.merchants({})).rows.map((row) => row.code)).toEqual(['PLATA']);
    expect(await support.facilitators()).toEqual([]);
    expect(await support.awaitingSettlement({})).toBe(2);
    for (const change of changes(support)) expect(await refusal(change)).toBe('FORBIDDEN');
    expect(await counts()).toEqual(before);
  });
});

describe('a platform admin', () => {
  it('creates merchants and facilitators, refusing duplicates and bad codes', async () => {
    const admin = as('PLATFORM_ADMIN');
    expect(await admin.createFacilitator({ code: 'FAC1', name: 'Pasarela Uno' })).toMatchObject({ code: 'FAC1' });
    expect(await admin.createMerchant({ code: 'PLATB', name: 'Tienda <b>Bella</b>' })).toMatchObject({ code: 'PLATB' });
    expect(await admin.createMerchant({ code: 'PLATC', name: 'Café', facilitatorCode: 'FAC1' })).toMatchObject({ code: 'PLATC' });
    expect(await refusal(() => admin.createMerchant({ code: 'PLATB', name: 'Again' }))).toBe('CONFLICT');
    expect(await refusal(() => admin.createFacilitator({ code: 'FAC1', name: 'Again' }))).toBe('CONFLICT');
    expect(await refusal(() => admin.createMerchant({ code: 'bad code!', name: 'x' }))).toBe('VALIDATION');
    expect(await refusal(() => admin.createMerchant({ code: 'PLATD', name: ' ' }))).toBe('VALIDATION');
    expect(await refusal(() => admin.createMerchant({ code: 'PLATD', name: 'x', facilitatorCode: 'NOFAC' }))).toBe('NOT_FOUND');
  });

  it('searches merchants by code or name, case-insensitively', async () => {
    const admin = as('PLATFORM_ADMIN');
    expect((await admin.merchants({ search: 'bella' })).rows.map((row) => row.code)).toEqual(['PLATB']);
    expect((await admin.merchants({ search: 'plat' })).rows.map((row) => row.code).sort()).toEqual(['PLATA', 'PLATB', 'PLATC']);
    const [row] = (await admin.merchants({ search: 'PLATC' })).rows;
    expect([row?.facilitatorCode, row?.enabledMethods.length]).toEqual(['FAC1', 6]);
    expect((await admin.merchants({ search: 'nothing-like-it' })).rows).toEqual([]);
  });

  it('links and unlinks a merchant', async () => {
    const admin = as('PLATFORM_ADMIN');
    await admin.linkMerchant({ facilitatorCode: 'FAC1', merchantCode: 'PLATB' });
    expect((await admin.facilitators()).map((row) => [row.code, row.merchantCodes])).toEqual([['FAC1', ['PLATB', 'PLATC']]]);
    await admin.unlinkMerchant({ merchantCode: 'PLATC' });
    expect((await admin.facilitators())[0]!.merchantCodes).toEqual(['PLATB']);
    expect(await refusal(() => admin.linkMerchant({ facilitatorCode: 'NOFAC', merchantCode: 'PLATB' }))).toBe('NOT_FOUND');
    expect(await refusal(() => admin.unlinkMerchant({ merchantCode: 'NOPE' }))).toBe('NOT_FOUND');
  });

  it("runs one merchant's settlement cut-off, leaving the others' payments as they are", async () => {
    const admin = as('PLATFORM_ADMIN');
    const other = await prisma.merchant.findUniqueOrThrow({ where: { code: 'PLATB' } });
    await authorizeCharge(prisma, toActingMerchant(other), chargeRequest('PLATB', 'card-b', 'CARD'));
    expect(await admin.awaitingSettlement({ merchantCode: 'PLATB' })).toBe(1);
    expect(await admin.settleNow({ merchantCode: 'PLATB' })).toEqual({ settled: 1 });
    expect(await prisma.transaction.count({ where: { merchantId: other.id, state: 'LIQUIDADO' } })).toBe(1);
    expect(await admin.awaitingSettlement({})).toBe(2);
    expect(await refusal(() => admin.settleNow({ merchantCode: 'NOPE' }))).toBe('NOT_FOUND');
  });

  it('runs the settlement cut-off: every AUTORIZADO transaction becomes LIQUIDADO', async () => {
    const admin = as('PLATFORM_ADMIN');
    expect(await admin.settleNow({})).toEqual({ settled: 2 });
    const states = await prisma.transaction.findMany({
      where: { merchantId },
      orderBy: { method: 'asc' },
      select: { method: true, state: true },
    });
    expect(states).toEqual([
      { method: 'CARD', state: 'LIQUIDADO' },
      { method: 'CARD', state: 'LIQUIDADO' },
      { method: 'QR', state: 'PENDIENTE' },
    ]);
    expect(await admin.awaitingSettlement({})).toBe(0);
    expect(await admin.settleNow({})).toEqual({ settled: 0 });
  });
});
