import type { Db } from '@/server/db/client';

const DATABASE_TIMEOUT_MS = 2000;

export type Health = {
  status: 'ok' | 'unavailable';
  uptime_seconds: number;
  checks: { database: { status: 'ok' | 'unavailable'; latency_ms: number } };
};

/** Readiness: the process answers and its database answers a query within two seconds. */
export async function health(openDatabase: () => Promise<Db>): Promise<Health> {
  const started = performance.now();
  let database: 'ok' | 'unavailable' = 'ok';
  let timer: NodeJS.Timeout | undefined;
  try {
    const prisma = await openDatabase();
    await Promise.race([
      prisma.$queryRaw`SELECT 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database timeout')), DATABASE_TIMEOUT_MS);
      }),
    ]);
  } catch {
    database = 'unavailable';
  } finally {
    clearTimeout(timer);
  }
  return {
    status: database,
    uptime_seconds: Math.round(process.uptime()),
    checks: { database: { status: database, latency_ms: Math.round(performance.now() - started) } },
  };
}
