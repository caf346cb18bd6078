import { existsSync, readFileSync } from 'node:fs';
import { databaseLabel, embeddedDatabaseExists } from '../../src/server/platform/db/database-label';

// Which database an operator command reaches, said on stderr before it runs: the running
// service's (through its operator token), PostgreSQL (DATABASE_URL), or the embedded database
// in PGLITE_DIR. A command run without the service's environment used to open a new, empty
// embedded database and answer from it as if nothing were there; now only the commands that set
// up an installation may create one, and the others refuse in one line.

/** What a running service writes for the CLI (src/server/startup/startup.ts). */
export type ServiceFile = { pid: number; url: string; operatorToken: string; database?: string; databaseLabel?: string };

/** Commands that start an installation from nothing, so a new embedded database is what they expect. */
export const COMMANDS_THAT_MAY_CREATE_A_DATABASE: ReadonlySet<string> = new Set([
  'create-merchant',
  'create-facilitator',
  'create-user',
]);

export type DatabaseChoice =
  | { via: 'service'; service: ServiceFile }
  | { via: 'postgres'; databaseUrl: string }
  | { via: 'pglite'; dir: string; exists: boolean };

/** The service whose file is at `file`, when its process is alive. */
export function runningService(file: string): ServiceFile | null {
  if (!existsSync(file)) return null;
  const service = JSON.parse(readFileSync(file, 'utf8')) as ServiceFile;
  try {
    process.kill(service.pid, 0);
    return service;
  } catch {
    return null;
  }
}

/**
 * PostgreSQL when DATABASE_URL is set (any number of processes may use it); else the running
 * service, which owns the embedded database (PGlite allows one process per directory); else the
 * embedded database in this process.
 */
export function chooseDatabase(
  setting: { databaseUrl?: string; pgliteDir: string },
  service: () => ServiceFile | null,
): DatabaseChoice {
  if (setting.databaseUrl) return { via: 'postgres', databaseUrl: setting.databaseUrl };
  const running = service();
  if (running) return { via: 'service', service: running };
  return { via: 'pglite', dir: setting.pgliteDir, exists: embeddedDatabaseExists(setting.pgliteDir) };
}

/** The one line that says which database `command` opens. */
export function databaseNotice(choice: DatabaseChoice): string {
  switch (choice.via) {
    case 'service': {
      const { pid, url, databaseLabel: label, database } = choice.service;
      return `cli: database: the running service's at ${url} (pid ${pid}): ${label ?? database ?? 'unknown'}`;
    }
    case 'postgres':
      return `cli: database: ${databaseLabel({ databaseUrl: choice.databaseUrl, pgliteDir: '' })}`;
    case 'pglite':
      return `cli: database: ${databaseLabel({ pgliteDir: choice.dir })}${choice.exists ? '' : ' (new: created now)'}`;
  }
}

/** Why `command` must not run against this choice (one line), or null when it may. */
export function databaseRefusal(command: string, choice: DatabaseChoice): string | null {
  if (choice.via !== 'pglite' || choice.exists || COMMANDS_THAT_MAY_CREATE_A_DATABASE.has(command)) return null;
  return (
    `no embedded database in ${databaseLabel({ pgliteDir: choice.dir }).replace(/^PGlite /, '')} and ${command} does not create one: ` +
    'start the service, or give this command its DATABASE_URL or PGLITE_DIR (and SERVICE_FILE)'
  );
}
