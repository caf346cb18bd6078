import type { Db } from '@/server/platform/db/client';

const DATABASE_TIMEOUT_MS = 2000;

export type Health = {
  status: 'ok' | 'unavailable';
  uptime_seconds: number;
  checks: { database: { status: 'ok' | 'unavailable'; latency_ms: number }; warm_up: { status: 'ok' | 'pending' } };
};

/**
 * Readiness: the process has warmed its hot paths (warm-up.ts) and its database answers a query
 * within two seconds.
 */
export async function health(openDatabase: () => Promise<Db>, warm: () => boolean): Promise<Health> {
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
  const warmedUp = warm();
  return {
    status: database === 'ok' && warmedUp ? 'ok' : 'unavailable',
    uptime_seconds: Math.round(process.uptime()),
    checks: {
      database: { status: database, latency_ms: Math.round(performance.now() - started) },
      warm_up: { status: warmedUp ? 'ok' : 'pending' },
    },
  };
}
