import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../support/contract';
import { chargeBody, operationNumber, postCharge } from '../support/api-client';
import { culqiKeys, CULQI_SIMULATOR, NIUBIZ_SIMULATOR, simulatorControl } from '../support/processors';
import { PORT, serviceDataDir } from '../support/service';
import { newActor } from './charges-helpers';

// The operator's CLI scripts a merchant's set-up end to end (issue 28 point 5): a Culqi account
// connected with its secret read from a file, CARD routed to it, and a charge carried there.
// The CLI reaches the running service as an operator (its service file), or the PostgreSQL
// database in its own process, as it would on a deployed machine.

const run = promisify(execFile);

// Each step is a CLI process of its own (tsx, the database opened in-process on PostgreSQL: about
// 4 s on an idle machine), four or five to a test.
test.describe.configure({ timeout: 150_000 });

/** `connect-processor-account` of a Culqi account with these keys (the secret as a value or @FILE). */
const connectCulqiArgs = (merchantCode: string, environment: 'test' | 'live', publicKey: string, secretKey: string) => [
  'connect-processor-account',
  '--merchant',
  merchantCode,
  '--processor',
  'culqi',
  '--name',
  'Culqi por CLI',
  '--environment',
  environment,
  '--methods',
  'CARD',
  '--public-key',
  publicKey,
  '--secret-key',
  secretKey,
];

async function cli(args: string[]): Promise<unknown> {
  const { stdout } = await run('npx', ['tsx', 'scripts/cli.ts', ...args], {
    env: {
      ...process.env,
      SERVICE_FILE: `${serviceDataDir(PORT)}/service.json`,
      PGLITE_DIR: `${serviceDataDir(PORT)}/pglite`,
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
    },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as unknown;
}

test('an operator connects a Culqi account from the CLI, routes CARD to it, and a charge goes there', async ({ request }) => {
  const { merchant, token } = await newActor(request, 'CLI');
  const keys = culqiKeys();
  await simulatorControl(CULQI_SIMULATOR, 'accounts', { public_key: keys.publicKey, secret_key: keys.secretKey });
  const dir = mkdtempSync(join(tmpdir(), 'cli-secret-'));
  try {
    writeFileSync(join(dir, 'culqi-secret'), `${keys.secretKey}\n`, { mode: 0o600 });
    const connected = (await cli(connectCulqiArgs(merchant.code, 'test', keys.publicKey, `@${join(dir, 'culqi-secret')}`))) as {
      account: { connectorId: string; name: string; methods: string[] };
    };
    expect(connected.account).toMatchObject({ name: 'Culqi por CLI', methods: ['CARD'] });
    expect(JSON.stringify(connected)).not.toContain(keys.secretKey);

    const routes = JSON.stringify([{ connector: connected.account.connectorId, priority: 1 }]);
    await cli(['routing-draft', '--merchant', merchant.code, '--method', 'CARD', '--routes', routes]);
    await cli(['routing-publish', '--merchant', merchant.code, '--method', 'CARD']);

    const paid = await postCharge(request, token, chargeBody(merchant.code, operationNumber('cli'), 'CARD'));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transaction.state).toBe('AUTORIZADO');
    expect(paid.body.transaction.additional_fields?.processor).toBe(connected.account.connectorId);

    const listed = await cli(['processor-accounts', '--merchant', merchant.code]);
    expect(JSON.stringify(listed)).toContain(connected.account.connectorId);
    expect(JSON.stringify(listed)).not.toContain(keys.secretKey);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the CLI refuses an account whose keys are not the processor’s, and stores nothing', async ({ request }) => {
  const { merchant } = await newActor(request, 'CLX');
  const failure = await cli(connectCulqiArgs(merchant.code, 'live', 'pk_test_AAAAAAAAAAAAAAAA', 'sk_test_AAAAAAAAAAAAAAAA')).then(
    () => null,
    (error: { code?: number; stderr?: string }) => error,
  );
  expect(failure?.code).toBe(1);
  expect(failure?.stderr).toMatch(/^error: the request failed validation$/m);
  expect(failure?.stderr).toMatch(/^ {2}publicKey: must be a live key$/m);
  expect(failure?.stderr).toMatch(/^ {2}secretKey: must be a live key$/m);
  expect(await cli(['processor-accounts', '--merchant', merchant.code])).toMatchObject({ accounts: [] });
});

test('an operator connects a Niubiz account from the CLI (merchant code, API user, password from a file) and a charge goes there', async ({
  request,
}) => {
  const { merchant, token } = await newActor(request, 'CLN');
  const keys = {
    merchantId: String(randomInt(100_000_000, 1_000_000_000)),
    user: `integraciones+${randomBytes(4).toString('hex')}@niubiz.test`,
    password: randomBytes(9).toString('base64url'),
  };
  await simulatorControl(NIUBIZ_SIMULATOR, 'accounts', keys);
  const dir = mkdtempSync(join(tmpdir(), 'cli-secret-'));
  try {
    writeFileSync(join(dir, 'niubiz-password'), `${keys.password}\n`, { mode: 0o600 });
    const connected = (await cli([
      'connect-processor-account',
      '--merchant',
      merchant.code,
      '--processor',
      'niubiz',
      '--name',
      'Niubiz por CLI',
      '--environment',
      'test',
      '--methods',
      'CARD QR',
      '--public-key',
      keys.merchantId,
      '--api-user',
      keys.user,
      '--secret-key',
      `@${join(dir, 'niubiz-password')}`,
    ])) as { account: { connectorId: string; apiUser: string; methods: string[] } };
    expect(connected.account).toMatchObject({ apiUser: keys.user, methods: ['CARD', 'QR'] });
    expect(JSON.stringify(connected)).not.toContain(keys.password);
    const routes = JSON.stringify([{ connector: connected.account.connectorId, priority: 1 }]);
    await cli(['routing-draft', '--merchant', merchant.code, '--method', 'CARD', '--routes', routes]);
    await cli(['routing-publish', '--merchant', merchant.code, '--method', 'CARD']);
    // Niubiz's documented approved test card (docs/processors/sources/niubiz-api.md 13.1).
    const paid = await postCharge(
      request,
      token,
      chargeBody(merchant.code, operationNumber('cln'), 'CARD', { details: { pan: '4919148107859067' } }),
    );
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.transaction.state).toBe('AUTORIZADO');
    expect(paid.body.transaction.additional_fields?.processor).toBe(connected.account.connectorId);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
