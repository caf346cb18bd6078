// When and how long to wait before replaying a request. Only the transport decides *whether* a
// request may be replayed at all (retry-safe methods, or a POST carrying an Idempotency-Key).

export type RetryOptions = {
  /** Attempts in all, the first included (1 turns retries off). */
  maxAttempts: number;
  /** The first backoff; each further one doubles, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * The longest Retry-After the client waits out; a longer one ends the call with the error
   * (the caller decides whether to come back that much later).
   */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 4, baseDelayMs: 200, maxDelayMs: 5_000, maxRetryAfterMs: 30_000 };

/**
 * Statuses that say "not now" rather than "no": rate limited (429), a gateway in front of the
 * service that could not reach it or timed out (502, 504), and the service's own 503 (database
 * briefly unavailable, code 02, Retry-After: 1). A 500 is not among them: it is an unexpected
 * fault, not a transient one, and a replay would most likely meet it again.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Exponential backoff with full jitter before retry number `retry` (1 for the first retry):
 * a random wait in [0, min(max, base * 2^(retry-1))], so that clients failing together do not
 * come back together.
 */
export function backoffMs(retry: number, options: RetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(random() * ceiling);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `retry`, or undefined when the server asked for a longer one than
 * the client waits. Never shorter than Retry-After: the jittered backoff only adds to it when it
 * is the longer of the two.
 */
export function delayBeforeRetry(
  retry: number,
  retryAfterMs: number | undefined,
  options: RetryOptions,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > options.maxRetryAfterMs) return undefined;
  return Math.max(retryAfterMs ?? 0, backoffMs(retry, options, random));
}

/** setTimeout as a promise that an abort signal ends early (with the signal's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
