import type { FieldError, LocalizedMessage } from './types.js';

// What a failed call throws. The service answers every failure in one envelope (meta.status.code
// names the kind: 10 invalid request, 20 token, 40/41 conflicts, 50 rate limit, 02 database
// briefly unavailable, ...); PayApiError carries it. A call that never got an answer (connection
// refused or reset, DNS, a timed-out attempt) throws PayNetworkError instead, so a caller can tell
// "the service said no" from "we do not know what happened".

export type PayApiErrorInit = {
  status: number;
  method: string;
  url: string;
  body: unknown;
  requestId?: string;
  retryAfterMs?: number;
  attempts: number;
};

type Envelope = {
  meta?: { status?: { code?: unknown; message_ilgn?: unknown } };
  errors?: unknown;
  error?: unknown;
  error_description?: unknown;
};

export class PayApiError extends Error {
  override readonly name: string = 'PayApiError';
  /** The HTTP status. */
  readonly status: number;
  /** `meta.status.code` of the envelope (undefined when the body was not the envelope, e.g. a proxy's page). */
  readonly code: string | undefined;
  /** `meta.status.message_ilgn`: the same message in each locale (es-PE, en-US). */
  readonly messages: LocalizedMessage[];
  /** The field errors of a refused request. */
  readonly errors: FieldError[];
  /** RFC 6749 `error` of the token endpoint (invalid_client, invalid_scope, ...). */
  readonly oauthError: string | undefined;
  /** The answer's X-Request-Id: quote it to support. */
  readonly requestId: string | undefined;
  /** Retry-After of the last answer, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** How many attempts the call made (more than one when it was retried). */
  readonly attempts: number;
  readonly method: string;
  readonly url: string;
  /** The parsed JSON body, or the text when it was not JSON. */
  readonly body: unknown;

  constructor(init: PayApiErrorInit) {
    const envelope = (typeof init.body === 'object' && init.body !== null ? init.body : {}) as Envelope;
    const code = typeof envelope.meta?.status?.code === 'string' ? envelope.meta.status.code : undefined;
    const messages = Array.isArray(envelope.meta?.status?.message_ilgn)
      ? (envelope.meta.status.message_ilgn as LocalizedMessage[])
      : [];
    const errors = Array.isArray(envelope.errors) ? (envelope.errors as FieldError[]) : [];
    const english = messages.find((message) => message.locale.startsWith('en'))?.value ?? messages[0]?.value;
    const details = errors.map((error) => (error.field ? `${error.field}: ${error.message}` : error.message));
    super(
      `${init.method} ${init.url}: HTTP ${init.status}${code ? ` code ${code}` : ''}` +
        `${english ? ` ${english}` : ''}${details.length > 0 ? ` (${details.join('; ')})` : ''}`,
    );
    this.status = init.status;
    this.code = code;
    this.messages = messages;
    this.errors = errors;
    this.oauthError = typeof envelope.error === 'string' ? envelope.error : undefined;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
  }

  /** The message in `locale` (e.g. 'es-PE'), else the first one. */
  messageIn(locale: string): string | undefined {
    return (this.messages.find((message) => message.locale === locale) ?? this.messages[0])?.value;
  }
}

/** The token or the client's credentials were refused (401): get a new token, or check the secret. */
export class PayAuthenticationError extends PayApiError {
  override readonly name = 'PayAuthenticationError';
}

/** The token lacks the scope the call needs (403, code 21). */
export class PayPermissionError extends PayApiError {
  override readonly name = 'PayPermissionError';
}

/** Too many requests (429, code 50): the call was retried until its retries ran out; wait `retryAfterMs`. */
export class PayRateLimitError extends PayApiError {
  override readonly name = 'PayRateLimitError';
}

/** The Idempotency-Key was used before with another body (409, code 40): use a new key for a new request. */
export class PayIdempotencyError extends PayApiError {
  override readonly name = 'PayIdempotencyError';
}

/** The operation's state does not allow it (409, code 41): e.g. a refund of an unsettled payment. */
export class PayConflictError extends PayApiError {
  override readonly name = 'PayConflictError';
}

/** The request itself is wrong (400, 404, 405, 413, 422): fix it; retrying cannot help. */
export class PayInvalidRequestError extends PayApiError {
  override readonly name = 'PayInvalidRequestError';
}

/** The error of a refused call, of the class its status and code name (PayApiError for the rest: 5xx, a proxy's page). */
export function apiErrorOf(init: PayApiErrorInit): PayApiError {
  const code = codeOf(init.body);
  if (init.status === 401) return new PayAuthenticationError(init);
  if (init.status === 403) return new PayPermissionError(init);
  if (init.status === 429) return new PayRateLimitError(init);
  if (init.status === 409) return code === '40' ? new PayIdempotencyError(init) : new PayConflictError(init);
  if ([400, 404, 405, 413, 422].includes(init.status)) return new PayInvalidRequestError(init);
  return new PayApiError(init);
}

function codeOf(body: unknown): string | undefined {
  const code = (body as Envelope | null)?.meta?.status?.code;
  return typeof code === 'string' ? code : undefined;
}

export class PayNetworkError extends Error {
  override readonly name = 'PayNetworkError';
  readonly attempts: number;
  readonly method: string;
  readonly url: string;

  constructor(init: { method: string; url: string; attempts: number; cause: unknown }) {
    const reason = init.cause instanceof Error ? init.cause.message : String(init.cause);
    super(`${init.method} ${init.url}: no answer after ${init.attempts} attempt(s): ${reason}`, { cause: init.cause });
    this.attempts = init.attempts;
    this.method = init.method;
    this.url = init.url;
  }
}
