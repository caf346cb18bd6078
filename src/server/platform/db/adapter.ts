import { mkdirSync } from 'node:fs';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { startPgliteThread } from './pglite-proxy';
import { countingStatements } from './statement-count';
import { databaseQueue, type WatchedPool } from './database-queue';
import { statementNamer } from './statement-names';

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  /** How many connections its pool opens at most (the embedded database has one). */
  connections: number;
  factory: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
};

/** The same factory, each connection it opens passed through `each` (the shadow database's untouched). */
export function eachConnection(
  factory: SqlMigrationAwareDriverAdapterFactory,
  each: (adapter: SqlDriverAdapter) => SqlDriverAdapter,
): SqlMigrationAwareDriverAdapterFactory {
  const connect = factory.connect.bind(factory);
  return Object.assign(
    Object.create(Object.getPrototypeOf(factory) as object) as SqlMigrationAwareDriverAdapterFactory,
    factory,
    {
      connect: async () => each(await connect()),
      connectToShadowDb: factory.connectToShadowDb.bind(factory),
    },
  );
}

// A migration script runs whole, as one statement list, on both databases. pglite-prisma-adapter
// 0.7.2 does not await exec() in executeScript, so a failing migration would be recorded as
// applied; @prisma/adapter-pg splits the script at every semicolon (one inside a function body
// included) and runs the pieces one by one, so a failure leaves half a migration. PostgreSQL runs
// a multi-statement simple query in one implicit transaction: a migration lands whole or not at all.
// The engine records a migration as started before its script and as finished after it; the
// script marks it finished itself, in its own transaction, so that a process that dies between
// the two (kill -9, a V8 abort at start-up) leaves either a migration applied and recorded, or one
// neither applied nor finished, which the next start applies again (migrations.ts).
function runningScriptsWith(
  factory: SqlMigrationAwareDriverAdapterFactory,
  run: (script: string) => Promise<unknown>,
): SqlMigrationAwareDriverAdapterFactory {
  return eachConnection(factory, (adapter) => {
    adapter.executeScript = async (script: string) => {
      await run(`${script}\n;${MARK_STARTED_FINISHED}`);
    };
    return adapter;
  });
}

/** Marks the migration under way finished (the engine marks it again, with the same effect); nothing before the table exists. */
const MARK_STARTED_FINISHED = `
DO $$ BEGIN
  IF to_regclass('_prisma_migrations') IS NOT NULL THEN
    UPDATE "_prisma_migrations" SET "finished_at" = now(), "applied_steps_count" = 1
    WHERE "finished_at" IS NULL AND "rolled_back_at" IS NULL AND "logs" IS NULL;
  END IF;
END $$;`;

async function runOnPostgres(connectionString: string, script: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end();
  }
}

const POSTGRES_POOL_SIZE = 20;
// The warm-up readies every connection of the client's pool (every-connection.ts): they stay open
// (`min`), where the pool would close each after 10 s idle and open it cold at the next burst;
// keep-alive probes notice one that a firewall or balancer dropped while it sat idle. Each
// connect() has a pool of its own, ended when its adapter is disposed (the schema engine's too:
// schema-engine.ts).
// The planner is told what the service's statements are (docs/DECISIONS.md, "Refund lists at ten
// million operations"): no parallel query, since every statement reads a page or a few rows by
// index and starting workers cost 100–250 ms on two cores where the work took 5 ms; and random
// reads at SSD cost (1.1, not the spinning disk's 4), else a bounded count with a date range
// chose to read the table in order and filter 40,000 rows rather than seek the index.
const POSTGRES_POOL = {
  max: POSTGRES_POOL_SIZE,
  min: POSTGRES_POOL_SIZE,
  keepAlive: true,
  options: '-c max_parallel_workers_per_gather=0 -c random_page_cost=1.1',
};

export async function openDatabase(options: { databaseUrl?: string; pgliteDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const factory = new PrismaPg(
      { connectionString: options.databaseUrl, ...POSTGRES_POOL },
      { statementNameGenerator: statementNamer() },
    );
    const url = options.databaseUrl;
    const scripted = runningScriptsWith(factory, (script) => runOnPostgres(url, script));
    // Admission control reads how long statements wait for a connection (database-queue.ts).
    const watched = eachConnection(scripted, (adapter) => {
      databaseQueue().watch((adapter as SqlDriverAdapter & { underlyingDriver(): WatchedPool }).underlyingDriver());
      return adapter;
    });
    return {
      kind: 'postgres',
      connections: POSTGRES_POOL_SIZE,
      factory: countingStatements(watched),
      close: async () => {},
    };
  }
  return openPglite(options.pgliteDir);
}

/**
 * The embedded database, in a thread of its own (pglite-proxy.ts): on disk in `dataDir`, or in
 * memory, loaded from a dump (`template`) when one is given.
 */
export async function openPglite(dataDir: string | undefined, options: { template?: string } = {}): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const thread = await startPgliteThread(dataDir, options.template);
  return {
    kind: 'pglite',
    connections: 1,
    factory: countingStatements(runningScriptsWith(new PrismaPGlite(thread.client), (script) => thread.client.exec(script))),
    close: () => thread.close(),
  };
}
