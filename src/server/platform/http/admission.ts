import type { PressureSignal } from './service-pressure';
import type { AwayClock } from './time-away';

// Admission control (docs/DECISIONS.md, "Overload: admission from the service's own queues"):
// a class of requests always admits so many in service (its floor); past it, a request is
// admitted while the service keeps up: its own queues (service-pressure.ts: the event loop, the
// database, the heap) and the longest request in service under their limits. Otherwise a burst's
// allowance (BURST_FACTOR × the floor, given back after a calm second) is spent, then the request
// is answered at once (503, code 02, Retry-After) instead of joining a queue that only grows.
// Requests in flight are not the queue: a charge waiting a second on its processor is away
// (time-away.ts) and costs the service nothing meanwhile, so a sale day's hundreds are admitted.
// Payer pages and processors' notifications have classes of their own, so a merchant's burst
// never takes their floor.

export const ADMISSION_CLASSES = ['charges', 'reads', 'token', 'console', 'payer', 'notifications'] as const;
export type AdmissionClass = (typeof ADMISSION_CLASSES)[number];
export type AdmissionLimits = Record<AdmissionClass, number>;

/**
 * Requests in service each class always admits. A charge holds the 2-core machine of
 * docs/BENCHMARKS.md about 3 ms at saturation, so 16 already saturate it; a token is cheap (an
 * HMAC) and rate limited per client and address, so its floor is high; a console page loads
 * with several calls at once, for few signed-in operators.
 */
export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  charges: 16,
  reads: 24,
  token: 128,
  console: 64,
  payer: 16,
  notifications: 16,
};
/** `class=count,…` over the defaults, or what is wrong with it. */
export function parseAdmissionLimits(value: string): AdmissionLimits | string {
  const limits = { ...DEFAULT_ADMISSION_LIMITS };
  for (const entry of value.split(',').map((each) => each.trim())) {
    if (entry === '') continue;
    const match = /^([a-z]+)=(\d{1,7})$/.exec(entry);
    const name = match?.[1] as AdmissionClass | undefined;
    if (!match || !name || !ADMISSION_CLASSES.includes(name)) {
      return `"${entry}" must be class=count, the class one of ${ADMISSION_CLASSES.join(', ')}, the count 0 or more`;
    }
    limits[name] = Number(match[2]);
  }
  return limits;
}

/** Why a request was refused: one of the service's queues past its limit, or requests in service waiting past the target. */
export type RefusalSignal = PressureSignal | 'service_time';

export type Admitted = { release: () => void; clock: AwayClock } | { refused: RefusalSignal };

export type Admission = {
  /** Admits a request of the class (call `release` once it is answered or gone; more calls do nothing), or says what refused it. */
  admit(name: AdmissionClass, now?: number): Admitted;
  /** Requests of the class in flight, and those of them in the service (not away). */
  inFlight(name: AdmissionClass): number;
  inService(name: AdmissionClass): number;
};

type ClassState = {
  tickets: Set<Ticket>;
  inService: number;
  /** Requests past the floor it may still admit under pressure (a burst's allowance), and when pressure was last met. */
  credit: number;
  pressedAt: number;
};

/** A class admits a burst of this many times its floor past it whatever the pressure, once calm for CALM_MS. */
export const BURST_FACTOR = 4;
export const CALM_MS = 1_000;

/** One admitted request: its time in the service is its age less its time away (time-away.ts). */
class Ticket implements AwayClock {
  private awayCount = 0;
  private awayMs = 0;
  private awaySince = 0;
  released = false;

  constructor(
    private readonly state: ClassState,
    readonly admittedAt: number,
  ) {}

  get isAway(): boolean {
    return this.awayCount > 0;
  }

  leave(now: number): void {
    this.awayCount += 1;
    if (this.awayCount > 1) return;
    this.awaySince = now;
    if (!this.released) this.state.inService -= 1;
  }

  back(now: number): void {
    this.awayCount -= 1;
    if (this.awayCount > 0) return;
    this.awayMs += now - this.awaySince;
    if (!this.released) this.state.inService += 1;
  }

  serviceMs(now: number): number {
    return now - this.admittedAt - this.awayMs;
  }
}

/**
 * `floors`: the requests in service each class always admits; `waitMs`: how long the longest
 * request in service may have been in it for the class to admit more; `pressure`: the service's
 * queue past its limit, if any (service-pressure.ts).
 */
export function admissionControl(
  floors: AdmissionLimits,
  waitMs: number,
  pressure: () => PressureSignal | null,
  clock = () => performance.now(),
): Admission {
  const classes = Object.fromEntries(
    ADMISSION_CLASSES.map((name) => [
      name,
      { tickets: new Set(), inService: 0, credit: BURST_FACTOR * floors[name], pressedAt: Number.NEGATIVE_INFINITY },
    ]),
  ) as Record<AdmissionClass, ClassState>;
  const longestInService = (state: ClassState, now: number) => {
    let longest = 0;
    for (const ticket of state.tickets) if (!ticket.isAway) longest = Math.max(longest, ticket.serviceMs(now));
    return longest;
  };
  return {
    admit(name, now = clock()) {
      const state = classes[name];
      // A calm second gives the allowance back, whatever came in meanwhile: a class that spent it
      // and then saw only traffic under its floor must not meet its next burst with none left.
      if (now - state.pressedAt >= CALM_MS) state.credit = BURST_FACTOR * floors[name];
      if (state.inService >= floors[name]) {
        const pressed = pressure() ?? (longestInService(state, now) >= waitMs ? 'service_time' : null);
        if (pressed) {
          // A burst into a calm service is admitted whole: it drains. Pressure that lasts spends
          // the allowance, and then refuses, until a calm second gives it back.
          state.pressedAt = now;
          if (state.credit === 0) return { refused: pressed };
          state.credit -= 1;
        }
      }
      const ticket = new Ticket(state, now);
      state.tickets.add(ticket);
      state.inService += 1;
      return {
        clock: ticket,
        release: () => {
          if (ticket.released) return;
          ticket.released = true;
          state.tickets.delete(ticket);
          if (!ticket.isAway) state.inService -= 1;
        },
      };
    },
    inFlight: (name) => classes[name].tickets.size,
    inService: (name) => classes[name].inService,
  };
}
