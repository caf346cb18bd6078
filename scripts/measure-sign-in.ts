// npm run measure:sign-in: how long a console sign-in takes and where the time goes. Starts the
// built service on a fresh embedded database with the demo users, then times sign-ins (next-auth's
// CSRF request and the credentials post, as the login page sends them) one after another: on an
// idle service, then while autocannon drives POST /charges at 32 connections, as `npm run bench`
// does. Beside them, in this process: the password check alone (scrypt, N=16384, r=8, p=1, as
// platform/security/secrets.ts runs it), idle and under the same load. Prints the medians and p95
// in ms (docs/BENCHMARKS.md, "Console sign-in").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashSecret, verifySecret } from '../src/server/platform/security/secrets';
import { measure } from './bench/measure';
import { benchTargets, LIFTED_LIMITS } from './bench/targets';
import { token } from './support/api-client';
import { startService } from './support/service-process';
import { quantile } from './support/timing';

const PORT = Number(process.env.MEASURE_PORT ?? 3970);
const RUNS = Number(process.env.MEASURE_RUNS ?? 20);
const EMAIL = 'owner@demo.pe';
const PASSWORD = 'demo-password-1';

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);

/** One sign-in as the login page makes it: the CSRF request, then the credentials post; ms of each. */
async function signIn(origin: string): Promise<{ csrf: number; credentials: number }> {
  const started = performance.now();
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const posted = performance.now();
  const response = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiesOf(csrf).join('; ') },
    body: new URLSearchParams({ csrfToken, email: EMAIL, password: PASSWORD, json: 'true' }),
  });
  await response.text();
  if (!cookiesOf(response).some((cookie) => cookie.includes('session-token='))) throw new Error('the sign-in failed');
  return { csrf: posted - started, credentials: performance.now() - posted };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${quantile(sorted, 0.5).toFixed(0)} p95 ${quantile(sorted, 0.95).toFixed(0)}`;
}

async function series(origin: string, stored: string): Promise<string[]> {
  const csrf: number[] = [];
  const credentials: number[] = [];
  const check: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const times = await signIn(origin);
    csrf.push(times.csrf);
    credentials.push(times.credentials);
    const started = performance.now();
    await verifySecret(PASSWORD, stored);
    check.push(performance.now() - started);
  }
  const total = csrf.map((each, index) => each + credentials[index]!);
  return [
    `sign-in ${summary(total)} (CSRF request ${summary(csrf)}, credentials post ${summary(credentials)})`,
    `password check alone, in this process ${summary(check)}`,
  ];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-sign-in-'));
  const service = await startService(PORT, {
    DATABASE_URL: '',
    PGLITE_DIR: join(dir, 'pglite'),
    SERVICE_FILE: join(dir, 'service.json'),
    SEED_DEMO: 'true',
    LOG_REQUESTS: 'false',
    BENCH_ROUTES: 'true',
    ...LIFTED_LIMITS,
  });
  try {
    const stored = await hashSecret(PASSWORD);
    await signIn(service.origin);
    console.log(`idle (${RUNS} sign-ins one after another):`);
    for (const line of await series(service.origin, stored)) console.log(`  ${line}`);
    const bearer = await token(service.origin);
    const charges = benchTargets(service.origin, bearer, {
      transactionPath: '',
      refundPath: '',
      capturePaths: [''],
      savedCards: [],
    }).charges;
    const load = measure(service.origin, charges, { seconds: 30, connections: 32 });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    console.log('under load (POST /charges at 32 connections):');
    for (const line of await series(service.origin, stored)) console.log(`  ${line}`);
    const figures = await load;
    console.log(`  the load: ${figures.requestsPerSecond.toFixed(0)} charges/s, p50 ${figures.p50} ms`);
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
