// A circuit breaker per connector and instance (docs/ORCHESTRATION.md 4): after a run of
// technical failures the connector is left alone for a while, then tried with a trickle of
// requests before it carries traffic again. Per instance on purpose: it reacts to what this
// instance sees, without a shared store in the payment's path.

export type BreakerState = 'closed' | 'open' | 'half_open';

/** A decline is the processor working (it decided); only a technical failure counts against it. */
export type BreakerOutcome = 'success' | 'technical_failure' | 'declined';

export const BREAKER_RULES = Object.freeze({
  /** Opens after this many technical failures in a row… */
  failuresInARow: 5,
  /** …or when `windowFailures` of the last `windowAttempts` attempts made within `windowMs` failed. */
  windowAttempts: 20,
  windowFailures: 10,
  windowMs: 60_000,
  /** Stays open this long, then half-open. */
  openMs: 30_000,
  /** Half-open lets the 1st, 11th, 21st… request asked through. */
  halfOpenEvery: 10,
  /** Let-through requests that must succeed to close it. */
  halfOpenSuccesses: 3,
});

export type Clock = { now: () => number };

type Attempt = { at: number; failed: boolean };

export class CircuitBreaker {
  private readonly now: () => number;
  /** Closed: the last attempts, oldest first (at most `windowAttempts`). */
  private history: Attempt[] = [];
  private failuresInARow = 0;
  private openedAtMs: number | null = null;
  /** Half-open: requests asked, and let-through requests that succeeded. */
  private asked = 0;
  private trialSuccesses = 0;

  constructor({ now }: Clock) {
    this.now = now;
  }

  /** Open turns half-open by itself once `openMs` has passed: the clock decides, not a timer. */
  state(): BreakerState {
    if (this.openedAtMs === null) return 'closed';
    return this.now() - this.openedAtMs >= BREAKER_RULES.openMs ? 'half_open' : 'open';
  }

  /** When it last opened; null while closed. */
  get openedAt(): number | null {
    return this.openedAtMs;
  }

  get consecutiveFailures(): number {
    return this.failuresInARow;
  }

  /** Whether a request may go to the connector now. Half-open, each call counts as one request asked. */
  allowRequest(): boolean {
    const state = this.state();
    if (state !== 'half_open') return state === 'closed';
    this.asked += 1;
    return (this.asked - 1) % BREAKER_RULES.halfOpenEvery === 0;
  }

  /**
   * The outcome of a request to the connector. While open it is ignored (a request that started
   * before the breaker opened tells nothing new); half-open, any outcome is taken as the trial's.
   */
  record(outcome: BreakerOutcome): void {
    const state = this.state();
    if (state === 'open') return;
    const failed = outcome === 'technical_failure';
    this.failuresInARow = failed ? this.failuresInARow + 1 : 0;

    if (state === 'half_open') {
      if (failed) this.open();
      else {
        this.trialSuccesses += 1;
        if (this.trialSuccesses >= BREAKER_RULES.halfOpenSuccesses) this.close();
      }
      return;
    }

    const at = this.now();
    this.history.push({ at, failed });
    if (this.history.length > BREAKER_RULES.windowAttempts) this.history.shift();
    const recentFailures = this.history.filter((attempt) => attempt.failed && at - attempt.at < BREAKER_RULES.windowMs).length;
    if (this.failuresInARow >= BREAKER_RULES.failuresInARow || recentFailures >= BREAKER_RULES.windowFailures) this.open();
  }

  private open(): void {
    this.openedAtMs = this.now();
    this.asked = 0;
    this.trialSuccesses = 0;
  }

  /** A closed breaker starts afresh: what happened before it opened no longer counts. */
  private close(): void {
    this.openedAtMs = null;
    this.history = [];
    this.failuresInARow = 0;
    this.asked = 0;
    this.trialSuccesses = 0;
  }
}

export type BreakerSnapshot = {
  connector: string;
  state: BreakerState;
  openedAt: number | null;
  consecutiveFailures: number;
};

/** The breakers of one instance, one per connector, made on first use. */
export class BreakerBoard {
  private readonly clock: Clock;
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(clock: Clock) {
    this.clock = clock;
  }

  breakerFor(connectorId: string): CircuitBreaker {
    let breaker = this.breakers.get(connectorId);
    if (breaker === undefined) {
      breaker = new CircuitBreaker(this.clock);
      this.breakers.set(connectorId, breaker);
    }
    return breaker;
  }

  /** `breakerAllows` for evaluateRoutes: an arrow, so it can be handed over as it is. */
  readonly allows = (connectorId: string): boolean => this.breakerFor(connectorId).allowRequest();

  /** Every breaker used so far, by connector id. */
  snapshot(): BreakerSnapshot[] {
    return [...this.breakers]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([connector, breaker]) => ({
        connector,
        state: breaker.state(),
        openedAt: breaker.openedAt,
        consecutiveFailures: breaker.consecutiveFailures,
      }));
  }
}
