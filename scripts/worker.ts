// npm run worker: the background worker on its own, beside any number of service instances
// on one PostgreSQL database. On the embedded database the worker runs inside the service.
import { env } from '../src/env';
import { closeDatabase, openedDatabase } from '../src/server/platform/db/client';
import { startWorker } from '../src/server/jobs/worker';
import { callbackSigningKey } from '../src/server/modules/events/callbacks/signing-keys';
import { checkRuntime } from '../src/server/platform/runtime.mjs';

async function main(): Promise<void> {
  checkRuntime('pay-worker');
  if (!env().DATABASE_URL) {
    console.error('npm run worker needs DATABASE_URL (PostgreSQL): on the embedded database the service runs the worker itself');
    process.exit(2);
  }
  const { prisma } = await openedDatabase();
  await callbackSigningKey(prisma);
  const worker = startWorker(prisma, `worker-${process.pid}`);
  const stop = () => {
    void worker
      .stop()
      .then(() => closeDatabase())
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
