import { apiErrorOf, PayApiError, PayNetworkError } from './errors.js';
import { delayBeforeRetry, parseRetryAfter, RETRYABLE_STATUSES, type RetryOptions } from './retry.js';

// The fetch openapi-fetch calls (its `fetch` option): one HTTP exchange with the service,
// replayed on a transient failure when replaying is safe, and a refusal thrown as a typed error.
// openapi-fetch builds the request from the generated types (paths, parameters, bodies) and reads
// the answer; this knows nothing of endpoints or tokens.

/** The subset of fetch the client uses (inject one for tests, proxies or instrumentation). */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type RetryEvent = {
  method: string;
  url: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** Its status, or undefined when it got no answer. */
  status?: number;
  delayMs: number;
};

export type TransportConfig = {
  fetch: FetchLike;
  retry: RetryOptions;
  /** Each attempt's own limit; an attempt that takes longer counts as getting no answer. */
  timeoutMs: number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of every retry before its wait (no headers or bodies: nothing secret). */
  onRetry?: (event: RetryEvent) => void;
};

/**
 * Whether sending the request twice does no more than sending it once: GET, DELETE (a second
 * cancellation answers the state the first left), the token request, and a POST that carries an
 * Idempotency-Key. Only such requests are replayed after no answer or a transient status.
 */
export type ReplaySafe = (request: Request) => boolean;

export const replaySafeByDefault =
  (tokenUrl?: string): ReplaySafe =>
  (request) =>
    request.method === 'GET' ||
    request.method === 'DELETE' ||
    request.headers.has('idempotency-key') ||
    (tokenUrl !== undefined && request.method === 'POST' && request.url === tokenUrl);

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A fetch for openapi-fetch that retries what is safe to retry and throws PayApiError or
 * PayNetworkError. The caller's signal comes here rather than on the Request: each attempt
 * combines it with its own timeout.
 */
export function retryingFetch(
  config: TransportConfig,
  replaySafe: ReplaySafe,
  callerSignal?: AbortSignal,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const { method, url } = request;
    const headers = Object.fromEntries(request.headers);
    // Read once: every attempt sends the same bytes.
    const body = method === 'GET' || method === 'HEAD' ? undefined : await request.text();
    const safe = replaySafe(request);
    const wantsJson = (request.headers.get('accept') ?? '').includes('json');
    for (let attempt = 1; ; attempt++) {
      const canRetry = safe && attempt < config.retry.maxAttempts;
      let response: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(config.timeoutMs);
        const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
        response = await config.fetch(url, { method, headers, body: body || undefined, signal });
        text = await response.text();
      } catch (cause) {
        // The caller's own abort ends the call as it is; anything else is "no answer".
        if (callerSignal?.aborted) throw cause;
        const delayMs = canRetry ? delayBeforeRetry(attempt, undefined, config.retry, config.random) : undefined;
        if (delayMs === undefined) throw new PayNetworkError({ method, url, attempts: attempt, cause });
        config.onRetry?.({ method, url, attempt, delayMs });
        await config.sleep(delayMs, callerSignal);
        continue;
      }

      if (response.ok) {
        // A 2xx that is not JSON where JSON was asked for did not come from the service (a captive
        // proxy, a wrong base URL).
        if (wantsJson && typeof parseBody(text) === 'string') {
          throw new PayApiError({ status: response.status, method, url, body: text, attempts: attempt });
        }
        return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
      }

      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const delayMs =
        canRetry && RETRYABLE_STATUSES.has(response.status)
          ? delayBeforeRetry(attempt, retryAfterMs, config.retry, config.random)
          : undefined;
      if (delayMs === undefined) {
        throw apiErrorOf({
          status: response.status,
          method,
          url,
          body: parseBody(text),
          requestId: response.headers.get('x-request-id') ?? undefined,
          retryAfterMs,
          attempts: attempt,
        });
      }
      config.onRetry?.({ method, url, attempt, status: response.status, delayMs });
      await config.sleep(delayMs, callerSignal);
    }
  };
}
