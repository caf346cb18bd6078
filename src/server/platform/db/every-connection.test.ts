import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, SETUP_TIMEOUT, testMerchant, type TestDatabase } from '@tests/support/procedure-test-support';
import { warmHotStatements } from '@/server/startup/warm-statements';
import { warmCharge, warmChargePath } from '@/server/startup/warm-charge';
import { breakers } from '@/server/modules/processors/breakers';
import { onEveryConnection } from './every-connection';

// The warm-up's database half: whatever runs on each connection is rolled back, a real failure
// is not swallowed, and the hot paths' statements run as they are written (a parameter added to
// one of them and not to its warm-up fails here) without writing anything.
let db: TestDatabase;

beforeAll(async () => {
  db = await openTestDatabase();
  await testMerchant(db.prisma, 'WARMED');
}, SETUP_TIMEOUT);

afterAll(() => db?.close());

const tables = () =>
  db.prisma.$queryRawUnsafe<Record<string, number>[]>(
    `SELECT (SELECT count(*)::int FROM merchants) AS merchants, (SELECT count(*)::int FROM operations) AS operations,
            (SELECT count(*)::int FROM transactions) AS transactions, (SELECT count(*)::int FROM charge_claims) AS claims,
            (SELECT count(*)::int FROM lifecycle_entries) AS lifecycle,
            (SELECT count(*)::int FROM outbox_events) AS events, (SELECT count(*)::int FROM sandbox_processor_records) AS records`,
  );

describe('onEveryConnection', () => {
  it('rolls back what the work wrote', async () => {
    const before = await tables();
    let runs = 0;
    await onEveryConnection(db.prisma, 1, async (tx) => {
      await tx.merchant.create({ data: { code: 'ROLLEDBACK', name: 'Rolled back' } });
      runs += 1;
    });
    expect(runs).toBe(1);
    expect(await db.prisma.merchant.findUnique({ where: { code: 'ROLLEDBACK' } })).toBeNull();
    expect(await tables()).toEqual(before);
  });

  it("passes the work's own failure on", async () => {
    await expect(
      onEveryConnection(db.prisma, 1, async (tx) => {
        await tx.$queryRawUnsafe('SELECT no_such_column FROM merchants');
      }),
    ).rejects.toThrow(/no_such_column/);
  });

  it("runs the hot paths' statements, writing nothing", async () => {
    const before = await tables();
    await onEveryConnection(db.prisma, 1, warmHotStatements);
    // Outside a transaction too: they write nothing by themselves.
    await db.prisma.$transaction((tx) => warmHotStatements(tx));
    expect(await tables()).toEqual(before);
    expect(before[0]!.merchants).toBe(1);
  });

  it('makes approved charges of its own, and keeps none of them', async () => {
    const before = await tables();
    const seen: Record<string, number>[] = [];
    await onEveryConnection(db.prisma, 1, async (tx) => {
      for (let charge = 0; charge < 6; charge += 1) await warmCharge(tx);
      seen.push(
        ...(await tx.$queryRawUnsafe<Record<string, number>[]>(
          `SELECT (SELECT count(*)::int FROM merchants WHERE code LIKE 'WARMUP%') AS merchants,
                  (SELECT count(*)::int FROM transactions WHERE state = 'AUTORIZADO') AS approved,
                  (SELECT count(*)::int FROM charge_claims) AS claims`,
        )),
      );
    });
    // Six charges, each of its own merchant, approved and written whole inside the transaction.
    expect(seen).toEqual([{ merchants: 6, approved: 6, claims: 0 }]);
    expect(await tables()).toEqual(before);
  });

  it('at start, makes six approved charges and leaves neither a row nor a breaker that counted them', async () => {
    const before = await tables();
    breakers().breakerFor('sandbox-acquirer-a').record('success');
    expect(await warmChargePath(db.prisma, 1)).toBe(6);
    expect(await tables()).toEqual(before);
    expect(breakers().snapshot()).toEqual([]);
  });

  it('says so when a warm-up charge is not approved', async () => {
    const failing = onEveryConnection(db.prisma, 1, async (tx) => {
      // The sandbox acquirers in outage, inside the transaction: the charge is declined.
      await tx.connectorSetting.createMany({
        data: ['sandbox-acquirer-a', 'sandbox-acquirer-b'].map((connectorId) => ({ connectorId, mode: 'outage' })),
      });
      await warmCharge(tx);
    });
    await expect(failing).rejects.toThrow('the warm-up charge was DENEGADO');
  });
});

describe('onEveryConnection, a transaction that cannot begin', () => {
  it('releases the others at once and fails only after every one has ended', async () => {
    const ended: string[] = [];
    let calls = 0;
    // A client whose third transaction cannot begin (no connection to be had).
    const client = {
      $transaction: async (run: (tx: unknown) => Promise<void>) => {
        calls += 1;
        const index = calls;
        if (index === 3) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          ended.push('refused');
          throw new Error('too many clients already');
        }
        try {
          await run({});
        } finally {
          ended.push(`transaction ${index}`);
        }
      },
    } as unknown as Parameters<typeof onEveryConnection>[0];
    const started = Date.now();
    await expect(onEveryConnection(client, 4, async () => {}, 60_000)).rejects.toThrow('too many clients already');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ended.sort()).toEqual(['refused', 'transaction 1', 'transaction 2', 'transaction 4']);
  });
});
