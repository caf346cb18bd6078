import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { AUTH_URL, BASE_URL, createMerchant, storedOperation } from '../support/service';

// The SDK as an integrator gets it: `npm pack` of packages/client (its prepack builds dist), the
// tarball installed in an empty project, and the README's quick start run there against the
// service, after the compiler checked it against the packed type declarations.

const ROOT = resolve('.');
const CLIENT = join(ROOT, 'packages/client');
// Under the repository, so the example's `process` finds @types/node up the tree, as in any project that has it.
const SCRATCH = join(ROOT, '.data/sdk-tarball');

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
}

/** The README's quick start: the first TypeScript block after its heading. */
function quickStart(): string {
  const readme = readFileSync(join(CLIENT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block?.[1]) throw new Error('packages/client/README.md has no quick start block');
  return block[1];
}

test.describe.configure({ timeout: 300_000 });

test("the packed SDK installs in an empty project, and its README's quick start type-checks and charges", async () => {
  rmSync(SCRATCH, { recursive: true, force: true });
  mkdirSync(SCRATCH, { recursive: true });
  run('npm', ['pack', '--silent', '--pack-destination', SCRATCH], CLIENT);
  const [tarball] = readdirSync(SCRATCH).filter((name) => name.endsWith('.tgz'));
  const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { version: string };
  expect(tarball).toBe(`pay-client-${manifest.version}.tgz`);

  // What the tarball holds: the build, its declarations, the licence and the changelog; no sources or maps.
  const listed = run('tar', ['-tzf', tarball!], SCRATCH).trim().split('\n');
  expect(listed).toEqual(
    expect.arrayContaining([
      'package/package.json',
      'package/README.md',
      'package/LICENSE',
      'package/CHANGELOG.md',
      'package/dist/index.js',
      'package/dist/index.d.ts',
      'package/dist/webhooks.js',
    ]),
  );
  expect(
    listed.filter((name) => name.endsWith('.map') || name.startsWith('package/src/') || name.startsWith('package/test/')),
  ).toEqual([]);

  writeFileSync(join(SCRATCH, 'package.json'), JSON.stringify({ name: 'sdk-scratch', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], SCRATCH);
  writeFileSync(join(SCRATCH, 'example.ts'), quickStart());

  // The compiler of the repository, over the packed declarations only (no path mapping to the sources).
  run(
    join(ROOT, 'node_modules/.bin/tsc'),
    [
      '--noEmit',
      '--strict',
      '--target',
      'ES2022',
      '--module',
      'NodeNext',
      '--moduleResolution',
      'NodeNext',
      '--types',
      'node',
      'example.ts',
    ],
    SCRATCH,
  );

  const merchant = await createMerchant('TGZ');
  const output = run(join(ROOT, 'node_modules/.bin/tsx'), ['example.ts'], SCRATCH, {
    ...process.env,
    PAY_BASE_URL: BASE_URL,
    PAY_AUTH_URL: AUTH_URL,
    PAY_CLIENT_ID: merchant.clientId,
    PAY_CLIENT_SECRET: merchant.clientSecret,
    PAY_MERCHANT_CODE: merchant.code,
  });
  const printed = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { merchant_operation_number: string; state: string };
  expect(printed.state).toBe('AUTORIZADO');

  // The service holds that charge.
  const stored = await storedOperation(merchant.code, printed.merchant_operation_number);
  expect(stored.transactions.map((each) => [each.attempt, each.state, each.amount])).toEqual([[1, 'AUTORIZADO', '15000']]);
});
