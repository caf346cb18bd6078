import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaClient } from '@/generated/prisma/client';
import { openDatabase } from '@/server/platform/db/adapter';
import { secretScan } from '@/server/modules/console/secret-scan';
import { startService, type ServiceProcess } from '../../scripts/support/service-process';
import { scanLogFiles, secretsVerdict } from '../../e2e/support/secrets-scan';
import { KNOWN_TEST_SECRETS } from '../../e2e/support/test-secrets';

// The built service as a process these tests can kill and start again on the same database:
// embedded PGlite in a temporary directory, or RELIABILITY_DATABASE_URL (PostgreSQL).
export const DATABASE_URL = process.env.RELIABILITY_DATABASE_URL ?? '';
export const DATABASE = DATABASE_URL ? 'PostgreSQL' : 'PGlite';
/** `npm run test:reliability` sets it: more rounds and longer loads than the CI's fast pass. */
export const FULL = process.env.RELIABILITY_FULL === 'true';

/**
 * A suite's port: RELIABILITY_PORT (3950 by default) plus the suite's own offset (0 to 11), so
 * that two checkouts on one machine can run the suites side by side on different ranges.
 */
/**
 * Worker settings of the delivery fault suites: fast polls and short leases, first deliveries
 * that hang at the merchant for the whole timeout, and room for all of them at once (the
 * default is 32 deliveries at a time and 4 to one destination; every charge here names the same
 * receiver, and the full runs have 40).
 */
export const HANGING_DELIVERY_WORKER = {
  WORKER_POLL_MS: '50',
  CALLBACK_LEASE_SECONDS: '2',
  CALLBACK_TIMEOUT_MS: '30000',
  CALLBACK_RETRY_SECONDS: '1,1,1',
  CALLBACK_CONCURRENCY: '64',
  CALLBACK_DESTINATION_CONCURRENCY: '64',
};

export function reliabilityPort(offset: number): number {
  return Number(process.env.RELIABILITY_PORT ?? 3950) + offset;
}

export type Deployment = {
  dir: string;
  serviceFile: string;
  /** A process's log file (the deployment's service by default): kept after the run, for CI. */
  logFile: (name?: string) => string;
  start: (extra?: Record<string, string>) => Promise<ServiceProcess>;
  /** Opens the database directly (the service must be stopped when it is PGlite). */
  inspect: <T>(use: (prisma: PrismaClient) => Promise<T>) => Promise<T>;
  /** Stops the service it started last if it still runs (a failed test), then the secrets scan of its logs and tables, then its directory removed. */
  finish: () => Promise<void>;
};

/** A deployment on RELIABILITY_DATABASE_URL (PGlite without it), or on `databaseUrl` where a suite needs a database of its own. */
export function deployment(port: number, databaseUrl = DATABASE_URL): Deployment {
  const dir = mkdtempSync(join(tmpdir(), 'pay-reliability-'));
  const serviceFile = join(dir, 'service.json');
  const pgliteDir = join(dir, 'pglite');
  const logDir = `.data/reliability-${port}`;
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const logFile = (name = 'service') => join(logDir, `${name}.log`);
  const inspect: Deployment['inspect'] = async (use) => {
    const handle = await openDatabase({ databaseUrl: databaseUrl || undefined, pgliteDir });
    const prisma = new PrismaClient({ adapter: handle.factory });
    try {
      return await use(prisma);
    } finally {
      await prisma.$disconnect();
      await handle.close();
    }
  };
  let latest: ServiceProcess | undefined;
  return {
    dir,
    serviceFile,
    logFile,
    start: async (extra = {}) =>
      (latest = await startService(
        port,
        {
          DATABASE_URL: databaseUrl,
          PGLITE_DIR: pgliteDir,
          SERVICE_FILE: serviceFile,
          API_RATE_PER_SECOND: '100000',
          TOKEN_RATE_PER_CLIENT: '100000',
          ...extra,
        },
        { logFile: logFile() },
      )),
    inspect,
    finish: async () => {
      await latest?.stop();
      try {
        const logs = scanLogFiles(
          readdirSync(logDir).map((name) => join(logDir, name)),
          KNOWN_TEST_SECRETS,
        );
        const tables = await inspect((prisma) => secretScan(prisma, KNOWN_TEST_SECRETS));
        console.log(secretsVerdict(logs, [tables]));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Kills the service's process at once, as a crash or an OOM kill would. */
export async function killHard(service: ServiceProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    if (service.child.exitCode !== null || service.child.signalCode !== null) return resolve();
    service.child.once('exit', () => resolve());
    service.child.kill('SIGKILL');
  });
}

/**
 * On PostgreSQL every fault suite of a run shares one database: a suite that changes the
 * processors' modes, the retry policies or the 3-D Secure settings puts the defaults back at its
 * end (on PGlite each deployment has its own database).
 */
export async function restoreOrchestrationDefaults(deploy: Deployment): Promise<void> {
  if (!DATABASE_URL) return;
  await deploy.inspect(async (prisma) => {
    await prisma.connectorSetting.deleteMany();
    await prisma.paymentPolicy.deleteMany();
    await prisma.merchant.updateMany({ data: { threeDsMode: 'WHEN_REQUIRED', threeDsOverAmount: null } });
  });
}
