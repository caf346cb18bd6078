import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { env, publishSessionSecret } from '@/env';
import { closeDatabase, openedDatabase } from '@/server/platform/db/client';
import { databaseLabel } from '@/server/platform/db/database-label';
import { operatorToken } from '@/server/modules/access/operator-token';
import { consoleSessionSecret, tokenSigningKey } from '@/server/platform/security/service-keys';
import { callbackSigningKey } from '@/server/modules/events/callbacks/signing-keys';
import { startWorker } from '@/server/jobs/worker';
import { logError, logInfo } from '@/server/platform/log';
import { seedDemo } from '@/server/startup/seed-demo';
import { withStartupLock } from '@/server/platform/db/startup-lock';
import { startWarmUp } from '@/server/startup/warm-up';
import { warmChargePath } from '@/server/startup/warm-charge';
import { processorSecretKeys } from '@/server/modules/processors/account-secrets';
import { clientSecretPeppers } from '@/server/modules/access/credentials';
import { vacuumClaims } from '@/server/modules/charges/attempts/in-flight';

type Drain = (graceMs: number) => Promise<void>;

// Runs once per process from instrumentation: migrations, keys, demo data, the operator
// service file, and a clean shutdown (PGlite must be closed to keep its directory sound).
export async function startService(): Promise<void> {
  const config = env();
  const { prisma, handle, appliedMigrations } = await openedDatabase();
  // Keys and demo data are made once, by whichever instance comes first.
  const demo = await withStartupLock(config.DATABASE_URL, async () => {
    await tokenSigningKey(prisma);
    await callbackSigningKey(prisma);
    await consoleSessionSecret(prisma);
    // The sealing keys before any request: a first read started by one request while another
    // holds the embedded database's only connection in a transaction would wait for it.
    await processorSecretKeys(prisma);
    await clientSecretPeppers(prisma);
    return config.SEED_DEMO ? seedDemo(prisma) : null;
  });
  // On the embedded database, the claims its last run left dead, before any request: the
  // statistics that count dead claims (the worker's vacuum) start empty with each process, and
  // the first status sync would otherwise pass every one of them on pages read cold.
  if (handle.kind === 'pglite') await vacuumClaims(prisma, 0);
  await warmChargePath(prisma, handle.connections);

  mkdirSync(path.dirname(config.SERVICE_FILE), { recursive: true });
  writeFileSync(
    config.SERVICE_FILE,
    JSON.stringify({
      pid: process.pid,
      url: config.origin,
      database: handle.kind,
      databaseLabel: databaseLabel({ databaseUrl: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR }),
      operatorToken: operatorToken(),
    }),
    { mode: 0o600 },
  );
  publishSessionSecret(await consoleSessionSecret(prisma));
  const worker = config.WORKER_IN_SERVICE ? startWorker(prisma, `service-${process.pid}`) : null;
  // A stop answers the requests under way (server.js drains the HTTP server) and lets the
  // worker finish its jobs before the database closes. A second signal while it does (Ctrl+C
  // reaches a process group twice) changes nothing: the default action would exit mid-drain.
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    rmSync(config.SERVICE_FILE, { force: true });
    const drain = (globalThis as { [key: symbol]: Drain | undefined })[Symbol.for('pay.http-drain')];
    void Promise.all([drain?.(config.DRAIN_GRACE_MS), worker?.stop()])
      .then(() => closeDatabase())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  startWarmUp();

  logInfo('service started', { database: handle.kind, migrations_applied: appliedMigrations.length, origin: config.origin });
  if (demo) {
    const lines = [
      '',
      '  Payment orchestration service is up',
      `  API        ${config.baseUrl}   (OpenAPI: ${config.baseUrl}/openapi.json)`,
      `  Token      ${config.authUrl}/token`,
      `  Callbacks  signed RSA-SHA512; public key at ${config.baseUrl}/webhooks/public-key`,
      `  Console    ${config.origin}/`,
      `  Database   ${handle.kind === 'pglite' ? `embedded PGlite at ${config.PGLITE_DIR}` : 'PostgreSQL'}`,
      '',
      `  Demo merchant   ${demo.merchantCode}`,
      `  client_id       ${demo.clientId}`,
      '  client_secret   the DEMO_CLIENT_SECRET setting (npm run demo prints it on its terminal)',
      '',
      `  Demo customer   ${demo.customer.customerId} (saved card ${demo.customer.cardId ?? 'not saved: no processor verified it'})`,
      '',
      '  Console users (each signs in with the DEMO_PASSWORD setting):',
      ...demo.users.map((user) => `    ${user.role.padEnd(16)} ${user.email}`),
      '',
    ];
    console.log(lines.join('\n'));
  }
}

/** A failed start exits the process: Next would otherwise answer every request with a bare 500. */
export async function launchService(): Promise<void> {
  try {
    await startService();
  } catch (error) {
    logError('service failed to start', error);
    process.exit(1);
  }
}
