import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { BlockList, Socket } from 'node:net';
import { env } from '@/env';
import { clientAddressOf, trustedProxies } from '@/server/platform/http/client-address';
import type { ApiReply, HeaderReader } from '@/server/platform/http/api-request';
import { errorReply } from '@/server/platform/http/json-response';
import { methodNotAllowed, notFoundReply, optionsReply } from '@/server/platform/http/method-not-allowed';
import { requestIdOf } from '@/server/platform/http/request-id';
import { toAppError } from '@/server/api/errors/to-app-error';
import { trpcErrorReply } from '@/server/api/errors/trpc-error-reply';
import { AppError } from '@/server/core/domain/errors';
import { admissionControl, type Admission, type AdmissionClass } from '@/server/platform/http/admission';
import { pressureOver, pressureReading, HEAP_USED_LIMIT } from '@/server/platform/http/service-pressure';
import { withAwayClock, type AwayClock } from '@/server/platform/http/time-away';
import { metrics } from '@/server/platform/observability/metrics';
import { logError } from '@/server/platform/log';
import { recordRequest } from '@/server/platform/observability/observe-route';
import { repairedPath } from '@/server/platform/security/malformed-path';
import shared from '@/server/platform/security/response-headers.json';
import { API_PREFIXES, apiRouteOf, isApiPath, type ApiRoute } from './api-routes';
import { nextMethodsOf } from './next-routes';

// The API on Node's own HTTP path: server.js hands it the requests of the API's paths, and
// everything else to Next. An API request thus skips Next's routing, its Fetch Request and web
// streams, and the bridge that turned them back into a Node request (docs/DECISIONS.md, "The API
// off Next's request path"): the handlers read a plain ApiRequest and answer a plain ApiReply.

const RESPONSE_HEADERS: Record<string, string> = {
  ...shared.common,
  ...(process.env.NODE_ENV === 'production' ? shared.production : {}),
  'Content-Security-Policy': shared.apiCsp,
};

