import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi.js';
import { retryingFetch, type ReplaySafe, type TransportConfig } from './transport.js';

// The one HTTP client of the SDK: openapi-fetch over the types generated from the service's
// OpenAPI document (paths, parameters, bodies and answers checked by the compiler), with the
// transport's retries and typed errors as its fetch.

export type ApiClient = Client<paths> & {
  /** The per-call `fetch` option of a call the caller may abort with `signal`. */
  abortable: (signal: AbortSignal | undefined) => { fetch: (request: Request) => Promise<Response> };
};

export function apiClient(
  baseUrl: string,
  transport: TransportConfig,
  replaySafe: ReplaySafe,
  headers: Record<string, string> = {},
): ApiClient {
  const client = createClient<paths>({
    baseUrl,
    fetch: retryingFetch(transport, replaySafe),
    headers: { accept: 'application/json', ...headers },
  });
  return { ...client, abortable: (signal) => ({ fetch: retryingFetch(transport, replaySafe, signal) }) };
}

/** What openapi-fetch answers for a call. */
export type Answered<T> = { data?: T; response: Response };

/** The body of a call's answer: every refusal was already thrown by the transport as a PayApiError. */
export function answered<T>(result: Answered<T>): T {
  if (result.data === undefined) throw new TypeError(`${result.response.url} answered ${result.response.status} without a body`);
  return result.data;
}
