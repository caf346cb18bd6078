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

/** A documented path's methods, each with the type of `success` its answers carry. */
export type RestPath = ReadonlyMap<string, SuccessType>;

/** The documented path that `path` (below /api) is, matched once per request; null when none is. */
export function restPathOf(path: string): RestPath | null {
  routes ??= collect();
  const methods = new Map(routes.filter((route) => route.pattern.test(path)).map((route) => [route.method, route.successType]));
  return methods.size > 0 ? methods : null;
}
