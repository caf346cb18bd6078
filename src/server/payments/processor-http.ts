import { away } from '@/server/platform/http/time-away';

// One request to a processor's API, and what became of it. Only three things can: the processor
// answered (any status), the request never reached it (the connection was refused or the host
// does not resolve: nothing was done, another processor may be tried), or it was lost on the way
// (a timeout, a reset, a body cut short: the processor may have done it, so only a status
// inquiry can tell). Bodies are never logged: they carry card numbers.

export type ProcessorAnswer =
  /** `body` is the JSON it answered (null when not JSON); `text` the raw body (Niubiz's token is plain text). */
  { kind: 'answered'; status: number; body: unknown; text: string; headers: Headers } | { kind: 'refused' } | { kind: 'lost' };

export type ProcessorRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The caller's limit (the attempt's timeout); the request also gives up after `timeoutMs`. */
  signal?: AbortSignal;
  timeoutMs: number;
};

const NEVER_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function causeCode(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The call is time away from the service (platform/http/time-away.ts): admission does not count it. */
function callProcessor(request: ProcessorRequest): Promise<ProcessorAnswer> {
  return away(() => exchange(request));
}

async function exchange(request: ProcessorRequest): Promise<ProcessorAnswer> {
  const signals = [AbortSignal.timeout(request.timeoutMs), ...(request.signal ? [request.signal] : [])];
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: AbortSignal.any(signals),
    });
    const text = await response.text();
    let body: unknown = null;
    if (text !== '') {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // A gateway's HTML page: the status speaks for it.
        body = null;
      }
    }
    return { kind: 'answered', status: response.status, body, text, headers: response.headers };
  } catch (error) {
    const code = causeCode(error);
    return code !== undefined && NEVER_REACHED.has(code) ? { kind: 'refused' } : { kind: 'lost' };
  }
}

export type ApiCall = (
  method: ProcessorRequest['method'],
  path: string,
  options?: { query?: Record<string, string>; headers?: Record<string, string>; body?: unknown; signal?: AbortSignal },
) => Promise<ProcessorAnswer>;

/** A processor's API at `base` (its scheme, host and version prefix), every request bounded by `timeoutMs`. */
export function processorApi(base: string, timeoutMs: number): ApiCall {
  return (method, path, { query, headers, body, signal } = {}) =>
    callProcessor({
      method,
      url: `${base}${path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`,
      headers,
      body,
      signal,
      timeoutMs,
    });
}

/** The `Authorization` header both processors take: `Bearer <key>`. */
export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

/** A member of a processor's JSON answer, when it is an object. */
export function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
