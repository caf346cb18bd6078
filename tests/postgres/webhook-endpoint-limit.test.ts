import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openedDatabase, type Db } from '@/server/platform/db/client';
import { toAppError } from '@/server/api/errors/to-app-error';
import { createEndpoint, MAX_ENDPOINTS } from '@/server/modules/events/webhooks/webhook-endpoints';

// The endpoint limit under concurrent creates on PostgreSQL (PGlite serialises every transaction
// and would hide the race): a count read before another create commits must not let both in.
if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL must name a PostgreSQL database');

let prisma: Db;

beforeAll(async () => {
  prisma = (await openedDatabase()).prisma;
});

afterAll(async () => {
  await closeDatabase();
});

describe('webhook endpoint limit', () => {
  it(`keeps a merchant at ${MAX_ENDPOINTS} endpoints when 40 creates race`, async () => {
    const merchant = await prisma.merchant.create({ data: { code: `WHLIMIT${Date.now()}`, name: 'Endpoint limit' } });
    const scope = { kind: 'one' as const, merchantId: merchant.id };
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) =>
        createEndpoint(prisma, scope, undefined, {
          url: `https://hooks.example.pe/${index}`,
          eventTypes: ['*'],
          description: `race ${index}`,
        }),
      ),
    );
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [toAppError(result.reason).kind] : []));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(MAX_ENDPOINTS);
    expect(refused).toEqual(Array.from({ length: 40 - MAX_ENDPOINTS }, () => 'STATE_CONFLICT'));
    expect(await prisma.webhookEndpoint.count({ where: { merchantId: merchant.id } })).toBe(MAX_ENDPOINTS);
  });
});
