// npm run profile -- <charges|transaction|refund|token|baseline> [seconds]: starts the service
// with V8's CPU profiler (on the embedded database, or PostgreSQL when DATABASE_URL is set),
// warms it up like the benchmark, loads one path at 32 connections, stops it and prints where
// each thread's time went (the request thread, and PGlite's own thread on the embedded
// database). The .cpuprofile files stay in the printed folder (Chrome DevTools opens them).
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from './bench/measure';
import { prepare } from './bench/prepare';
import { summarizeProfile } from './bench/profile-summary';
import { benchTargets, LIFTED_LIMITS, type TargetName } from './bench/targets';
import { token } from './support/api-client';
import { startService } from './support/service-process';

async function main(): Promise<void> {
  const name = (process.argv[2] ?? 'charges') as TargetName;
  const seconds = Number(process.argv[3] ?? 15);
  const dir = mkdtempSync(join(tmpdir(), 'pay-profile-'));
  const profiles = join(dir, 'profiles');
  const serviceFile = join(dir, 'service.json');
  const service = await startService(
    Number(process.env.BENCH_PORT ?? 3900),
    {
      DATABASE_URL: process.env.DATABASE_URL ?? '',
      PGLITE_DIR: join(dir, 'pglite'),
      SERVICE_FILE: serviceFile,
      BENCH_ROUTES: 'true',
      ...LIFTED_LIMITS,
    },
    { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] },
  );
  const bearer = await token(service.origin);
  const targets = benchTargets(
    service.origin,
    bearer,
    await prepare(service.origin, serviceFile, bearer, { count: 100, refunds: 20, captures: 3000 }),
  );
  const target = targets[name];
  if (!target) throw new Error(`no path ${name}: one of ${Object.keys(targets).join(', ')}`);
  await measure(service.origin, target, { seconds: 2, connections: 8 });
  const figures = await measure(service.origin, target, { seconds, connections: 32 });
  await service.stop();
  console.log(`${target.name}: ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`);
  // Start-up and warm-up are in the profiles too; the load dominates them at 15 s.
  for (const file of readdirSync(profiles).sort()) {
    console.log(`\n${join(profiles, file)}`);
    console.log(summarizeProfile(join(profiles, file)).join('\n'));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
