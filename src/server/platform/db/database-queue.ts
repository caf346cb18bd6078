import { StandingDelay, STANDING_INTERVAL_MS } from '@/server/platform/observability/standing-delay';

// The database's queue, as admission control reads it (platform/http/service-pressure.ts): how
// long statements wait for the database before they run. On PostgreSQL that is the wait for a
// connection of the pool; on the embedded database, for its thread (one statement at a time, a
// transaction holding it between its statements). A charge waiting on its processor holds
// neither, so it is no part of this queue.

/** Milliseconds on a clock that every thread of the process shares (the database's thread stamps its replies with it). */
export function sharedClock(): number {
  return performance.timeOrigin + performance.now();
}

/** The part of pg's Pool this reads and wraps. */
export type WatchedPool = {
  connect: (...args: never[]) => unknown;
  totalCount: number;
  idleCount: number;
  waitingCount: number;
};

export class DatabaseQueue {
  private readonly waiting = new Map<number, number>();
  private readonly standingWait = new StandingDelay();
  private readonly pools = new Set<WatchedPool>();
  private nextToken = 1;

  /** A statement (or a connection's request) is sent; its token, for `started`. */
  enqueued(at = sharedClock()): number {
    const token = this.nextToken++;
    this.waiting.set(token, at);
    return token;
  }

  /** It began to run at `at` (it waited since it was sent); a token already started or unknown does nothing. */
  started(token: number, at = sharedClock()): void {
    const sentAt = this.waiting.get(token);
    if (sentAt === undefined) return;
    this.waiting.delete(token);
    this.standingWait.record(Math.max(0, at - sentAt), at);
  }

  /**
   * What a statement is made to wait now: the least wait over the last interval (a burst drains,
   * a standing queue delays everyone), or, when the oldest statement still waiting has waited
   * longer than an interval, that wait (a stall lets nothing through to be measured).
   */
  waitMs(now = sharedClock()): number {
    const oldest = this.waiting.values().next();
    const stalled = oldest.done ? 0 : now - oldest.value;
    const standing = this.standingWait.standing(now);
    return stalled >= STANDING_INTERVAL_MS ? Math.max(stalled, standing) : standing;
  }

  /** Statements (or requests for a connection) not yet running. */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /** Connections handed out by the watched pools (PostgreSQL); null on the embedded database. */
  connectionsInUse(): number | null {
    if (this.pools.size === 0) return null;
    let inUse = 0;
    for (const pool of this.pools) inUse += pool.totalCount - pool.idleCount;
    return inUse;
  }

  /**
   * Times each request of `pool` for a connection (pg's Pool.connect, which its query() calls as
   * well), with a callback or as a promise.
   */
  watch(pool: WatchedPool): void {
    if (this.pools.has(pool)) return;
    this.pools.add(pool);
    const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => unknown;
    const replaced = (callback?: (...args: unknown[]) => void) => {
      const token = this.enqueued();
      if (callback) {
        return connect((...args: unknown[]) => {
          this.started(token);
          callback(...args);
        });
      }
      return (connect() as Promise<unknown>).finally(() => this.started(token));
    };
    pool.connect = replaced;
  }
}

// One per process, shared by every bundle of the Next server (like the database handle).
const slot = globalThis as typeof globalThis & { __payDatabaseQueue?: DatabaseQueue };

export function databaseQueue(): DatabaseQueue {
  slot.__payDatabaseQueue ??= new DatabaseQueue();
  return slot.__payDatabaseQueue;
}
