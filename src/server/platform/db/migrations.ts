import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { openPglite } from './adapter';
import { withSchemaEngine } from './schema-engine';

const prismaDir = () => path.join(process.cwd(), 'prisma');
const migrationsDir = () => path.join(prismaDir(), 'migrations');
const schemaPath = () => path.join(prismaDir(), 'schema.prisma');
const SNAPSHOT = 'schema.prisma.snapshot';
const LOCKFILE = 'migration_lock.toml';
const filters = { externalTables: [], externalEnums: [] };

export function migrationNames(): string[] {
  if (!existsSync(migrationsDir())) return [];
  return readdirSync(migrationsDir(), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** The schema as it stood when the latest migration was made (empty before the first). */
export function lastSnapshot(): string | null {
  const last = migrationNames().at(-1);
  if (!last) return null;
  return readFileSync(path.join(migrationsDir(), last, SNAPSHOT), 'utf8');
}

export async function deployMigrations(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string[]> {
  const schema = { path: schemaPath(), content: readFileSync(schemaPath(), 'utf8') };
  const lockPath = path.join(migrationsDir(), LOCKFILE);
  const migrationsList = {
    baseDir: migrationsDir(),
    lockfile: { path: LOCKFILE, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    migrationDirectories: migrationNames().map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: readFileSync(path.join(migrationsDir(), name, 'migration.sql'), 'utf8') },
      },
    })),
    shadowDbInitScript: '',
  };
  await resumeInterrupted(factory);
  const result = await withSchemaEngine(factory, schema, (engine) => engine.applyMigrations({ migrationsList, filters }));
  return result.appliedMigrationNames;
}

/**
 * A migration recorded as started, neither finished nor failed (no logs), was cut off by its
 * process's end before its script committed: its script marks it finished in its own transaction
 * (adapter.ts), so nothing of it was applied. It is marked rolled back, and applied again now.
 * Callers hold the start-up lock (startup-lock.ts), so no other process is applying it. A
 * migration that failed (its logs say why) stays failed: an operator resolves it.
 */
async function resumeInterrupted(factory: SqlMigrationAwareDriverAdapterFactory): Promise<void> {
  const adapter = await factory.connect();
  try {
    await adapter.executeScript(`
      DO $$ BEGIN
        IF to_regclass('_prisma_migrations') IS NOT NULL THEN
          UPDATE "_prisma_migrations" SET "rolled_back_at" = now()
          WHERE "finished_at" IS NULL AND "rolled_back_at" IS NULL AND "logs" IS NULL;
        END IF;
      END $$`);
  } finally {
    await adapter.dispose();
  }
}

/** Writes prisma/migrations/<timestamp>_<name>/ from the diff of the last snapshot to the schema. */
export async function createMigration(name: string, now = new Date()): Promise<string | null> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('migration name: lowercase letters, digits and _');
  const current = readFileSync(schemaPath(), 'utf8');
  const previous = lastSnapshot();
  const side = (content: string | null) =>
    content === null ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content }] };
  const scratch = await openPglite(undefined);
  try {
    const { stdout } = await withSchemaEngine(scratch.factory, { path: schemaPath(), content: current }, (engine) =>
      engine.diff({ from: side(previous), to: side(current), script: true, exitCode: null, filters }),
    );
    if (stdout.trimStart().startsWith('-- This is an empty migration')) return null;
    const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
    const directory = path.join(migrationsDir(), `${stamp}_${name}`);
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, 'migration.sql'), stdout);
    writeFileSync(path.join(directory, SNAPSHOT), current);
    const lockPath = path.join(migrationsDir(), LOCKFILE);
    if (!existsSync(lockPath)) writeFileSync(lockPath, 'provider = "postgresql"\n');
    return directory;
  } finally {
    await scratch.close();
  }
}
