// npm run bench: builds if needed, starts the service on the embedded database (then on
// PostgreSQL when DATABASE_URL is set), warms up, and measures the API's hot endpoints against a
// bare Next route handler in the same run (docs/BENCHMARKS.md):
// - saturated: autocannon at 32 connections, with CPU per request by thread, statements per
//   request, the event loop's delay and GC time from the service's own metrics;
// - saved cards: a new card's, a one-click and an MIT charge alternated in short windows
//   (bench/alternated.ts), their ratios to the new card's and their CPU per request;
// - open loop: requests evenly spaced at 100, 200 and 400 requests/s (open-loop.ts), p50, p99
//   and p99.9 from each request's due time;
// - a fresh instance: restarted on the same database and sent 200 charges/s from its first
//   moment it says it is ready, for as long as an open-loop run, also by window (its first
//   second, the next two, the rest), where what is still cold shows;
// - overload: restarted again with its admission control as configured by default (the runs
//   above lift it, as they lift the rate limits), charges at a steady 100/s (a third of the
//   saturated rate if less), then at twice the saturated rate for 30 s, then steady again:
//   admitted and refused requests and their latencies.
// Prints the tables and rewrites them in docs/BENCHMARKS.md. BENCH_SECONDS (default 10) sets a
// saturated run's length, BENCH_OPEN_SECONDS (default 15) an open-loop run's.
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepare } from './bench/prepare';
import { token } from './support/api-client';
import { benchTargets, LIFTED_LIMITS, type TargetName } from './bench/targets';
import { measure, type Target } from './bench/measure';
import { alternated, SAVED_CARD_WINDOWS, savedCardTable, type Alternated } from './bench/alternated';
import { figuresOf, sendEvenly } from './bench/open-loop';
import { BURST_SECONDS, overloadRun, overloadTable } from './bench/overload';
import { latencyTable, processorLatencyRuns } from './bench/processor-latency';
import { startStandIn } from './bench/stand-in-processor';
import { longestBusyStretches, summarizeProfile } from './bench/profile-summary';
import { runStats, serviceStats } from './bench/service-stats';
import { freshTable, machine, openTable, saturatedTable, writeSection, type OpenRow, type SaturatedRow } from './bench/report';
import { cpuPerRequest, cpuSample } from './support/cpu-time';
import { withStealShare } from './support/cpu-steal';
import { memoryMiB, startService, withMemorySampling, type ServiceProcess } from './support/service-process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 15);
const CONNECTIONS = 32;
const RATES = [100, 200, 400];
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const SATURATED: TargetName[] = ['charges', 'oneClick', 'mit', 'capture', 'transaction', 'refund', 'token'];
/** Authorizations made for the capture run: more than a saturated run can capture (a capture is made once). */
const CAPTURES = Number(process.env.BENCH_CAPTURES ?? SECONDS * 400);
const OPEN: TargetName[] = ['baseline', 'charges', 'transaction', 'refund'];

/** One open-loop run, with what the service's event loop and garbage collector did meanwhile. */
async function openRun(origin: string, target: Target, rate: number, metricsToken: string) {
  const before = await serviceStats(origin, metricsToken);
  const { result: samples, stealPercent } = await withStealShare(() =>
    sendEvenly(origin, target, [{ rate, seconds: OPEN_SECONDS }]),
  );
  const figures = figuresOf(samples, rate);
  const stats = runStats(before, await serviceStats(origin, metricsToken), figures.sent, OPEN_SECONDS);
  return { figures, samples, stealPercent, stats };
}

