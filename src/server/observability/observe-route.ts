import { env } from '@/env';
import { logInfo } from '@/server/log';
import { metrics } from './metrics';

type Handler = (request: Request) => Promise<Response> | Response;

/**
 * Wraps an API route handler: one structured log line per request (request id, route,
 * method, status, milliseconds) and the request metrics. The route is the handler's name, not
 * the path, so operation numbers and ids never become metric labels.
 */
export function observed(route: string, handler: Handler): (request: Request) => Promise<Response> {
  return async (request) => {
    const started = performance.now();
    const response = await handler(request);
    const seconds = (performance.now() - started) / 1000;
    const { requests, latency } = metrics();
    requests.inc({ route, method: request.method, status: String(response.status) });
    latency.observe({ route, method: request.method }, seconds);
    if (!env().LOG_REQUESTS) return response;
    logInfo('request', {
      requestId: response.headers.get('x-request-id'),
      route,
      method: request.method,
      status: response.status,
      ms: Math.round(seconds * 10_000) / 10,
    });
    return response;
  };
}
