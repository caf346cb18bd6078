// npm run db:migrate:create -- <name> | npm run db:migrate:deploy
import { env } from '../src/env';
import { openDatabase } from '../src/server/platform/db/adapter';
import { createMigration, deployMigrations } from '../src/server/platform/db/migrations';
import { withStartupLock } from '../src/server/platform/db/startup-lock';

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  if (command === 'create') {
    const directory = await createMigration(name ?? '');
    console.log(directory ? `created ${directory}` : 'no changes: schema.prisma matches the last migration');
    return;
  }
  if (command === 'deploy') {
    const config = env();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR });
    try {
      // In turn with instances starting on the same PostgreSQL, as they migrate.
      const applied = await withStartupLock(config.DATABASE_URL, () => deployMigrations(database.factory));
      console.log(applied.length ? `applied ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await database.close();
    }
    return;
  }
  console.error('usage: db-migrate create <name> | deploy');
  process.exitCode = 2;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
