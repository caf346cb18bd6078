import { beforeEach, describe, expect, it } from 'vitest';
import { withTestDatabase } from '@tests/support/procedure-test-support';
import { memorySandboxStore } from '@tests/support/memory-sandbox-store';
import { CONNECTOR_MODES, databaseSandboxStore, SETTINGS_CACHE_MS, type SandboxDb, type SandboxStore } from './sandbox-store';

const fixture = withTestDatabase();

beforeEach(async () => {
  await fixture.db.prisma.connectorSetting.deleteMany();
  await fixture.db.prisma.sandboxProcessorRecord.deleteMany();
});

/** The test database, counting the settings reads (the first `failures` of them fail). */
function countingDb(failures = 0) {
  const counter = { reads: 0 };
  const settings = fixture.db.prisma.connectorSetting;
  const db = {
    connectorSetting: {
      findMany: (args: unknown) => {
        counter.reads += 1;
        if (counter.reads <= failures) return Promise.reject(new Error('connection lost'));
        return settings.findMany(args as never);
      },
      upsert: settings.upsert.bind(settings),
    },
    sandboxProcessorRecord: fixture.db.prisma.sandboxProcessorRecord,
  } as unknown as SandboxDb;
  return { db, counter };
}

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

// The database store and the tests' memory store keep the same promises.
describe.each([
  ['databaseSandboxStore', () => databaseSandboxStore(fixture.db.prisma)],
  ['memorySandboxStore', () => memorySandboxStore()],
] as const)('%s', (_name, makeStore: () => SandboxStore) => {
  it('knows a connector without settings as normal and enabled', async () => {
    expect(await makeStore().modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'normal', enabled: true });
  });

  it('sets the mode and the switch independently, and applies them at once to itself', async () => {
    const store = makeStore();
    expect(await store.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'normal', enabled: true });
    for (const mode of CONNECTOR_MODES) {
      await store.setMode('sandbox-acquirer-a', mode);
      expect(await store.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode, enabled: true });
    }
    await store.setEnabled('sandbox-acquirer-a', false);
    expect(await store.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'declining', enabled: false });
    await store.setMode('sandbox-acquirer-a', 'slow');
    expect(await store.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'slow', enabled: false });
    expect(await store.modeOf('sandbox-acquirer-b')).toStrictEqual({ mode: 'normal', enabled: true });
  });

  it('records decisions per connector and reference, the first write winning', async () => {
    const store = makeStore();
    expect(await store.find('sandbox-acquirer-a', 'ref-1')).toBeNull();
    await store.record('sandbox-acquirer-a', 'ref-1', {
      outcome: 'approved',
      authorizationCode: '123456',
      brandTransactionId: '401234567890123',
    });
    await store.record('sandbox-acquirer-a', 'ref-1', { outcome: 'declined', code: '05' });
    await store.record('sandbox-acquirer-b', 'ref-1', { outcome: 'declined', code: '05' });
    await store.record('sandbox-qr', 'ref-2', { outcome: 'pending' });
    expect(await store.find('sandbox-acquirer-a', 'ref-1')).toStrictEqual({
      outcome: 'approved',
      authorizationCode: '123456',
      brandTransactionId: '401234567890123',
    });
    expect(await store.find('sandbox-acquirer-b', 'ref-1')).toStrictEqual({ outcome: 'declined', code: '05' });
    expect(await store.find('sandbox-qr', 'ref-2')).toStrictEqual({ outcome: 'pending' });
    expect(await store.find('sandbox-qr', 'ref-1')).toBeNull();
  });
});

