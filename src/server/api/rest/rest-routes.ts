import { appRouter } from '../routers/app-router';

// The documented REST paths, read from the procedures' OpenAPI meta: the wrapper answers
// 404 for an unknown path and 405 for a known path with another method, in the envelope.
type RestRoute = { method: string; pattern: RegExp; successType: 'string' | 'boolean' };

/** Operations whose `success` is the string "true" (docs/interface.md 2.1); the others use a boolean. */
export const stringSuccessOperations = new Set(['authorizeCharge', 'requestRefunds', 'listRefunds', 'getRefundsOfOperation']);

function collect(): RestRoute[] {
  const routes: RestRoute[] = [];
  type WithMeta = { _def: { meta?: { openapi?: { method: string; path: string; operationId?: string } } } };
  for (const procedure of Object.values(appRouter._def.procedures as unknown as Record<string, WithMeta>)) {
    const openapi = procedure._def.meta?.openapi;
    if (!openapi) continue;
    const pattern = new RegExp(`^${openapi.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    routes.push({
      method: openapi.method,
      pattern,
      successType: stringSuccessOperations.has(openapi.operationId ?? '') ? 'string' : 'boolean',
    });
  }
  return routes;
}

let routes: RestRoute[] | undefined;

export type RouteMatch =
  { kind: 'found'; successType: 'string' | 'boolean' } | { kind: 'not_found' } | { kind: 'wrong_method'; allow: string[] };

export function matchRestRoute(method: string, path: string): RouteMatch {
  routes ??= collect();
  const samePath = routes.filter((route) => route.pattern.test(path));
  if (samePath.length === 0) return { kind: 'not_found' };
  const route = samePath.find((candidate) => candidate.method === method);
  if (route) return { kind: 'found', successType: route.successType };
  return { kind: 'wrong_method', allow: samePath.map((candidate) => candidate.method) };
}