async function benchDatabase(database: 'pglite' | 'postgresql', databaseUrl: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
  const serviceFile = join(dir, 'service.json');
  const metricsToken = randomBytes(24).toString('base64url');
  const environment = {
    DATABASE_URL: databaseUrl,
    PGLITE_DIR: join(dir, 'pglite'),
    SERVICE_FILE: serviceFile,
    BENCH_ROUTES: 'true',
    METRICS_TOKEN: metricsToken,
    ...LIFTED_LIMITS,
    // The refund list is measured on the warm-up's 50 REGISTERED refunds: they must stay
    // REGISTERED for the whole run (the worker takes them after this delay).
    REFUND_PROCESSING_DELAY_SECONDS: '86400',
  };
  let service: ServiceProcess | null = await startService(PORT, environment);
  try {
    const pid = service.child.pid!;
    const origin = service.origin;
    const bearer = await token(origin);
    console.log(`\n${database}: warming up (300 charges, settle, 50 refunds, ${CAPTURES} authorizations to capture)`);
    const targets = benchTargets(
      origin,
      bearer,
      await prepare(origin, serviceFile, bearer, { count: 300, refunds: 50, captures: CAPTURES }),
    );
    for (const name of ['baseline', ...SATURATED] as TargetName[]) {
      await measure(origin, targets[name], { seconds: 2, connections: 8 });
    }

    const saturated = async (target: Target) => {
      const before = { cpu: cpuSample(pid), stats: await serviceStats(origin, metricsToken) };
      const { result: run, stealPercent } = await withStealShare(() =>
        withMemorySampling(pid, () => measure(origin, target, { seconds: SECONDS, connections: CONNECTIONS })),
      );
      const cpu = cpuPerRequest(before.cpu, cpuSample(pid), run.result.total);
      const stats = runStats(before.stats, await serviceStats(origin, metricsToken), run.result.total, SECONDS);
      console.log(`  ${target.name}: ${run.result.requestsPerSecond.toFixed(0)} req/s`);
      return { name: target.name, figures: run.result, peakMiB: run.peakMiB, cpu, stats, stealPercent };
    };
    // The baseline before and after the endpoints (their mean is the ratios' denominator).
    const first = await saturated(targets.baseline);
    const rows: SaturatedRow[] = [];
    for (const name of SATURATED) rows.push(await saturated(targets[name]));
    const last = await saturated(targets.baseline);
    const savedCards = await savedCardsAlternated(origin, targets, { pid, metricsToken }, database);
    // The bare route sends no statement: what the baseline runs saw was the in-process worker's
    // polls, taken off each endpoint's count at the same rate.
    const background =
      (first.stats.statementsPerRequest * first.figures.total + last.stats.statementsPerRequest * last.figures.total) /
      (2 * SECONDS);
    for (const row of rows) row.stats.statementsPerRequest -= (background * SECONDS) / row.figures.total;
    const baseline: SaturatedRow = {
      ...first,
      name: `baseline (bare route), ${CONNECTIONS} connections`,
      figures: {
        ...first.figures,
        requestsPerSecond: (first.figures.requestsPerSecond + last.figures.requestsPerSecond) / 2,
        p50: (first.figures.p50 + last.figures.p50) / 2,
        p99: (first.figures.p99 + last.figures.p99) / 2,
      },
      stats: { ...first.stats, statementsPerRequest: 0 },
      stealPercent: (first.stealPercent + last.stealPercent) / 2,
    };

    const open: OpenRow[] = [];
    for (const rate of RATES) {
      for (const name of OPEN) {
        const { figures, stealPercent, stats } = await openRun(origin, targets[name], rate, metricsToken);
        console.log(
          `  ${targets[name].name} at ${rate}/s: p50 ${figures.p50} p99 ${figures.p99} p99.9 ${figures.p999} ms, ` +
            `loop delay max ${stats.loopMaxMs.toFixed(0)} ms, steal ${stealPercent.toFixed(0)} %`,
        );
        open.push({ name: targets[name].name, baseline: name === 'baseline', figures, stealPercent, stats });
      }
    }
    const peak = memoryMiB(pid).peak;

    // A restart under load: the same database, 200 charges/s from the moment the new instance
    // says it is ready (/api/health, which startService waits for).
    await service.stop();
    service = null;
    service = await startService(PORT, environment);
    const fresh = await openRun(origin, targets.charges, 200, metricsToken);
    console.log(`  fresh instance: p50 ${fresh.figures.p50} p99 ${fresh.figures.p99} p99.9 ${fresh.figures.p999} ms`);

    await service.stop();
    service = null;
    const { ADMISSION_LIMITS: _lifted, ...admitting } = environment;
    service = await startService(PORT, admitting);
    const chargesRate = rows.find((row) => row.name === targets.charges.name)!.figures.requestsPerSecond;
    const burst = Math.round(2 * chargesRate);
    // The steady state well under capacity (100/s, or a third of the saturated rate on a slower machine).
    const steady = Math.max(1, Math.min(100, Math.round(chargesRate / 3)));
    console.log(`  overload: ${steady} charges/s, ${burst}/s for ${BURST_SECONDS} s, ${steady}/s`);
    const overload = await overloadRun(origin, targets.charges, { steady, burst });
    for (const phase of overload) {
      console.log(
        `    ${phase.name}: ${phase.admitted} admitted (p99 ${phase.admittedMs.p99} ms, ${phase.lost} lost), ` +
          `${phase.refused} refused (max ${phase.refusedMs.max} ms)`,
      );
    }
    const bareAt200 = open.find((row) => row.baseline && row.figures.rate === 200)!.figures.p99;
    const chargesAt200 = open.find((row) => row.name === targets.charges.name && row.figures.rate === 200)!.figures.p99;

    await service.stop();
    service = null;
    const latency = await latencyRuns(environment, admitting);

    const lines = [
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}; ${database === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}; ` +
        `saturated runs ${SECONDS} s at ${CONNECTIONS} connections, open-loop runs ${OPEN_SECONDS} s evenly spaced; service peak RSS ${peak.toFixed(0)} MiB.`,
      '',
      ...saturatedTable(baseline, rows),
      '',
      ...savedCardTable(CONNECTIONS, ...savedCards),
      '',
      ...openTable(open, { name: 'POST /charges (CARD), fresh instance', ...fresh }),
      '',
      ...freshTable(fresh.samples, 200),
      '',
      ...overloadTable(overload, bareAt200),
      '',
      ...latencyTable(latency, chargesAt200, bareAt200),
    ];
    console.log(`\n${lines.join('\n')}`);
    writeSection('docs/BENCHMARKS.md', database, lines);
  } finally {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The processor-latency runs (bench/processor-latency.ts) on a new instance of the service on the
 * same database, its admission as configured by default, its Mercado Pago the benchmark's
 * stand-in, an account's timeout (15 s) longer than the fault run's 10 s answers.
 */
/** BENCH_LATENCY_RATES (say `200`) and BENCH_LATENCY_FAULT=false narrow the runs, to try a setting. */
function latencyChoice(): { rates?: number[]; withFault?: boolean } {
  const rates = process.env.BENCH_LATENCY_RATES?.split(',').map(Number);
  return { ...(rates ? { rates } : {}), withFault: process.env.BENCH_LATENCY_FAULT !== 'false' };
}

async function latencyRuns(environment: Record<string, string>, admitting: Record<string, string>, profileDir?: string) {
  const standIn = await startStandIn();
  const service = await startService(
    PORT,
    { ...admitting, MERCADOPAGO_API_URL: standIn.url, PROCESSOR_TIMEOUT_MS: '15000' },
    profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {},
  );
  try {
    return await processorLatencyRuns(
      service.origin,
      environment.SERVICE_FILE!,
      service.child.pid!,
      environment.METRICS_TOKEN!,
      standIn,
      profileDir ? { rates: [200], withFault: false } : latencyChoice(),
    );
  } finally {
    await service.stop();
    await standIn.close();
  }
}

/**
 * `npm run bench -- --latency`: only the processor-latency runs, on a new database, printed
 * (BENCHMARKS.md untouched). With `--profile`, only the 200/s run, the service under V8's CPU
 * profiler, and where its threads' time went.
 */
async function latencyOnly(database: string, databaseUrl: string, profile: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
  const { ADMISSION_LIMITS: _lifted, ...limits } = LIFTED_LIMITS;
  const environment = {
    DATABASE_URL: databaseUrl,
    PGLITE_DIR: join(dir, 'pglite'),
    SERVICE_FILE: join(dir, 'service.json'),
    METRICS_TOKEN: randomBytes(24).toString('base64url'),
    ...limits,
  };
  const profileDir = profile ? join(dir, 'profiles') : undefined;
  try {
    const rows = await latencyRuns(environment, environment, profileDir);
    console.log(`\n${database}, ${machine()}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC\n`);
    console.log(
      latencyTable(
        rows,
        Number(process.env.BENCH_INSTANT_P99 ?? Number.NaN),
        Number(process.env.BENCH_BARE_P99 ?? Number.NaN),
      ).join('\n'),
    );
    for (const file of profileDir ? readdirSync(profileDir).sort() : []) {
      const path = join(profileDir!, file);
      console.log(`\n${path}\n${[...summarizeProfile(path, 25), ...longestBusyStretches(path)].join('\n')}`);
    }
  } finally {
    // The profiles stay for Chrome DevTools; the database goes.
    rmSync(profileDir ? join(dir, 'pglite') : dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- --saved-cards`: only a new card's, a one-click and an MIT charge, saturated,
 * alternated in short windows on a new database (bench/alternated.ts), and their ratios to the
 * new card's, printed (BENCHMARKS.md untouched). With `--profile`, each once for 10 s under V8's
 * CPU profiler, and where the service's threads' time went.
 */
async function savedCardsOnly(database: string, databaseUrl: string, profile: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pay-bench-'));
  const environment = {
    DATABASE_URL: databaseUrl,
    PGLITE_DIR: join(dir, 'pglite'),
    SERVICE_FILE: join(dir, 'service.json'),
    BENCH_ROUTES: 'true',
    METRICS_TOKEN: randomBytes(24).toString('base64url'),
    ...LIFTED_LIMITS,
  };
  const profileDir = profile ? join(dir, 'profiles') : undefined;
  const service = await startService(
    PORT,
    environment,
    profileDir ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } : {},
  );
  try {
    const origin = service.origin;
    const bearer = await token(origin);
    const targets = benchTargets(origin, bearer, {
      ...(await prepare(origin, environment.SERVICE_FILE, bearer, { count: 100, refunds: 1, captures: 1 })),
    });
    const names: TargetName[] = ['charges', 'oneClick', 'mit'];
    for (const name of names) await measure(origin, targets[name], { seconds: 2, connections: 8 });
    if (profile) {
      for (const name of names) {
        const pid = service.child.pid!;
        const before = cpuSample(pid);
        const result = await measure(origin, targets[name], { seconds: SECONDS, connections: CONNECTIONS });
        const cpu = cpuPerRequest(before, cpuSample(pid), result.total);
        console.log(`  ${database} ${targets[name].name}: ${result.requestsPerSecond.toFixed(0)} req/s, ${JSON.stringify(cpu)}`);
      }
      return;
    }
    const compared = await savedCardsAlternated(
      origin,
      targets,
      { pid: service.child.pid!, metricsToken: environment.METRICS_TOKEN },
      database,
    );
    console.log(`\n${database}\n${savedCardTable(CONNECTIONS, ...compared).join('\n')}`);
  } finally {
    await service.stop();
    for (const file of profileDir ? readdirSync(profileDir).sort() : []) {
      const path = join(profileDir!, file);
      console.log(`\n${path}\n${summarizeProfile(path, 40).join('\n')}`);
    }
    rmSync(profileDir ? join(dir, 'pglite') : dir, { recursive: true, force: true });
  }
}

/** A new card's, a one-click and an MIT charge alternated (bench/alternated.ts), each cycle printed. */
async function savedCardsAlternated(
  origin: string,
  targets: Record<TargetName, Target>,
  service: { pid: number; metricsToken: string },
  database: string,
): Promise<[Alternated, Alternated, Alternated]> {
  const [newCard, oneClick, mit] = await alternated(origin, [targets.charges, targets.oneClick, targets.mit], {
    ...SAVED_CARD_WINDOWS,
    connections: CONNECTIONS,
    pid: service.pid,
    statementsSent: async () => (await serviceStats(origin, service.metricsToken)).statements,
    onCycle: (cycle, rates) =>
      console.log(`  ${database} cycle ${cycle + 1}: ${rates.map((rate) => rate.toFixed(0)).join(' / ')} req/s`),
  });
  return [newCard!, oneClick!, mit!];
}

async function main(): Promise<void> {
  if (!existsSync('.next/BUILD_ID')) execSync('npm run build', { stdio: 'inherit' });
  if (process.argv.includes('--saved-cards')) {
    const profile = process.argv.includes('--profile');
    if (!process.argv.includes('--postgresql-only')) await savedCardsOnly('pglite', '', profile);
    if (process.env.DATABASE_URL) await savedCardsOnly('postgresql', process.env.DATABASE_URL, profile);
    return;
  }
  if (process.argv.includes('--latency')) {
    const profile = process.argv.includes('--profile');
    await latencyOnly('pglite', '', profile);
    if (process.env.DATABASE_URL) await latencyOnly('postgresql', process.env.DATABASE_URL, profile);
    return;
  }
  await benchDatabase('pglite', '');
  if (process.env.DATABASE_URL) await benchDatabase('postgresql', process.env.DATABASE_URL);
  else console.log('\nPostgreSQL not measured: set DATABASE_URL to a postgres:// database to measure it too.');
  // The tables as the format check expects them.
  execSync('npx prettier --write docs/BENCHMARKS.md', { stdio: 'ignore' });
}

main().catch((error: unknown) => {
  console.error(
    error instanceof Error ? (process.env.BENCH_DEBUG ? error.stack : error.message) : String(error),
    (error as { data?: unknown }).data ?? '',
  );
  process.exit(1);
});
