import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite } from '@/server/platform/db/adapter';
import { deployMigrations } from '@/server/platform/db/migrations';

// Vitest's global setup: one embedded database, migrated, dumped once per run. Each test file's
// database loads the dump (tests/support/procedure-test-support.ts) instead of running initdb
// and every migration again: about 1.5 s where a new one takes 5.

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- augmenting Vitest's interface takes an interface
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const dataDir = join(dir, 'data');
  const handle = await openPglite(dataDir);
  await deployMigrations(handle.factory);
  await handle.close();
  const database = await PGlite.create({ dataDir });
  const dump = await database.dumpDataDir('none');
  await database.close();
  const template = join(dir, 'template.tar');
  writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', template);
  return () => rmSync(dir, { recursive: true, force: true });
}
