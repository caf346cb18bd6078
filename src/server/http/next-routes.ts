// The methods of the paths Next serves, so that the process answers every other method itself
// (405 with Allow, OPTIONS with the truth) instead of handing it to Next, which rendered pages
// for PUT and DELETE and failed TRACE with a 500. Route handlers are listed by their exports
// (next-routes.test.ts holds this table to the files under src/app); the rest are pages and
// static files, read with GET.

const ROUTE_HANDLERS: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^\/api\/auth\/.+$/, ['GET', 'POST']],
  [/^\/api\/trpc\/[^/]+$/, ['GET', 'POST']],
  [/^\/api\/(health|metrics|bench\/baseline)$/, ['GET']],
  [/^\/docs(\/assets\/[^/]+)?$/, ['GET']],
  [/^\/operations\/export$/, ['GET']],
  [/^\/pay\/[^/]+\/(pay|abandon|challenge|challenge\/cancel)$/, ['POST']],
];

const PAGE_METHODS = ['GET'] as const;

/** Next's own machinery (its assets, and in development its overlay's and hot reloading's calls): Next's to answer. */
const NEXT_INTERNAL = /^\/(_next|__nextjs)/;

/** The methods Next serves at `path` (HEAD goes with GET), or null where Next answers every method itself. */
export function nextMethodsOf(path: string): readonly string[] | null {
  if (NEXT_INTERNAL.test(path)) return null;
  return ROUTE_HANDLERS.find(([pattern]) => pattern.test(path))?.[1] ?? PAGE_METHODS;
}