describe('databaseSandboxStore settings cache', () => {
  it('reads the settings once per second at most, whatever the number of charges', async () => {
    const clock = manualClock();
    const { db, counter } = countingDb();
    const store = databaseSandboxStore(db, clock.now);
    await Promise.all([store.modeOf('sandbox-acquirer-a'), store.modeOf('sandbox-yape')]);
    await store.modeOf('sandbox-acquirer-b');
    clock.advance(SETTINGS_CACHE_MS - 1);
    await store.modeOf('sandbox-acquirer-a');
    expect(counter.reads).toBe(1);
    clock.advance(1);
    await store.modeOf('sandbox-acquirer-a');
    expect(counter.reads).toBe(2);
    await store.setMode('sandbox-acquirer-a', 'flaky');
    expect(await store.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'flaky', enabled: true });
    expect(counter.reads).toBe(3);
  });

  it('shows another instance a change within a second', async () => {
    const clock = manualClock();
    const other = databaseSandboxStore(fixture.db.prisma, clock.now);
    expect(await other.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'normal', enabled: true });
    await databaseSandboxStore(fixture.db.prisma).setMode('sandbox-acquirer-a', 'outage');
    expect((await other.modeOf('sandbox-acquirer-a')).mode).toBe('normal');
    clock.advance(SETTINGS_CACHE_MS);
    expect((await other.modeOf('sandbox-acquirer-a')).mode).toBe('outage');
  });

  it('does not keep a failed read', async () => {
    const { db, counter } = countingDb(1);
    const store = databaseSandboxStore(db, manualClock().now);
    await expect(store.modeOf('sandbox-acquirer-a')).rejects.toThrow('connection lost');
    expect(await store.modeOf('sandbox-acquirer-a')).toStrictEqual({ mode: 'normal', enabled: true });
    expect(counter.reads).toBe(2);
  });

  it('stores concurrent records in batches: each resolves once its batch is stored, a failed batch fails all of its records', async () => {
    const inserts: number[] = [];
    let failNext = false;
    const db = {
      connectorSetting: fixture.db.prisma.connectorSetting,
      sandboxProcessorRecord: fixture.db.prisma.sandboxProcessorRecord,
      $executeRawUnsafe: async (sql: string, rows: string) => {
        inserts.push((JSON.parse(rows) as unknown[]).length);
        if (failNext) {
          failNext = false;
          throw new Error('connection lost');
        }
        return fixture.db.prisma.$executeRawUnsafe(sql, rows);
      },
    } as unknown as SandboxDb;
    const store = databaseSandboxStore(db);
    const references = Array.from({ length: 25 }, (_, index) => `batch-${index}`);
    await Promise.all(
      references.map((reference) => store.record('sandbox-acquirer-a', reference, { outcome: 'declined', code: '51' })),
    );
    // The first record goes alone; the 24 that came while it was stored, together.
    expect(inserts).toEqual([1, 24]);
    for (const reference of references) {
      expect(await store.find('sandbox-acquirer-a', reference)).toStrictEqual({ outcome: 'declined', code: '51' });
    }

    inserts.length = 0;
    const first = store.record('sandbox-acquirer-b', 'first', { outcome: 'pending' });
    failNext = true;
    const failed = ['lost-1', 'lost-2'].map((reference) => store.record('sandbox-acquirer-b', reference, { outcome: 'pending' }));
    await first;
    await Promise.all(failed.map((record) => expect(record).rejects.toThrow('connection lost')));
    expect(inserts).toEqual([1, 2]);
    expect(await store.find('sandbox-acquirer-b', 'lost-1')).toBeNull();
    // The store goes on after a failure.
    await store.record('sandbox-acquirer-b', 'after', { outcome: 'pending' });
    expect(await store.find('sandbox-acquirer-b', 'after')).toStrictEqual({ outcome: 'pending' });
  });

  it('works on a transaction of the caller', async () => {
    await fixture.db.prisma.$transaction(async (tx) => {
      const store = databaseSandboxStore(tx);
      await store.record('sandbox-acquirer-a', 'ref-tx', {
        outcome: 'approved',
        authorizationCode: '654321',
        brandTransactionId: '409876543210987',
      });
      expect(await store.find('sandbox-acquirer-a', 'ref-tx')).toStrictEqual({
        outcome: 'approved',
        authorizationCode: '654321',
        brandTransactionId: '409876543210987',
      });
      expect((await store.modeOf('sandbox-acquirer-a')).mode).toBe('normal');
    });
  });
});
