import { mkdirSync } from 'node:fs';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { startPgliteThread } from './pglite-proxy';
import { countingStatements } from './statement-count';
import { statementNamer } from './statement-names';

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  factory: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
};

// pglite-prisma-adapter 0.7.2 does not await exec() in executeScript, so a failing migration
// would be recorded as applied. Await it and let the error reach the schema engine.
function awaitingScripts(client: PGlite, factory: PrismaPGlite): SqlMigrationAwareDriverAdapterFactory {
  const connect = factory.connect.bind(factory);
  return Object.assign(Object.create(Object.getPrototypeOf(factory) as object) as PrismaPGlite, factory, {
    async connect() {
      const adapter = await connect();
      adapter.executeScript = async (script: string) => {
        await client.exec(script);
      };
      return adapter;
    },
    connectToShadowDb: factory.connectToShadowDb.bind(factory),
  });
}

export async function openDatabase(options: { databaseUrl?: string; pgliteDir: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const factory = new PrismaPg(
      { connectionString: options.databaseUrl, max: 20 },
      { statementNameGenerator: statementNamer() },
    );
    return { kind: 'postgres', factory: countingStatements(factory), close: async () => {} };
  }
  return openPglite(options.pgliteDir);
}

/** The embedded database, in a thread of its own (pglite-proxy.ts). */
export async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const thread = await startPgliteThread(dataDir);
  return {
    kind: 'pglite',
    factory: countingStatements(awaitingScripts(thread.client, new PrismaPGlite(thread.client))),
    close: () => thread.close(),
  };
}
