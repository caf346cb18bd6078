import { randomUUID } from 'node:crypto';
import { callbackVerifier } from './callback-keys.js';
import { PayApiError } from './errors.js';
import { DEFAULT_RETRY, sleep, type RetryOptions } from './retry.js';
import { TokenSource } from './token.js';
import { send, type FetchLike, type HttpRequest, type RetryEvent, type TransportConfig } from './transport.js';
import type {
  CancellationResponse,
  CaptureRequest,
  ChargeRequest,
  ChargeResponse,
  EventListResponse,
  EventQuery,
  OperationRef,
  PayEvent,
  RefundCreateResponse,
  RefundListResponse,
  RefundQuery,
  RefundRequest,
  TransactionQueryResponse,
  TransactionRef,
} from './types.js';

// The client of {base_url}: one method per endpoint of the OpenAPI document, each with the
// token, the version header, retries and (for charges and refunds) an Idempotency-Key.

/** The ALG-API-VERSION the interface documents as default (and the one the service supports). */
export const API_VERSION = '1709847567';

export type PayClientOptions = {
  /** {base_url}, e.g. https://sandbox.pagos.pe/api */
  baseUrl: string;
  /** {auth_url}, e.g. https://sandbox.pagos.pe/oauth (the token endpoint is {auth_url}/token) */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for (create:token is added); default: every scope of the credential. */
  scopes?: readonly string[];
  /** client_secret_post (default, as the interface) or client_secret_basic. */
  clientAuth?: 'post' | 'basic';
  /** Sent as the token request's `audience` when set (the service takes {base_url}/ by default). */
  audience?: string;
  apiVersion?: string;
  /** `payment-facilitator-code`, for facilitator credentials acting for a merchant. */
  facilitatorCode?: string;
  fetch?: FetchLike;
  retry?: Partial<RetryOptions>;
  /** Each attempt's limit in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Renew the token this long before it expires (default 60 s, at most a tenth of its lifetime). */
  renewTokenBeforeMs?: number;
  onRetry?: (event: RetryEvent) => void;
  /** Seams for tests: the clock, the jitter, the wait, the key maker. */
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  newIdempotencyKey?: () => string;
};

export type CallOptions = {
  signal?: AbortSignal;
  /** Sent as X-Request-Id (the service echoes it and logs under it). */
  requestId?: string;
};

export type IdempotentCallOptions = CallOptions & {
  /**
   * The key of this logical request; default: a new UUID per call. Every retry of the call sends
   * the same key; pass your own to make a retry of *your* call (after a crash, say) safe too.
   */
  idempotencyKey?: string;
};

