import { randomUUID } from 'node:crypto';
import { answered, apiClient, type Answered } from './api.js';
import { callbackVerifier } from './callback-keys.js';
import { PayApiError } from './errors.js';
import { DEFAULT_RETRY, sleep, type RetryOptions } from './retry.js';
import { TokenSource } from './token.js';
import { replaySafeByDefault, type FetchLike, type RetryEvent, type TransportConfig } from './transport.js';
import type {
  CaptureRequest,
  CardRef,
  CardToSave,
  ChargeRequest,
  CustomerRef,
  CustomerRequest,
  EventQuery,
  OperationRef,
  PayEvent,
  RefundQuery,
  RefundRequest,
  TransactionRef,
} from './types.js';

// The client of {base_url}: one method per endpoint of the OpenAPI document (openapi-fetch over
// its generated types), each with the token, the version header, retries and (for charges,
// captures and refunds) an Idempotency-Key.

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

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createPayClient(options: PayClientOptions) {
  const baseUrl = trimSlash(options.baseUrl);
  const authUrl = trimSlash(options.authUrl);
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
  const api = apiClient(baseUrl, transport, replaySafeByDefault(`${authUrl}/token`), { 'ALG-API-VERSION': apiVersion });
  const tokens = new TokenSource(
    {
      authUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scopes: options.scopes,
      clientAuth: options.clientAuth ?? 'post',
      audience: options.audience,
      renewBeforeMs: options.renewTokenBeforeMs ?? 60_000,
      now,
    },
    api,
  );

  /**
   * A call with the token and the caller's options; a 401 (the token expired early or was
   * revoked) renews the token once: the request was refused before any work, so replaying it is safe.
   */
  async function authorized<T>(
    call: CallOptions | undefined,
    run: (init: { headers: Record<string, string>; fetch: (request: Request) => Promise<Response> }) => Promise<Answered<T>>,
  ): Promise<T> {
    for (let renewed = false; ; renewed = true) {
      const token = await tokens.get();
      const headers: Record<string, string> = {
        authorization: `Bearer ${token}`,
        ...(call?.requestId ? { 'X-Request-Id': call.requestId } : {}),
      };
      try {
        return answered(await run({ headers, ...api.abortable(call?.signal) }));
      } catch (error) {
        if (renewed || !(error instanceof PayApiError) || error.status !== 401) throw error;
        tokens.invalidate(token);
      }
    }
  }

  const facilitated = (): Record<string, string> =>
    options.facilitatorCode ? { 'payment-facilitator-code': options.facilitatorCode } : {};
  /** The call's key, made once: a replay after a renewed token carries the same one. */
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
    create: (body: ChargeRequest, call?: IdempotentCallOptions) => {
      const key = idempotent(call);
      return authorized(call, (init) => api.POST('/charges', { body, headers: { ...init.headers, ...key }, fetch: init.fetch }));
    },
    /** GET /charges/{merchant_code}/{merchant_operation_number}/{transaction_id} */
    get: (ref: TransactionRef, call?: CallOptions) =>
      authorized(call, (init) =>
        api.GET('/charges/{merchant_code}/{merchant_operation_number}/{transaction_id}', {
          params: { path: ref },
          headers: { ...init.headers, ...facilitated() },
          fetch: init.fetch,
        }),
      ),
    /**
     * DELETE /charges/{merchant_code}/{merchant_operation_number}: cancel or reverse. Replayed like
     * a GET: a second DELETE of a CANCELADO or EXTORNADO operation answers 200 with that state, and
     * no DELETE can start a payment, so a retry never does more than the first attempt.
     */
    cancel: (ref: OperationRef, call?: CallOptions) =>
      authorized(call, (init) =>
        api.DELETE('/charges/{merchant_code}/{merchant_operation_number}', {
          params: { path: ref },
          headers: { ...init.headers, ...facilitated() },
          fetch: init.fetch,
        }),
      ),
    /**
     * POST /charges/{merchant_code}/{merchant_operation_number}/capture: all of a CARD payment
     * authorized to be captured later, or `amount` of it, once, with an Idempotency-Key. A
     * retry never captures twice: the service captures once per authorization.
     */
    capture: (ref: OperationRef, body: CaptureRequest = {}, call?: IdempotentCallOptions) => {
      const key = idempotent(call);
      return authorized(call, (init) =>
        api.POST('/charges/{merchant_code}/{merchant_operation_number}/capture', {
          params: { path: ref },
          body,
          headers: { ...init.headers, ...facilitated(), ...key },
          fetch: init.fetch,
        }),
      );
    },
  };

  const listRefunds = (query: RefundQuery = {}, call?: CallOptions) =>
    authorized(call, (init) =>
      api.GET('/refund', { params: { query }, headers: { ...init.headers, ...facilitated() }, fetch: init.fetch }),
    );
  const refunds = {
    /** POST /refund, with an Idempotency-Key (the same on every retry of this call). */
    create: (body: RefundRequest, call?: IdempotentCallOptions) => {
      const key = idempotent(call);
      return authorized(call, (init) =>
        api.POST('/refund', { body, headers: { ...init.headers, ...facilitated(), ...key }, fetch: init.fetch }),
      );
    },
    /** GET /refund with the interface's filters; one page (see `pages` for all). */
    list: listRefunds,
    /** Every page of GET /refund, following next_cursor. */
    pages: (query: RefundQuery = {}, call?: CallOptions) => pages(listRefunds, query, call),
    /** GET /refund/{merchant_code}/{merchant_operation_number} */
    getByOperation: (ref: OperationRef, call?: CallOptions) =>
      authorized(call, (init) =>
        api.GET('/refund/{merchant_code}/{merchant_operation_number}', {
          params: { path: ref },
          headers: { ...init.headers, ...facilitated() },
          fetch: init.fetch,
        }),
      ),
  };

  const listEvents = (query: EventQuery = {}, call?: CallOptions) =>
    authorized(call, (init) =>
      api.GET('/events', { params: { query }, headers: { ...init.headers, ...facilitated() }, fetch: init.fetch }),
    );
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

  const customers = {
    /** POST /customers (scope post:customers): the customer of that merchant_customer_id, made or updated. */
    create: (body: CustomerRequest, call?: CallOptions) =>
      authorized(call, (init) =>
        api.POST('/customers', { body, headers: { ...init.headers, ...facilitated() }, fetch: init.fetch }),
      ),
    /** GET /customers/{merchant_code}/{customer_id} (scope get:customers): the customer and its cards. */
    get: (ref: CustomerRef, call?: CallOptions) =>
      authorized(call, (init) =>
        api.GET('/customers/{merchant_code}/{customer_id}', {
          params: { path: ref },
          headers: { ...init.headers, ...facilitated() },
          fetch: init.fetch,
        }),
      ),
  };
  const cards = {
    /** A customer's saved cards, ACTIVE first (GET /customers/{merchant_code}/{customer_id}). */
    list: async (ref: CustomerRef, call?: CallOptions) => (await customers.get(ref, call)).cards,
    /** POST /customers/{merchant_code}/{customer_id}/cards (scope post:customers): saved after a zero-amount verification. */
    save: (ref: CustomerRef, body: CardToSave, call?: CallOptions) =>
      authorized(call, (init) =>
        api.POST('/customers/{merchant_code}/{customer_id}/cards', {
          params: { path: ref },
          body,
          headers: { ...init.headers, ...facilitated() },
          fetch: init.fetch,
        }),
      ),
    /** DELETE /customers/{merchant_code}/{customer_id}/cards/{card_id} (scope delete:customers); twice answers the same. */
    remove: (ref: CardRef, call?: CallOptions) =>
      authorized(call, (init) =>
        api.DELETE('/customers/{merchant_code}/{customer_id}/cards/{card_id}', {
          params: { path: ref },
          headers: { ...init.headers, ...facilitated() },
          fetch: init.fetch,
        }),
      ),
  };

  return { charges, refunds, events, customers, cards, callbacks: callbackVerifier(api, now), baseUrl };
}

export type PayClient = ReturnType<typeof createPayClient>;
