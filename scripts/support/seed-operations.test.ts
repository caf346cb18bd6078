import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import type { DatabaseHandle } from '@/server/platform/db/adapter';
import { openMigratedPglite } from '@tests/support/procedure-test-support';
import { listRefunds } from '@/server/modules/refunds/list-refunds';
import { operationDetail } from '@/server/modules/console/operation-detail';
import { lifecycleProblems, refundProblems } from '../../tests/support/seed-checks';
import { seedOperations } from './seed-operations';

// Seeded rows must be rows the service itself could have written: states reached by allowed
// moves, lifecycles that end in the stored state, refunds only of settled refundable payments.
let handle: DatabaseHandle;
let prisma: PrismaClient;
let merchantId: string;
const COUNT = 3000;

beforeAll(async () => {
  handle = await openMigratedPglite();
  prisma = new PrismaClient({ adapter: handle.factory });
  merchantId = (await prisma.merchant.create({ data: { code: 'SEEDED', name: 'Seeded' } })).id;
  await seedOperations(prisma, { merchantIds: [merchantId], count: COUNT, prefix: 'S-', batchSize: 1000 });
}, 120_000);

afterAll(async () => {
  await prisma.$disconnect();
  await handle.close();
});

describe('seedOperations', () => {
  it('writes one operation and one transaction per number, with the method mix', async () => {
    expect(await prisma.operation.count({ where: { merchantId } })).toBe(COUNT);
    expect(await prisma.transaction.count({ where: { merchantId, attempt: 1 } })).toBe(COUNT);
    const numbers = await prisma.operation.findMany({ where: { merchantId }, select: { merchantOperationNumber: true } });
    expect(new Set(numbers.map((row) => row.merchantOperationNumber))).toStrictEqual(
      new Set(Array.from({ length: COUNT }, (_, index) => `S-${index + 1}`)),
    );
    const methods = await prisma.transaction.groupBy({ by: ['method'], where: { merchantId }, _count: true });
    expect(methods.map((row) => row.method).sort()).toStrictEqual(
      ['BANK_TRANSFER', 'CARD', 'CUOTEALO', 'PAGOEFECTIVO', 'QR', 'YAPE'].sort(),
    );
  });

  it('gives every transaction a lifecycle of allowed moves ending in its state', async () => {
    expect(await lifecycleProblems(prisma, [merchantId])).toEqual([]);
  });

  it('refunds only settled payments of refundable methods, one live refund each, with allowed moves', async () => {
    expect(await prisma.refund.count({ where: { merchantId } })).toBeGreaterThan(0);
    expect(await refundProblems(prisma, [merchantId])).toEqual([]);
  });

  it('reads back through the services the console and the API use', async () => {
    const refunded = await prisma.refund.findFirstOrThrow({ where: { merchantId }, select: { transactionId: true } });
    const detail = await operationDetail(prisma, { kind: 'one', merchantId }, refunded.transactionId);
    expect(detail.refunds).toHaveLength(1);
    expect(detail.transactions[0]!.state).toBe('LIQUIDADO');
    const page = await listRefunds(prisma, { merchantIds: [merchantId], merchantCode: 'SEEDED' }, { limit: '10' });
    expect(Number(page.operations_count)).toBe(await prisma.refund.count({ where: { merchantId } }));
    expect(page.operations).toHaveLength(10);
  });

  it('writes nothing of a batch whose numbers already exist', async () => {
    await expect(seedOperations(prisma, { merchantIds: [merchantId], count: 10, prefix: 'S-' })).rejects.toThrow();
    expect(await prisma.operation.count({ where: { merchantId } })).toBe(COUNT);
    expect(await prisma.transaction.count({ where: { merchantId } })).toBe(COUNT);
  });
});
