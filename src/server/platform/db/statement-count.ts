import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';

// Round trips to the database, counted where every query passes (the driver adapter), so the
// benchmark can report statements per request (docs/BENCHMARKS.md) and /api/metrics exposes the
// total (`pay_db_statements_total`). A transaction counts its BEGIN and its COMMIT or ROLLBACK too.

const slot = globalThis as typeof globalThis & { __payStatements?: { count: number } };

/** Statements sent by this process since it started (every database handle it opened). */
export function statementsSent(): number {
  return slot.__payStatements?.count ?? 0;
}

function count(): void {
  slot.__payStatements ??= { count: 0 };
  slot.__payStatements.count += 1;
}

/** `target` with some members replaced; every other method still runs on `target` itself (drivers keep private fields). */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof T];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

function countedTransaction(transaction: Transaction): Transaction {
  return overriding(transaction, {
    queryRaw: (query) => (count(), transaction.queryRaw(query)),
    executeRaw: (query) => (count(), transaction.executeRaw(query)),
    commit: () => (count(), transaction.commit()),
    rollback: () => (count(), transaction.rollback()),
  });
}

function countedAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return overriding(adapter, {
    queryRaw: (query) => (count(), adapter.queryRaw(query)),
    executeRaw: (query) => (count(), adapter.executeRaw(query)),
    startTransaction: async (isolation) => (count(), countedTransaction(await adapter.startTransaction(isolation))),
  });
}

/** The same factory, its connections counting every statement they send. */
export function countingStatements(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  return overriding(factory, { connect: async () => countedAdapter(await factory.connect()) });
}