type Query = Record<string, string | undefined>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');
const segment = encodeURIComponent;

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createPayClient(options: PayClientOptions) {
  const baseUrl = trimSlash(options.baseUrl);
  const apiVersion = options.apiVersion ?? API_VERSION;
  const now = options.now ?? Date.now;
  const newKey = options.newIdempotencyKey ?? randomUUID;
  const transport: TransportConfig = {
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeoutMs: options.timeoutMs ?? 30_000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleep,
    onRetry: options.onRetry,
  };
  const tokens = new TokenSource(
    {
      authUrl: trimSlash(options.authUrl),
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes: options.scopes,
      clientAuth: options.clientAuth ?? 'post',
      audience: options.audience,
      apiVersion,
      renewBeforeMs: options.renewTokenBeforeMs ?? 60_000,
      now,
    },
    transport,
  );

  type Call = Omit<HttpRequest, 'headers' | 'url' | 'body'> & {
    path: string;
    headers?: Record<string, string>;
    json?: unknown;
    call?: CallOptions;
  };

  /** A request with the token; a 401 (the token expired early or was revoked) renews it once. */
  async function authorized<T>(request: Call): Promise<T> {
    for (let renewed = false; ; renewed = true) {
      const token = await tokens.get();
      const headers: Record<string, string> = {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        'ALG-API-VERSION': apiVersion,
        ...(request.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(request.call?.requestId ? { 'X-Request-Id': request.call.requestId } : {}),
        ...request.headers,
      };
      try {
        const answer = await send(
          {
            method: request.method,
            url: `${baseUrl}${request.path}`,
            headers,
            body: request.json === undefined ? undefined : JSON.stringify(request.json),
            replaySafe: request.replaySafe,
            signal: request.call?.signal,
            read: request.read,
          },
          transport,
        );
        return answer.body as T;
      } catch (error) {
        // A 401 means the request was refused before any work: replaying it with a new token is safe.
        if (renewed || !(error instanceof PayApiError) || error.status !== 401) throw error;
        tokens.invalidate(token);
      }
    }
  }

  const facilitated = (): Record<string, string> =>
    options.facilitatorCode ? { 'payment-facilitator-code': options.facilitatorCode } : {};
  const idempotent = (call: IdempotentCallOptions | undefined) => ({ 'Idempotency-Key': call?.idempotencyKey ?? newKey() });

  async function* pages<Q extends { cursor?: string }, P extends { next_cursor?: string | null }>(
    list: (query: Q, call?: CallOptions) => Promise<P>,
    query: Q,
    call?: CallOptions,
  ): AsyncGenerator<P> {
    let cursor = query.cursor;
    do {
      const page = await list({ ...query, cursor }, call);
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  const charges = {
    /** POST /charges, with an Idempotency-Key (the same on every retry of this call). */
    create: (body: ChargeRequest, call?: IdempotentCallOptions) =>
      authorized<ChargeResponse>({
        method: 'POST',
        path: '/charges',
        json: body,
        headers: idempotent(call),
        replaySafe: true,
        call,
      }),
    /** GET /charges/{merchant_code}/{merchant_operation_number}/{transaction_id} */
    get: (ref: TransactionRef, call?: CallOptions) =>
      authorized<TransactionQueryResponse>({
        method: 'GET',
        path: `/charges/${segment(ref.merchant_code)}/${segment(ref.merchant_operation_number)}/${segment(ref.transaction_id)}`,
        headers: facilitated(),
        replaySafe: true,
        call,
      }),
    /**
     * DELETE /charges/{merchant_code}/{merchant_operation_number}: cancel or reverse. Replayed like
     * a GET: a second DELETE of a CANCELADO or EXTORNADO operation answers 200 with that state, and
     * no DELETE can start a payment, so a retry never does more than the first attempt.
     */
    cancel: (ref: OperationRef, call?: CallOptions) =>
      authorized<CancellationResponse>({
        method: 'DELETE',
        path: `/charges/${segment(ref.merchant_code)}/${segment(ref.merchant_operation_number)}`,
        headers: facilitated(),
        replaySafe: true,
        call,
      }),
    /**
     * POST /charges/{merchant_code}/{merchant_operation_number}/capture: all of a CARD payment
     * authorized to be captured later, or `amount` of it, once, with an Idempotency-Key. A
     * retry never captures twice: the service captures once per authorization.
     */
    capture: (ref: OperationRef, body: CaptureRequest = {}, call?: IdempotentCallOptions) =>
      authorized<CancellationResponse>({
        method: 'POST',
        path: `/charges/${segment(ref.merchant_code)}/${segment(ref.merchant_operation_number)}/capture`,
        json: body,
        headers: { ...facilitated(), ...idempotent(call) },
        replaySafe: true,
        call,
      }),
  };

  const listRefunds = (query: RefundQuery = {}, call?: CallOptions) =>
    authorized<RefundListResponse>({
      method: 'GET',
      path: `/refund${queryString(query)}`,
      headers: facilitated(),
      replaySafe: true,
      call,
    });
  const refunds = {
    /** POST /refund, with an Idempotency-Key (the same on every retry of this call). */
    create: (body: RefundRequest, call?: IdempotentCallOptions) =>
      authorized<RefundCreateResponse>({
        method: 'POST',
        path: '/refund',
        json: body,
        headers: { ...facilitated(), ...idempotent(call) },
        replaySafe: true,
        call,
      }),
    /** GET /refund with the interface's filters; one page (see `pages` for all). */
    list: listRefunds,
    /** Every page of GET /refund, following next_cursor. */
    pages: (query: RefundQuery = {}, call?: CallOptions) => pages(listRefunds, query, call),
    /** GET /refund/{merchant_code}/{merchant_operation_number} */
    getByOperation: (ref: OperationRef, call?: CallOptions) =>
      authorized<RefundListResponse>({
        method: 'GET',
        path: `/refund/${segment(ref.merchant_code)}/${segment(ref.merchant_operation_number)}`,
        headers: facilitated(),
        replaySafe: true,
        call,
      }),
  };

  const listEvents = (query: EventQuery = {}, call?: CallOptions) =>
    authorized<EventListResponse>({
      method: 'GET',
      path: `/events${queryString(query)}`,
      headers: facilitated(),
      replaySafe: true,
      call,
    });
  const events = {
    /** GET /events (scope get:events): one page, oldest first. */
    list: listEvents,
    /** Every page of GET /events from `query.cursor` (or the start), following next_cursor. */
    pages: (query: EventQuery = {}, call?: CallOptions) => pages(listEvents, query, call),
    /** Every event from `query.cursor` (or the start), page after page. */
    async *all(query: EventQuery = {}, call?: CallOptions): AsyncGenerator<PayEvent> {
      for await (const page of pages(listEvents, query, call)) yield* page.events;
    },
  };

  return { charges, refunds, events, callbacks: callbackVerifier(baseUrl, transport, now), baseUrl };
}

export type PayClient = ReturnType<typeof createPayClient>;
