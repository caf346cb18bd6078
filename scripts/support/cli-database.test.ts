import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseLabel } from '../../src/server/platform/db/database-label';
import { chooseDatabase, databaseNotice, databaseRefusal, runningService, type ServiceFile } from './cli-database';

// The CLI says which database it reaches, and a command that expects one refuses to create a new
// embedded database (issue 30 point 6: run without the service's environment, settle-now opened
// a new .data/pglite and answered {"settled": 0}).

const dir = mkdtempSync(path.join(tmpdir(), 'cli-database-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const missing = path.join(dir, 'missing-pglite');
const existing = path.join(dir, 'pglite');
mkdirSync(existing);
writeFileSync(path.join(existing, 'PG_VERSION'), '17\n');
const noService = () => null;

describe('databaseLabel', () => {
  it('names PostgreSQL by user, host, port and database, never the password', () => {
    const label = databaseLabel({
      databaseUrl: 'postgresql://pay:s3cret%21@db.internal:5433/pay_prod?sslmode=require',
      pgliteDir: '',
    });
    expect(label).toBe('PostgreSQL pay@db.internal:5433/pay_prod');
    expect(label).not.toContain('s3cret');
    expect(databaseLabel({ databaseUrl: 'postgres:///pay?host=/var/run/postgresql', pgliteDir: '' })).toBe(
      'PostgreSQL /var/run/postgresql/pay',
    );
  });

  it('names the embedded database by its absolute directory', () => {
    expect(databaseLabel({ pgliteDir: '.data/pglite' })).toBe(`PGlite ${path.resolve('.data/pglite')}`);
  });
});

describe('the database a command reaches', () => {
  it('is PostgreSQL when DATABASE_URL is set, even with a service running', () => {
    const service: ServiceFile = { pid: process.pid, url: 'http://127.0.0.1:3000', operatorToken: 't' };
    const choice = chooseDatabase({ databaseUrl: 'postgres://pay:pw@localhost/pay', pgliteDir: missing }, () => service);
    expect(databaseNotice(choice)).toBe('cli: database: PostgreSQL pay@localhost/pay');
    expect(databaseRefusal('settle-now', choice)).toBeNull();
  });

  it("is the running service's, named with the database it opened", () => {
    const file = path.join(dir, 'service.json');
    writeFileSync(
      file,
      JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:3000', operatorToken: 't', databaseLabel: 'PGlite /srv/pay' }),
    );
    const choice = chooseDatabase({ pgliteDir: missing }, () => runningService(file));
    expect(choice.via).toBe('service');
    expect(databaseNotice(choice)).toBe(
      `cli: database: the running service's at http://127.0.0.1:3000 (pid ${process.pid}): PGlite /srv/pay`,
    );
    expect(databaseRefusal('settle-now', choice)).toBeNull();
  });

  it('is the embedded database when no service runs, and a command that expects one refuses a new one', () => {
    const found = chooseDatabase({ pgliteDir: existing }, noService);
    expect(databaseNotice(found)).toBe(`cli: database: PGlite ${existing}`);
    expect(databaseRefusal('settle-now', found)).toBeNull();

    const none = chooseDatabase({ pgliteDir: missing }, noService);
    for (const command of ['settle-now', 'inspect', 'issue-credential', 'list-credentials', 'secret-scan']) {
      const refusal = databaseRefusal(command, none);
      expect(refusal).toContain(`no embedded database in ${missing}`);
      expect(refusal).not.toContain('\n');
    }
    for (const command of ['create-merchant', 'create-facilitator', 'create-user'])
      expect(databaseRefusal(command, none)).toBeNull();
    expect(databaseNotice(none)).toBe(`cli: database: PGlite ${missing} (new: created now)`);
  });

  it('ignores a service file whose process is gone', () => {
    const file = path.join(dir, 'stale.json');
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 7, url: 'http://127.0.0.1:1', operatorToken: 't' }));
    expect(runningService(file)).toBeNull();
    expect(runningService(path.join(dir, 'none.json'))).toBeNull();
  });
});

describe('npm run cli without the service environment', () => {
  it('refuses settle-now in one line, exits non-zero and creates nothing', async () => {
    const failure = await promisify(execFile)('npx', ['tsx', 'scripts/cli.ts', 'settle-now'], {
      env: { ...process.env, DATABASE_URL: '', PGLITE_DIR: missing, SERVICE_FILE: path.join(dir, 'none.json') },
      timeout: 60_000,
    }).then(
      () => null,
      (error: { code?: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toBe('');
    expect(failure?.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^error: no embedded database in ${missing} and settle-now does not create one`)),
    ]);
    expect(existsSync(missing)).toBe(false);
  }, 60_000);
});
