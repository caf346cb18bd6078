import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layer rules of .dependency-cruiser.cjs, run as `npm run lint:layers` runs them, on a small
// tree planted with one import of each forbidden kind beside allowed ones: every planted import
// must be reported under its rule, and nothing else.

const ROOT = resolve(__dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

const PLANTED: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./src/*'] } } }),
  'node_modules/next/package.json': JSON.stringify({ name: 'next', main: 'index.js' }),
  'node_modules/next/index.js': 'module.exports = {};',
  'src/env.ts': 'export const env = {};',
  'src/app/page.ts': "import { charge } from '@/server/modules/charges/charge';\nexport const page = charge;",
  'src/server/platform/db/client.ts': 'export const db = {};',
  'src/server/payments/index.ts': "export { acquirer } from './sandbox/acquirer';",
  'src/server/payments/sandbox/acquirer.ts': 'export const acquirer = {};',
  // core-imports-upward, core-is-pure (twice)
  'src/server/core/domain/rule.ts':
    "import { db } from '@/server/platform/db/client';\nimport { env } from '@/env';\nimport next from 'next';\nexport const rule = [db, env, next];",
  // allowed: a test imports what it tests and more
  'src/server/core/domain/rule.test.ts': "import { db } from '@/server/platform/db/client';\nexport const t = db;",
  // allowed: a module below, the payments facade, the platform
  'src/server/modules/charges/charge.ts':
    "import { event } from '@/server/modules/events/event';\nimport { acquirer } from '@/server/payments';\nimport { db } from '@/server/platform/db/client';\nexport const charge = [event, acquirer, db];",
  // modules-events-downward-only
  'src/server/modules/events/event.ts': "import { refund } from '@/server/modules/refunds/refund';\nexport const event = refund;",
  'src/server/modules/refunds/refund.ts': 'export const refund = {};',
  // payments-through-facade
  'src/server/modules/routing/route.ts':
    "import { acquirer } from '@/server/payments/sandbox/acquirer';\nexport const route = acquirer;",
  // no-circular (reported once, at the cycle's first import)
  'src/server/modules/processors/a.ts': "import { b } from './b';\nexport const a = () => b;",
  'src/server/modules/processors/b.ts': "import { a } from './a';\nexport const b = () => a;",
  // server-never-imports-app, platform-imports-upward
  'src/server/platform/log.ts':
    "import { page } from '@/app/page';\nimport { route } from '@/server/modules/routing/route';\nexport const log = [page, route];",
};

type Violation = { from: string; to: string; rule: { name: string } };

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function violations(): Promise<string[]> {
  const config = join(ROOT, '.dependency-cruiser.cjs');
  const run = await promisify(execFile)(DEPCRUISE, ['src', '--config', config, '--output-type', 'json'], { cwd: dir }).catch(
    (error: { stdout: string }) => error,
  );
  const report = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();
}

describe('the layer rules', () => {
  it('report every planted forbidden import under its rule, and no allowed one', async () => {
    expect(await violations()).toStrictEqual(
      [
        'core-imports-upward: src/server/core/domain/rule.ts -> src/server/platform/db/client.ts',
        'core-is-pure: src/server/core/domain/rule.ts -> src/env.ts',
        'core-is-pure: src/server/core/domain/rule.ts -> node_modules/next/index.js',
        'modules-events-downward-only: src/server/modules/events/event.ts -> src/server/modules/refunds/refund.ts',
        'payments-through-facade: src/server/modules/routing/route.ts -> src/server/payments/sandbox/acquirer.ts',
        'no-circular: src/server/modules/processors/a.ts -> src/server/modules/processors/b.ts',
        'server-never-imports-app: src/server/platform/log.ts -> src/app/page.ts',
        'platform-imports-upward: src/server/platform/log.ts -> src/server/modules/routing/route.ts',
      ].sort(),
    );
  });
});
