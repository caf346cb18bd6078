// A bulkhead per connector and instance (docs/ORCHESTRATION.md 4, docs/DECISIONS.md "A bulkhead
// per processor"): at most `limit` calls to one processor in flight. A processor that slows
// down (answers in 10 s, or hangs until the connector's timeout) fills its own bulkhead, not the
// service's memory, and routing treats a full one as an open breaker: the payment goes to the
// next eligible processor. Never a queue: a call that finds it full is refused at once.

/** What one call in flight is reckoned to hold (its request, answer, socket and the charge around it). */
export const CALL_BYTES = 64 * 1024;
/** The share of the heap one connector's calls may hold. */
const HEAP_SHARE = 1 / 8;
/** Calls a second one connector is sized to carry at its timeout (a sale day's peak, per instance). */
const CALLS_PER_SECOND = 100;
const FLOOR = 16;

/**
 * A connector's default limit: the calls it holds when it answers at its timeout at a sale day's
 * peak rate, within its share of the heap, and never fewer than FLOOR.
 */
export function defaultBulkheadLimit(timeoutMs: number, heapLimitBytes: number): number {
  const byTimeout = Math.ceil((CALLS_PER_SECOND * timeoutMs) / 1000);
  const byMemory = Math.floor((heapLimitBytes * HEAP_SHARE) / CALL_BYTES);
  return Math.max(FLOOR, Math.min(byTimeout, byMemory));
}

export type BulkheadSnapshot = { connector: string; limit: number; inFlight: number; refused: number };

export class Bulkhead {
  private calls = 0;
  private refusals = 0;

  constructor(readonly limit: number) {}

  get inFlight(): number {
    return this.calls;
  }

  get refused(): number {
    return this.refusals;
  }

  hasRoom(): boolean {
    return this.calls < this.limit;
  }

  /** A call in (its release, to call once it is answered; more calls do nothing), or null: full, refused. */
  enter(): (() => void) | null {
    if (!this.hasRoom()) {
      this.refusals += 1;
      return null;
    }
    return this.admit();
  }

  /** A call that is never refused (a reversal or a refund gives money back): counted all the same. */
  enterAlways(): () => void {
    return this.admit();
  }

  private admit(): () => void {
    this.calls += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.calls -= 1;
    };
  }
}

/** The bulkheads of one instance, one per connector, made on its first call with the limit `limitOf` gives. */
export class BulkheadBoard {
  private readonly bulkheads = new Map<string, Bulkhead>();

  constructor(private readonly limitOf: (connectorId: string, timeoutMs: number) => number) {}

  for(connector: { id: string; timeoutMs: number }): Bulkhead {
    let bulkhead = this.bulkheads.get(connector.id);
    if (!bulkhead) {
      bulkhead = new Bulkhead(this.limitOf(connector.id, connector.timeoutMs));
      this.bulkheads.set(connector.id, bulkhead);
    }
    return bulkhead;
  }

  /** `breakerAllows`' companion for evaluateRoutes: whether a call to the connector would get in now (one never called has room). */
  readonly hasRoom = (connectorId: string): boolean => this.bulkheads.get(connectorId)?.hasRoom() ?? true;

  snapshot(): BulkheadSnapshot[] {
    return [...this.bulkheads]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([connector, bulkhead]) => ({
        connector,
        limit: bulkhead.limit,
        inFlight: bulkhead.inFlight,
        refused: bulkhead.refused,
      }));
  }
}

/** `connector=count,…`: the calls in flight each named connector may hold, or what is wrong with it. */
export function parseCallLimits(value: string): Record<string, number> | string {
  const limits: Record<string, number> = {};
  for (const entry of value.split(',').map((each) => each.trim())) {
    if (entry === '') continue;
    const match = /^([a-z0-9][a-z0-9-]{0,63})=(\d{1,6})$/.exec(entry);
    if (!match || Number(match[2]) < 1) return `"${entry}" must be connector=count, the count 1 or more`;
    limits[match[1]!] = Number(match[2]);
  }
  return limits;
}
