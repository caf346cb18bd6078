import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { apiHeaders, chargeBody, token } from './support/api-client';
import { measure } from './bench/measure';

const PORT = 3950;
async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'pay-prof-'));
  const which = process.argv[2] ?? 'charges';
  const prof = process.env.PROF === '1';
  const child = spawn(process.execPath, [...(prof ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof/out'] : []), 'node_modules/next/dist/bin/next', 'start', '-p', String(PORT)], {
    env: { ...process.env, PORT: String(PORT), PGLITE_DIR: join(dir, 'pglite'), SERVICE_FILE: join(dir, 'service.json'), BENCH_ROUTES: 'true', LOG_REQUESTS: process.env.LOG_REQUESTS ?? 'true',
      API_RATE_PER_SECOND: '1000000', TOKEN_RATE_PER_CLIENT: '1000000', TOKEN_RATE_PER_ADDRESS: '1000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://localhost:${PORT}`;
  for (;;) { try { if ((await fetch(`${origin}/api/health`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 250)); }
  const bearer = await token(origin);
  const run = Date.now().toString(36);
  const seconds = Number(process.env.SECS ?? 10);
  const targets: Record<string, Parameters<typeof measure>[1]> = {
    charges: { name: 'charges', method: 'POST', path: '/api/charges', headers: apiHeaders(bearer), body: () => chargeBody(run) },
    baseline: { name: 'baseline', method: 'GET', path: '/api/bench/baseline' },
  };
  for (const name of which.split(',')) {
    await measure(origin, targets[name]!, { seconds: 2, connections: 8 });
    const f = await measure(origin, targets[name]!, { seconds, connections: 32 });
    console.log(name, JSON.stringify(f));
  }
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
}
main();