function headerReader(request: IncomingMessage): HeaderReader {
  return {
    get(name) {
      const key = name.toLowerCase();
      const value = request.headers[key];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

async function answer(request: IncomingMessage, route: ApiRoute, path: string, search: string): Promise<ApiReply> {
  const headers = headerReader(request);
  if (request.method === 'OPTIONS' && route.methods.length > 0) return optionsReply(route.methods);
  try {
    // HEAD is GET without the body (Node leaves the body out of a HEAD answer itself).
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
    return await route.handle({ method, path, search, headers, body: request });
  } catch (error) {
    const requestId = requestIdOf(headers);
    logError('api request failed', error, { requestId });
    return errorReply(toAppError(error), 'boolean', requestId);
  }
}

function normalizedPath(path: string): string {
  try {
    return new URL(path, 'http://localhost').pathname;
  } catch {
    return path;
  }
}

function write(response: ServerResponse, reply: ApiReply): void {
  const length = reply.status === 204 ? {} : { 'content-length': String(Buffer.byteLength(reply.body)) };
  response.writeHead(reply.status, { ...RESPONSE_HEADERS, ...reply.headers, ...length });
  response.end(reply.body);
}

/**
 * A method Next's path does not serve, answered here: OPTIONS with its methods, anything else
 * 405. Returns false for a method Next serves there (GET and HEAD of a page, a handler's exports).
 */
function answerNextMethod(request: IncomingMessage, response: ServerResponse, path: string): boolean {
  const method = request.method ?? 'GET';
  const methods = nextMethodsOf(path);
  if (methods === null || methods.includes(method)) return false;
  if (method === 'HEAD' && methods.includes('GET')) {
    // HEAD is GET without the body: Next's route handlers (next-auth's among them) refused it.
    // The response was made for a HEAD request, so Node leaves the body out.
    request.method = 'GET';
    return false;
  }
  const headers = headerReader(request);
  write(response, method === 'OPTIONS' ? optionsReply(methods) : methodNotAllowed(methods)({ method, headers }));
  recordRequest('next', method, method === 'OPTIONS' ? 204 : 405, 0, null);
  return true;
}

let trusted: BlockList | undefined;
let admission: Admission | undefined;

/** Admission by the classes' floors and the service's own queues (platform/http/service-pressure.ts). */
function serviceAdmission(): Admission {
  const limits = { waitMs: env().ADMISSION_WAIT_MS, heapUsed: HEAP_USED_LIMIT };
  return admissionControl(env().ADMISSION_LIMITS, limits.waitMs, () => pressureOver(pressureReading(), limits));
}

// Next's paths that are never refused: its assets, the probes (a balancer must see the instance
// live and ready while it sheds), the metrics and the benchmark's bare route.
const NEVER_REFUSED = /^\/(_next\/|__nextjs|api\/(health|metrics|bench\/baseline)\/?$)/;

/** The admission class of a request (platform/http/admission.ts), or null for what is never refused. */
export function admissionClassOf(method: string, path: string, apiRoute: ApiRoute | null): AdmissionClass | null {
  if (apiRoute) {
    if (apiRoute.name === 'token') return 'token';
    if (apiRoute.name === 'processor-notification') return 'notifications';
    return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 'reads' : 'charges';
  }
  if (NEVER_REFUSED.test(path)) return null;
  return path === '/pay' || path.startsWith('/pay/') ? 'payer' : 'console';
}

/**
 * Admits the request into its class, its slot given back when the response is done or the
 * connection gone (an error, an abort), and returns its clock of time away (none for what is
 * never refused); or answers it 503 code 02 at once and returns null.
 */
function admitted(
  request: IncomingMessage,
  response: ServerResponse,
  name: AdmissionClass | null,
  route: string,
  path: string,
  apiRoute: ApiRoute | null = null,
): { clock?: AwayClock } | null {
  if (name === null) return {};
  admission ??= serviceAdmission();
  const admitted = admission.admit(name);
  if ('release' in admitted) {
    response.once('close', admitted.release);
    return { clock: admitted.clock };
  }
  metrics().admissionRefusals.inc({ class: name, signal: admitted.refused });
  const requestId = requestIdOf(headerReader(request));
  const busy = new AppError('UNAVAILABLE', 'The service is at capacity; retry after Retry-After seconds', {
    headers: { 'retry-after': '1' },
  });
  const url = request.url ?? '';
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const isTrpc = path === '/api/trpc' || path.startsWith('/api/trpc/');
  const method = request.method ?? 'GET';
  write(
    response,
    isTrpc
      ? trpcErrorReply(busy, requestId, path, query)
      : errorReply(busy, apiRoute?.successType(method) ?? 'boolean', requestId),
  );
  recordRequest(route, method, 503, 0, requestId);
  return null;
}

/** Runs `work` with the request's clock of time away, when it has one. */
function timed<T>(admission: { clock?: AwayClock }, work: () => T): T {
  return admission.clock ? withAwayClock(admission.clock, work) : work();
}

/**
 * Writes the client's address, as TRUSTED_PROXIES lets it be read, as the request's only
 * X-Forwarded-For (and drops X-Real-IP): the API's limits and Next's pages (the console's sign-in)
 * read that header, and must not believe what the client wrote into it.
 */
function settleClientAddress(request: IncomingMessage): void {
  trusted ??= trustedProxies(env().TRUSTED_PROXIES);
  const forwarded = request.headers['x-forwarded-for'];
  const given = Array.isArray(forwarded) ? forwarded.join(', ') : forwarded;
  request.headers['x-forwarded-for'] = clientAddressOf(request.socket.remoteAddress, given, trusted);
  delete request.headers['x-real-ip'];
}

/**
 * Answers `request` when its path is the API's, or its method one Next does not serve there,
 * and returns true. For what Next answers: calls `toNext` (server.js's hand-over, in the
 * request's clock of time away) and returns true, or, without one, returns false.
 */
export function handleApiRequest(request: IncomingMessage, response: ServerResponse, toNext?: () => void): boolean {
  settleClientAddress(request);
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const sent = query === -1 ? url : url.slice(0, query);
  // Read as Next reads a path: one that cannot be decoded has its `%` escaped (a 404 or a 400 on
  // the field), and dot segments are resolved, so the route matched is the route that runs.
  const path = normalizedPath(repairedPath(sent) ?? sent);
  if (!API_PREFIXES.some((prefix) => sent.startsWith(prefix)) || !isApiPath(path)) {
    const name = admissionClassOf(request.method ?? 'GET', path, null);
    const admission = admitted(request, response, name, 'next', path);
    if (!admission || answerNextMethod(request, response, path)) return true;
    if (!toNext) return false;
    timed(admission, toNext);
    return true;
  }
  const search = query === -1 ? '' : url.slice(query);
  if (path.length > 1 && path.endsWith('/')) {
    // As Next answered it: the path without its trailing slash, same method and body.
    write(response, { status: 308, headers: { location: `${path.replace(/\/+$/, '')}${search}` }, body: '' });
    return true;
  }
  const started = performance.now();
  const route = apiRouteOf(path);
  const name = admissionClassOf(request.method ?? 'GET', path, route);
  const admission = admitted(request, response, name, route.name, path, route);
  if (!admission) return true;
  const answering = timed(admission, () => answer(request, route, path, search))
    .then((reply) => {
      write(response, reply);
      const seconds = (performance.now() - started) / 1000;
      recordRequest(route.name, request.method ?? 'GET', reply.status, seconds, reply.headers['x-request-id'] ?? null);
    })
    .catch((error: unknown) => {
      logError('api answer failed', error);
      response.destroy();
    })
    .finally(() => underWay.delete(answering));
  underWay.add(answering);
  return true;
}

/**
 * The answers being made. A client that hangs up closes its connection, and with the last one
 * closed the HTTP server has drained, yet the work of its request goes on (a charge with its
 * processor): a stop waits for these before it closes the database (server.js).
 */
const underWay = new Set<Promise<void>>();

/** Resolves once every answer begun so far is made. */
function answered(): Promise<void> {
  return Promise.all(underWay).then(() => undefined);
}

/**
 * CONNECT, which Node hands over as a raw socket instead of a request (a proxy's method: no path
 * here serves it): 405 with the Allow of the path, the origin's root for an authority target.
 */
export function answerConnect(request: IncomingMessage, socket: Socket): void {
  // Node took its own error listener off this socket: a client's reset must not end the process,
  // and a client that never reads must not hold the socket.
  socket.on('error', () => socket.destroy());
  socket.setTimeout(10_000, () => socket.destroy());
  const target = request.url ?? '/';
  const path = target.startsWith('/') ? normalizedPath(target.split('?')[0]!) : '/';
  const methods = isApiPath(path) ? apiRouteOf(path).methods : (nextMethodsOf(path) ?? ['GET']);
  const refusal = methods.length > 0 ? methodNotAllowed(methods) : notFoundReply;
  const reply = refusal({ method: 'CONNECT', headers: headerReader(request) });
  const headers = {
    ...RESPONSE_HEADERS,
    ...reply.headers,
    'content-length': String(Buffer.byteLength(reply.body)),
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\n${head.join('')}\r\n${reply.body}`, () =>
    socket.destroy(),
  );
  recordRequest('connect', 'CONNECT', reply.status, 0, reply.headers['x-request-id'] ?? null);
}

/** Where server.js finds the handlers: this module lives in Next's server bundle, server.js outside it. */
const HANDLER_SLOT = Symbol.for('pay.api-handler');

export type PublishedHandlers = {
  request: typeof handleApiRequest;
  connect: typeof answerConnect;
  answered: typeof answered;
};

/** Makes the handlers reachable by server.js (called once the service has started). */
export function publishApiHandler(): void {
  const handlers: PublishedHandlers = { request: handleApiRequest, connect: answerConnect, answered };
  (globalThis as Record<symbol, unknown>)[HANDLER_SLOT] = handlers;
}
