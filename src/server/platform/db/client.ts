import { PrismaClient } from '@/generated/prisma/client';
import type { Prisma } from '@/generated/prisma/client';
import { env } from '@/env';
import { openDatabase, type DatabaseHandle } from './adapter';
import { deployMigrations } from './migrations';
import { withStartupLock } from './startup-lock';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

type Opened = { prisma: PrismaClient; handle: DatabaseHandle; appliedMigrations: string[] };

// Instrumentation and route handlers are separate bundles in one process: the handle lives
// on globalThis so that they share one database (PGlite allows one owner per directory).
const slot = globalThis as typeof globalThis & { __payDatabase?: Promise<Opened> };

export function openedDatabase(): Promise<Opened> {
  slot.__payDatabase ??= (async () => {
    const config = env();
    const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR });
    const appliedMigrations = await withStartupLock(config.DATABASE_URL, () => deployMigrations(handle.factory));
    const prisma = new PrismaClient({ adapter: handle.factory, transactionOptions: { maxWait: 20_000, timeout: 30_000 } });
    return { prisma, handle, appliedMigrations };
  })();
  return slot.__payDatabase;
}

export async function db(): Promise<Db> {
  return (await openedDatabase()).prisma;
}

export async function closeDatabase(): Promise<void> {
  const opened = slot.__payDatabase;
  if (!opened) return;
  slot.__payDatabase = undefined;
  const { prisma, handle } = await opened;
  await prisma.$disconnect();
  await handle.close();
}
