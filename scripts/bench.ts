// npm run bench: builds if needed, starts the service on the embedded database (then on
// PostgreSQL when DATABASE_URL is set), warms up, and measures with autocannon the API's hot
// endpoints against a bare Next route handler in the same run. Prints the table and rewrites
// it in docs/BENCHMARKS.md. BENCH_SECONDS (default 10) sets each run's length.
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepare } from './bench/prepare';
import { token } from './support/api-client';
import { benchTargets, LIFTED_LIMITS } from './bench/targets';
import { measure, type Figures, type Target } from './bench/measure';
import { machine, table, writeSection, type Row } from './bench/report';
import { cpuPerRequest, cpuSample, type CpuSample } from './support/cpu-time';
import { memoryMiB, startService, withMemorySampling } from './support/service-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const OPEN_RATE = 200;
const PORT = Number(process.env.BENCH_PORT ?? 3900);

async function benchDatabase(database: 'pglite' | 'postgresql', databaseUrl: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
  const serviceFile = join(dir, 'service.json');
  const service = await startService(PORT, {
    DATABASE_URL: databaseUrl,
    PGLITE_DIR: join(dir, 'pglite'),
    SERVICE_FILE: serviceFile,
    BENCH_ROUTES: 'true',
    ...LIFTED_LIMITS,
  });
  const pid = service.child.pid!;
  try {
    const origin = service.origin;
    const bearer = await token(origin);
    console.log(`\n${database}: warming up (300 charges, settle, 50 refunds)`);
    const all = benchTargets(origin, bearer, await prepare(origin, serviceFile, bearer, 300, 50));
    const baseline = all.baseline;
    const charges = all.charges;
    const targets: { target: Target; kind?: 'rps'; ratio?: number }[] = [
      { target: charges, kind: 'rps', ratio: database === 'pglite' ? 0.4 : 0.6 },
      { target: all.transaction, kind: 'rps', ratio: 0.8 },
      { target: all.refund, kind: 'rps', ratio: 0.8 },
      { target: all.token },
    ];
    const closed = async (target: Target) => {
      const before = cpuSample(pid);
      const run = await withMemorySampling(pid, () => measure(origin, target, { seconds: SECONDS, connections: CONNECTIONS }));
      return { ...run, cpu: cpuPerRequest(before, cpuSample(pid), run.result.total) };
    };
    const open = (target: Target) =>
      withMemorySampling(pid, () => measure(origin, target, { seconds: SECONDS, connections: CONNECTIONS, rate: OPEN_RATE }));
    // Warm-up of each path, then the baseline before and after the endpoints (the mean is used).
    for (const each of [baseline, ...targets.map((item) => item.target)]) {
      await measure(origin, each, { seconds: 2, connections: 8 });
    }
    const rows: Row[] = [];
    const before = await closed(baseline);
    for (const { target, kind, ratio } of targets) {
      const { result, peakMiB, cpu } = await closed(target);
      rows.push({ name: target.name, figures: result, peakMiB, cpu, ...(kind && ratio ? { target: { kind, ratio } } : {}) });
      console.log(`  ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s`);
    }
    const after = await closed(baseline);
    const openBaseline = await open({ ...baseline, name: `baseline at ${OPEN_RATE} req/s` });
    const openCharges = await open({ ...charges, name: `POST /charges at ${OPEN_RATE} req/s` });
    const closedBaseline: Figures = {
      requestsPerSecond: (before.result.requestsPerSecond + after.result.requestsPerSecond) / 2,
      p50: (before.result.p50 + after.result.p50) / 2,
      p99: (before.result.p99 + after.result.p99) / 2,
      errors: before.result.errors + after.result.errors,
      non2xx: before.result.non2xx + after.result.non2xx,
      total: before.result.total + after.result.total,
    };
    const allRows: Row[] = [
      {
        name: `baseline (bare route), ${CONNECTIONS} connections`,
        figures: closedBaseline,
        peakMiB: Math.max(before.peakMiB, after.peakMiB),
        cpu: meanCpu(before.cpu, after.cpu),
      },
      ...rows,
      { name: `baseline at ${OPEN_RATE} req/s`, figures: openBaseline.result, peakMiB: openBaseline.peakMiB },
      {
        name: `POST /charges at ${OPEN_RATE} req/s`,
        figures: openCharges.result,
        peakMiB: openCharges.peakMiB,
        target: { kind: 'p99', ratio: 2 },
      },
    ];
    const lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; ${database === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}; ` +
        `${SECONDS} s per run, ${CONNECTIONS} connections (closed loop) or ${OPEN_RATE} req/s (open loop); ` +
        `service peak RSS over the whole run ${memoryMiB(pid).peak.toFixed(0)} MiB.`,
      '',
      ...table(allRows, { closed: closedBaseline, open: openBaseline.result }),
    ];
    console.log(`\n${lines.join('\n')}`);
    writeSection('docs/BENCHMARKS.md', database, lines);
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function meanCpu(a: CpuSample, b: CpuSample): CpuSample {
  return {
    request: (a.request + b.request) / 2,
    database: (a.database + b.database) / 2,
    other: (a.other + b.other) / 2,
    postgres: (a.postgres + b.postgres) / 2,
  };
}

async function main(): Promise<void> {
  if (!existsSync('.next/BUILD_ID')) execSync('npm run build', { stdio: 'inherit' });
  await benchDatabase('pglite', '');
  if (process.env.DATABASE_URL) await benchDatabase('postgresql', process.env.DATABASE_URL);
  else console.log('\nPostgreSQL not measured: set DATABASE_URL to a postgres:// database to measure it too.');
  // The tables as the format check expects them.
  execSync('npx prettier --write docs/BENCHMARKS.md', { stdio: 'ignore' });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
