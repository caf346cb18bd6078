import type { Db } from '@/server/platform/db/client';
import { env } from '@/env';
import { logError, logInfo } from '@/server/platform/log';
import { isTransientDatabaseFault } from '@/server/platform/db/transient-faults';
import { settleAuthorized } from '@/server/modules/charges/settle-authorized';
import { renewLeases, startDeliveries, type InFlight } from '@/server/modules/events/delivery/deliver-callbacks';
import { expirePending } from '@/server/modules/charges/expire-pending';
import { processRefunds } from '@/server/modules/refunds/process-refunds';
import { syncStatuses } from '@/server/modules/charges/sync-status';
import { vacuumClaims } from '@/server/modules/charges/attempts/in-flight';
import { syncCaptures, voidUncaptured } from '@/server/modules/charges/capture-jobs';
import { dropExpiredCards } from '@/server/modules/charges/card-vault';
import { rewrapVault } from '@/server/modules/customers/vault';
import { sweepCardSaves } from '@/server/modules/customers/card-saves';
import { deleteRetiredCardTokens } from '@/server/modules/customers/card-tokens';
import { sweepDatabaseBuckets } from '@/server/platform/rate-limit/database-rate-limit';
import { disableFailingEndpoints } from '@/server/modules/events/webhooks/webhook-endpoints';

const BUCKET_SWEEP_MS = 60_000;

export type Worker = { stop(): Promise<void> };

/**
 * The background worker: every poll it expires due payments, settles AUTORIZADO transactions
 * older than the settlement delay, moves refunds on, asks processors about attempts and captures
 * left in doubt, voids authorizations whose capture window passed, drops vaulted cards whose challenge expired, keeps the leases of its callback deliveries
 * under way and starts due ones; once a minute it drops the rate-limit buckets nobody has used
 * for ten minutes and disables the webhook endpoints that have failed for
 * WEBHOOK_DISABLE_AFTER_DAYS, deletes the card saves of charges that ended unapproved and, at their processors, the tokens of removed cards. On the embedded database it also vacuums the attempts in flight once a thousand are dead. Any number may run over one PostgreSQL database: state moves are
 * claimed with SKIP LOCKED, callback deliveries with leases taken in turns under an advisory lock.
 */
export function startWorker(prisma: Db, name: string): Worker {
  const config = env();
  const inFlight: InFlight = new Map();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let sweptAt = 0;
  let renewedAt = Date.now();

  // A database outage fails every job of every poll: said once when it starts and once when it
  // ends, not twice a second for as long as it lasts.
  let unavailableSince: number | undefined;
  const job = async (label: string, run: () => Promise<unknown>) => {
    try {
      await run();
      if (unavailableSince !== undefined) {
        logInfo('worker jobs resumed: the database is back', { worker: name, unavailable_ms: Date.now() - unavailableSince });
        unavailableSince = undefined;
      }
    } catch (error) {
      if (!isTransientDatabaseFault(error)) return logError(`worker job ${label} failed`, error, { worker: name });
      if (unavailableSince !== undefined) return;
      unavailableSince = Date.now();
      logError('worker jobs paused: the database is unavailable', error, { worker: name, job: label });
    }
  };

  const tick = async () => {
    const now = new Date();
    await job('expiry', () => expirePending(prisma, now));
    await job('settlement', () => settleAuthorized(prisma, new Date(now.getTime() - config.SETTLEMENT_DELAY_SECONDS * 1000)));
    await job('refunds', () => processRefunds(prisma, config.REFUND_PROCESSING_DELAY_SECONDS, now));
    await job('status sync', () => syncStatuses(prisma, now));
    await job('capture sync', () => syncCaptures(prisma, now));
    await job('capture window', () => voidUncaptured(prisma, now));
    await job('card vault', () => dropExpiredCards(prisma, now));
    await job('vault re-wrap', () => rewrapVault(prisma));
    if (now.getTime() - renewedAt >= (config.CALLBACK_LEASE_SECONDS * 1000) / 3) {
      renewedAt = now.getTime();
      await job('callback leases', () => renewLeases(prisma, inFlight));
    }
    await job('callbacks', () => startDeliveries(prisma, inFlight, config.CALLBACK_CONCURRENCY));
    if (now.getTime() - sweptAt >= BUCKET_SWEEP_MS) {
      sweptAt = now.getTime();
      await job('rate buckets', () => sweepDatabaseBuckets(prisma));
      await job('webhook endpoints', () => disableFailingEndpoints(prisma, config.WEBHOOK_DISABLE_AFTER_DAYS, now));
      await job('card saves', () => sweepCardSaves(prisma));
      await job('card tokens', () => deleteRetiredCardTokens(prisma));
    }
    if (!config.DATABASE_URL) await job('claims vacuum', () => vacuumClaims(prisma));
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, config.WORKER_POLL_MS);
  };

  logInfo('worker started', { worker: name, poll_ms: config.WORKER_POLL_MS });
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await Promise.allSettled([...inFlight.values()].map((each) => each.delivery));
    },
  };
}
