import { appRouter } from '@/server/api/routers/app-router';
import type { ProcedureMeta, SuccessType } from '@/server/api/openapi/procedure-meta';

// The documented REST paths, read from the procedures' meta: the wrapper answers 404 for an
// unknown path and 405 for a known path with another method, in the envelope.
type RestRoute = { method: string; pattern: RegExp; successType: SuccessType };

function collect(): RestRoute[] {
  const routes: RestRoute[] = [];
  type WithMeta = { _def: { meta?: ProcedureMeta } };
  for (const procedure of Object.values(appRouter._def.procedures as unknown as Record<string, WithMeta>)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const pattern = new RegExp(`^${meta.openapi.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    routes.push({ method: meta.openapi.method, pattern, successType: meta.successType });
  }
  return routes;
}

let routes: RestRoute[] | undefined;

export type RouteMatch =
  { kind: 'found'; successType: SuccessType } | { kind: 'not_found' } | { kind: 'wrong_method'; allow: string[] };

export function matchRestRoute(method: string, path: string): RouteMatch {
  routes ??= collect();
  const samePath = routes.filter((route) => route.pattern.test(path));
  if (samePath.length === 0) return { kind: 'not_found' };
  const route = samePath.find((candidate) => candidate.method === method);
  if (route) return { kind: 'found', successType: route.successType };
  return { kind: 'wrong_method', allow: samePath.map((candidate) => candidate.method) };
}
