import { env } from '@/env';
import { logInfo } from '@/server/platform/log';
import { metrics } from './metrics';
import { isSelfCheck } from './self-checks';

type Handler = (request: Request) => Promise<Response> | Response;

/**
 * One answered request: the request metrics and, with LOG_REQUESTS, one structured log line
 * (request id, route, method, status, milliseconds), unless it is a health probe or the instance
 * sent it itself at start. The route is the handler's name, not the
 * path, so operation numbers and ids never become metric labels.
 */
export function recordRequest(route: string, method: string, status: number, seconds: number, requestId: string | null): void {
  const { requests, latency } = metrics();
  requests.inc({ route, method, status: String(status) });
  latency.observe({ route, method }, seconds);
  // Health probes (a load balancer's every few seconds, the demo's wait for ready) are counted, not logged.
  if (!env().LOG_REQUESTS || route === 'health' || isSelfCheck(requestId)) return;
  logInfo('request', { requestId, route, method, status, ms: Math.round(seconds * 10_000) / 10 });
}

/** Wraps a Next route handler so that its requests are recorded. */
export function observed(route: string, handler: Handler): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = performance.now();
    const response = await handler(request);
    recordRequest(
      route,
      request.method,
      response.status,
      (performance.now() - started) / 1000,
      response.headers.get('x-request-id'),
    );
    return response;
  };
}
