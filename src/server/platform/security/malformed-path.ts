// Next 16 answers a path with a malformed percent-escape (`%zz`, `%E0%A4%A`: not decodable) with
// a bare 500 before any route runs (vercel/next.js#94278). src/proxy.ts runs first for such paths
// and redirects them (308: same method and body) to this form: every `%` escaped, so each route
// reads the segment as it was sent, and refuses it as it refuses any other text with a `%` (400 on
// a field, 404 for no path).

/** The path with every `%` escaped when it cannot be decoded; null when it can (it is fine as it is). */
export function repairedPath(path: string): string | null {
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return path.replaceAll('%', '%25');
  }
}
