import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPglite } from './adapter';
import { deployMigrations, lastSnapshot, migrationNames } from './migrations';

describe('migrations', () => {
  it('match schema.prisma: a schema change without a migration fails here', () => {
    expect(lastSnapshot()).toBe(readFileSync('prisma/schema.prisma', 'utf8'));
  });

  it('apply to an empty database once, and then find nothing to apply', async () => {
    const database = await openPglite(undefined);
    try {
      expect(await deployMigrations(database.factory)).toEqual(migrationNames());
      expect(await deployMigrations(database.factory)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('apply again a migration its process died in before its script committed; a failed one stays failed', async () => {
    const database = await openPglite(undefined);
    const adapter = await database.factory.connect();
    // Plain statements: a script through the factory would mark the migration under way finished.
    const run = (sql: string) => adapter.executeRaw({ sql, args: [], argTypes: [] });
    try {
      await deployMigrations(database.factory);
      const last = migrationNames().at(-1)!;
      // The state a process leaves that dies inside the last migration (card_instalments):
      // the engine's row started, the script's work rolled back with its transaction.
      await run(`DROP FUNCTION "card_instalments"(uuid)`);
      await run(`DROP FUNCTION "instalment_card_of"("transactions")`);
      await run(`ALTER TABLE "charge_claims" DROP COLUMN "instalment_card_id"`);
      await run(
        `UPDATE "_prisma_migrations" SET "finished_at" = NULL, "applied_steps_count" = 0 WHERE "migration_name" = '${last}'`,
      );
      expect(await deployMigrations(database.factory)).toEqual([last]);
      const rows = await adapter.queryRaw({
        sql: `SELECT "finished_at" IS NOT NULL AS finished, "rolled_back_at" IS NOT NULL AS rolled_back
              FROM "_prisma_migrations" WHERE "migration_name" = '${last}' ORDER BY "started_at"`,
        args: [],
        argTypes: [],
      });
      expect(rows.rows).toEqual([
        [false, true],
        [true, false],
      ]);
      await adapter.queryRaw({ sql: 'SELECT * FROM card_instalments(NULL)', args: [], argTypes: [] });
      // A migration that failed says why in its logs: it is left for an operator.
      await run(
        `UPDATE "_prisma_migrations" SET "finished_at" = NULL, "logs" = 'boom' WHERE "migration_name" = '${last}' AND "rolled_back_at" IS NULL`,
      );
      await expect(deployMigrations(database.factory)).rejects.toThrow(/failed/);
    } finally {
      await adapter.dispose();
      await database.close();
    }
  });
});
