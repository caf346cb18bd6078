// Admission control (docs/DECISIONS.md, "Load"), from the queue's wait: a class of requests
// always admits so many in flight (its floor), and more only while its oldest request in flight
// has waited less than the target; past that, a request is answered at once (503, code 02,
// Retry-After) instead of joining a queue that only grows. In flight is the queue: what the event
// loop and the database are working through. Under overload the class thus keeps about
// (rate served × target) in flight, so an admitted request waits about the target whatever the
// machine, and a burst into an idle service is admitted whole. Payer pages and processors'
// notifications have classes of their own, so a merchant's burst fills only the merchant's.

export const ADMISSION_CLASSES = ['charges', 'reads', 'token', 'console', 'payer', 'notifications'] as const;
export type AdmissionClass = (typeof ADMISSION_CLASSES)[number];
export type AdmissionLimits = Record<AdmissionClass, number>;

/**
 * Requests in flight each class always admits. A charge holds the 2-core machine of
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
    if (!match || !name || !ADMISSION_CLASSES.includes(name) || Number(match[2]) < 1) {
      return `"${entry}" must be class=count, the class one of ${ADMISSION_CLASSES.join(', ')}, the count 1 or more`;
    }
    limits[name] = Number(match[2]);
  }
  return limits;
}

export type Admission = {
  /** A release (call it once the request is answered or gone; more calls do nothing), or null: refuse it. */
  admit(name: AdmissionClass, now?: number): (() => void) | null;
  inFlight(name: AdmissionClass): number;
};

/** `floors`: what each class always admits; `waitMs`: how long its oldest request may have been in flight for it to admit more. */
export function admissionControl(floors: AdmissionLimits, waitMs: number, clock = () => performance.now()): Admission {
  // Each class's requests in flight by their start, oldest first (a Map keeps insertion order).
  const started = Object.fromEntries(ADMISSION_CLASSES.map((name) => [name, new Map<object, number>()])) as Record<
    AdmissionClass,
    Map<object, number>
  >;
  return {
    admit(name, now = clock()) {
      const inFlight = started[name];
      if (inFlight.size >= floors[name]) {
        const oldest = inFlight.values().next().value!;
        if (now - oldest >= waitMs) return null;
      }
      const key = {};
      inFlight.set(key, now);
      return () => inFlight.delete(key);
    },
    inFlight: (name) => started[name].size,
  };
}
