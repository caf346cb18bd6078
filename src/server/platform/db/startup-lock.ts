import pg from 'pg';

// Instances that start together on one PostgreSQL take turns at the start-up steps that write
// shared state (migrations, generated keys, demo data): a session advisory lock, held on a
// connection of its own while `work` runs on the pool. The embedded database has one process.
const STARTUP_LOCK = 7_243_001;

export async function withStartupLock<T>(databaseUrl: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!databaseUrl) return work();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
    await client.end();
  }
}
