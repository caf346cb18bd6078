import { existsSync } from 'node:fs';
import path from 'node:path';

// Which database a process opens, said to the people running it: the CLI and the service file
// name it, so an operator sees at once when a command reached another database than the
// service's. Never a password.

export type DatabaseSetting = { databaseUrl?: string; pgliteDir: string };

/** `PGlite <absolute directory>` or `PostgreSQL [user@]host[:port]/database`. */
export function databaseLabel({ databaseUrl, pgliteDir }: DatabaseSetting): string {
  if (!databaseUrl) return `PGlite ${path.resolve(pgliteDir)}`;
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return 'PostgreSQL (DATABASE_URL is not a URL)';
  }
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  // libpq takes a socket directory as ?host= when the URL names none.
  const host = url.host || url.searchParams.get('host') || 'localhost';
  const name = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || (url.searchParams.get('dbname') ?? '');
  return `PostgreSQL ${user}${host}/${name}`;
}

/** Whether an embedded database has been created in `dir` (initdb leaves PG_VERSION there). */
export function embeddedDatabaseExists(dir: string): boolean {
  return existsSync(path.join(dir, 'PG_VERSION'));
}
