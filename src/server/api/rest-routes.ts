import { restRouter } from '@/server/api/routers/rest-router';
import type { ProcedureMeta, SuccessType } from '@/server/api/openapi/procedure-meta';

// The documented REST paths, read from the procedures' meta: the wrapper answers 404 for an
// unknown path and 405 for a known path with another method, in the envelope.

/** What the REST wrapper needs of one documented operation. */
export type RestMethod = { successType: SuccessType; bodyOptional: boolean };
/** `literals`: the path's segments that are no parameter; the path with most of them wins a match. */
type RestRoute = RestMethod & { method: string; pattern: RegExp; literals: number };

function collect(): RestRoute[] {
  const routes: RestRoute[] = [];
  type WithMeta = { _def: { meta?: ProcedureMeta } };
  for (const procedure of Object.values(restRouter._def.procedures as unknown as Record<string, WithMeta>)) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const pattern = new RegExp(`^${meta.openapi.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
    const literals = meta.openapi.path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{')).length;
    routes.push({
      method: meta.openapi.method,
      pattern,
      literals,
      successType: meta.successType,
      bodyOptional: meta.bodyOptional === true,
    });
  }
  return routes;
}

let routes: RestRoute[] | undefined;

/** A documented path's methods, each with the type of `success` its answers carry. */
export type RestPath = ReadonlyMap<string, RestMethod>;

/**
 * The documented path that `path` (below /api) is, matched once per request; null when none is.
 * A concrete segment wins over a parameter, as OpenAPI matches paths: `/charges/M/O/capture` is
 * the capture's path, not a transaction named `capture`.
 */
export function restPathOf(path: string): RestPath | null {
  routes ??= collect();
  const matching = routes.filter((route) => route.pattern.test(path));
  const best = Math.max(...matching.map((route) => route.literals));
  const methods = new Map(
    matching
      .filter((route) => route.literals === best)
      .map(({ method, successType, bodyOptional }) => [method, { successType, bodyOptional }]),
  );
  return methods.size > 0 ? methods : null;
}
