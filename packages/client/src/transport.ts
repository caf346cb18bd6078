import { apiErrorOf, PayApiError, PayNetworkError } from './errors.js';
import { delayBeforeRetry, parseRetryAfter, RETRYABLE_STATUSES, type RetryOptions } from './retry.js';

// One HTTP exchange with the service, replayed on a transient failure when replaying is safe.
// Knows nothing of tokens or endpoints: the client and the token source build the request.

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

export type HttpRequest = {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Whether sending the request twice does no more than sending it once: GET, DELETE (a second
   * cancellation answers the state the first left), the token request, and a POST that carries
   * an Idempotency-Key. Only such requests are replayed after no answer or a transient status.
   */
  replaySafe: boolean;
  signal?: AbortSignal;
  /** How to read a 2xx body (JSON by default). */
  read?: 'json' | 'text';
};

export type HttpAnswer = { status: number; headers: Headers; body: unknown };

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export async function send(request: HttpRequest, config: TransportConfig): Promise<HttpAnswer> {
  const { method, url } = request;
  for (let attempt = 1; ; attempt++) {
    const canRetry = request.replaySafe && attempt < config.retry.maxAttempts;
    let response: Response;
    let text: string;
    try {
      const signal = request.signal
        ? AbortSignal.any([request.signal, AbortSignal.timeout(config.timeoutMs)])
        : AbortSignal.timeout(config.timeoutMs);
      response = await config.fetch(url, { method, headers: request.headers, body: request.body, signal });
      text = await response.text();
    } catch (cause) {
      // The caller's own abort ends the call as it is; anything else is "no answer".
      if (request.signal?.aborted) throw cause;
      const delayMs = canRetry ? delayBeforeRetry(attempt, undefined, config.retry, config.random) : undefined;
      if (delayMs === undefined) throw new PayNetworkError({ method, url, attempts: attempt, cause });
      config.onRetry?.({ method, url, attempt, delayMs });
      await config.sleep(delayMs, request.signal);
      continue;
    }

    if (response.ok) {
      if (request.read === 'text') return { status: response.status, headers: response.headers, body: text };
      const body = parseBody(text);
      if (typeof body === 'string') {
        // A 2xx that is not JSON did not come from the service (a captive proxy, a wrong base URL).
        throw new PayApiError({ status: response.status, method, url, body, attempts: attempt });
      }
      return { status: response.status, headers: response.headers, body };
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
    await config.sleep(delayMs, request.signal);
  }
}
