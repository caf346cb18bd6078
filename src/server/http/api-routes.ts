import { env } from '@/env';
import type { SuccessType } from '@/server/core/domain/envelope';
import type { ApiRequest, ApiReply } from '@/server/platform/http/api-request';
import { methodNotAllowed, notFoundReply } from '@/server/platform/http/method-not-allowed';
import { handleNotification, NOTIFICATION_PATH } from '@/server/http/notification-handler';
import { handleRestRequest } from '@/server/http/rest-handler';
import { restPathOf } from '@/server/api/rest-routes';
import { handleTokenRequest } from '@/server/http/token/token-handler';
import { METADATA_SUFFIX } from '@/server/modules/access/authorization-server-metadata';
import { authorizationServer, callbackKeySet, callbackPublicKey, jwks, openApiJson } from './public-documents';

// Which paths the API's own HTTP path answers, and with what. Everything below /api, /oauth and
// /.well-known is the API's, except what Next serves: the console's tRPC and sign-in, health and metrics,
// and the benchmark's bare Next route when it is on.

type Handler = (request: ApiRequest) => ApiReply | Promise<ApiReply>;
/** `name` labels the request metrics; `methods` are the methods the path serves (HEAD runs GET). */
export type ApiRoute = {
  name: string;
  methods: readonly string[];
  handle: Handler;
  /** The type of `success` in this path's answers to `method` (the REST paths document one each; the rest answer booleans). */
  successType: (method: string) => SuccessType;
};

// Next's own API routes, exactly as their route files match (a deeper path is the API's 404).
const NEXT_PATHS = /^\/api\/(auth\/.+|trpc\/[^/]+|health\/?|metrics\/?)$/;
const BENCH_BASELINE = /^\/api\/bench\/baseline\/?$/;

/** The path prefixes the API's HTTP path may answer (the rest is Next's, without a look). */
export const API_PREFIXES = ['/api/', '/oauth/', '/.well-known/'] as const;

/** Whether the API's HTTP path answers this path (as sent, before any decoding). */
export function isApiPath(path: string): boolean {
  if (path.startsWith('/oauth/') || path.startsWith('/.well-known/')) return true;
  if (!path.startsWith('/api/') || NEXT_PATHS.test(path)) return false;
  return !(BENCH_BASELINE.test(path) && env().BENCH_ROUTES);
}

function single(name: string, method: string, handle: Handler): ApiRoute {
  return {
    name,
    methods: [method],
    handle: (request) => (request.method === method ? handle(request) : methodNotAllowed([method])(request)),
    successType: () => 'boolean',
  };
}

// {auth_url}'s paths, also under {base_url}: the OpenAPI document lists both servers for them,
// and a generator that reads only the top-level server ({base_url}) must still reach them.
const AUTH: Record<string, ApiRoute> = {
  '/token': single('token', 'POST', handleTokenRequest),
  '/.well-known/jwks.json': single('jwks', 'GET', jwks),
  [METADATA_SUFFIX]: single('oauth-metadata', 'GET', authorizationServer),
};

const FIXED: Record<string, ApiRoute> = {
  ...Object.fromEntries(
    Object.entries(AUTH).flatMap(([path, route]) => [
      [`/oauth${path}`, route],
      [`/api${path}`, route],
    ]),
  ),
  [`${METADATA_SUFFIX}/oauth`]: AUTH[METADATA_SUFFIX]!,
  '/api/openapi.json': single('openapi', 'GET', openApiJson),
  '/api/webhooks/public-key': single('callback-key', 'GET', callbackPublicKey),
  '/api/webhooks/keys': single('callback-keys', 'GET', callbackKeySet),
};

// Processors' webhooks about merchants' accounts (docs/processors/README.md).
const NOTIFICATIONS = single('processor-notification', 'POST', handleNotification);

const REST_NAME = /^\/api\/(charges|refund|events)(\/|$)/;

/** The route of an API path: a fixed document or endpoint, a documented REST path, or 404. */
export function apiRouteOf(path: string): ApiRoute {
  const fixed = FIXED[path];
  if (fixed) return fixed;
  if (NOTIFICATION_PATH.test(path)) return NOTIFICATIONS;
  if (!path.startsWith('/api/')) return { name: 'unknown', methods: [], handle: notFoundReply, successType: () => 'boolean' };
  const restPath = restPathOf(path.slice('/api'.length));
  return {
    name: REST_NAME.exec(path)?.[1] ?? 'unknown',
    methods: restPath ? [...restPath.keys()] : [],
    handle: (request) => handleRestRequest(request, restPath),
    successType: (method) => restPath?.get(method)?.successType ?? 'boolean',
  };
}
