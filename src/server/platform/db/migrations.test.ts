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
});
