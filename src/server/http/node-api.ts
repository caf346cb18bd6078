import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiReply, HeaderReader } from '@/server/api/rest/api-request';
import { errorReply } from '@/server/api/rest/json-response';
import { requestIdOf } from '@/server/api/rest/request-id';
import { toAppError } from '@/server/api/errors/to-app-error';
import { logError } from '@/server/log';
import { recordRequest } from '@/server/observability/observe-route';
import { repairedPath } from '@/server/security/malformed-path';
import shared from '@/server/security/response-headers.json';
import { apiRouteOf, isApiPath, type ApiRoute } from './api-routes';

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
      // As Next filled it in: without a proxy in front, the client is the socket's peer.
      if (value === undefined) return key === 'x-forwarded-for' ? (request.socket.remoteAddress ?? null) : null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function optionsReply(route: ApiRoute): ApiReply {
  const methods = new Set([...route.methods, ...(route.methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS']);
  return { status: 204, headers: { allow: [...methods].join(', '), 'cache-control': 'no-store' }, body: '' };
}

async function answer(request: IncomingMessage, route: ApiRoute, path: string, search: string): Promise<ApiReply> {
  const headers = headerReader(request);
  if (request.method === 'OPTIONS' && route.methods.length > 0) return optionsReply(route);
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

/** Answers `request` when its path is the API's and returns true; returns false for Next's paths. */
export function handleApiRequest(request: IncomingMessage, response: ServerResponse): boolean {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const sent = query === -1 ? url : url.slice(0, query);
  if (!sent.startsWith('/api/') && !sent.startsWith('/oauth/')) return false;
  // Read as Next reads a path: one that cannot be decoded has its `%` escaped (a 404 or a 400 on
  // the field), and dot segments are resolved, so the route matched is the route that runs.
  const path = normalizedPath(repairedPath(sent) ?? sent);
  if (!isApiPath(path)) return false;
  const search = query === -1 ? '' : url.slice(query);
  if (path.length > 1 && path.endsWith('/')) {
    // As Next answered it: the path without its trailing slash, same method and body.
    write(response, { status: 308, headers: { location: `${path.replace(/\/+$/, '')}${search}` }, body: '' });
    return true;
  }
  const started = performance.now();
  const route = apiRouteOf(path);
  void answer(request, route, path, search)
    .then((reply) => {
      write(response, reply);
      const seconds = (performance.now() - started) / 1000;
      recordRequest(route.name, request.method ?? 'GET', reply.status, seconds, reply.headers['x-request-id'] ?? null);
    })
    .catch((error: unknown) => {
      logError('api answer failed', error);
      response.destroy();
    });
  return true;
}

/** Where server.js finds the handler: this module lives in Next's server bundle, server.js outside it. */
const HANDLER_SLOT = Symbol.for('pay.api-handler');

/** Makes the handler reachable by server.js (called once the service has started). */
export function publishApiHandler(): void {
  (globalThis as Record<symbol, unknown>)[HANDLER_SLOT] = handleApiRequest;
}
