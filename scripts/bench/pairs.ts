// npm run bench:pairs -- <workaround> [pairs]: a runtime workaround of the service measured with
// and without it, in alternated pairs (with, without, without, with, ...), each run on a new
// service and a new database, on the embedded database, or on PostgreSQL when DATABASE_URL is
// set (its schema emptied before every run). Each workaround is measured by the run it was made
// for (docs/DECISIONS.md says which, and docs/BENCHMARKS.md keeps the figures):
// - semi-space: `--max-semi-space-size=64`; saturated charges at 32 connections (charges/s, CPU
//   ms a charge, garbage collection, peak RSS);
// - wasm-tiering: `--no-wasm-dynamic-tiering`; a fresh instance's first seconds at 200 charges/s
//   (restarted on a database that 300 charges warmed);
// - descriptors: LISTEN_DESCRIPTORS 16 against 1; the overload run (100/s, then a burst of
//   BENCH_BURST charges/s, 1,270 by default, for 30 s, then 100/s) on the default admission.
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chargeOnce, token } from '../support/api-client';
import { cpuPerRequest, cpuSample } from '../support/cpu-time';
import { withStealShare } from '../support/cpu-steal';
import { serviceCommand, startService, withMemorySampling, type ServiceProcess } from '../support/service-process';
import { measure } from './measure';
import { figuresOf, sendEvenly } from './open-loop';
import { overloadRun } from './overload';
import { machine } from './report';
import { runStats, serviceStats } from './service-stats';
import { benchTargets, LIFTED_LIMITS } from './targets';

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 15);
const BURST = Number(process.env.BENCH_BURST ?? 1270);
const DATABASE_URL = process.env.DATABASE_URL ?? '';

/** A run's environment, and whether Node's option under test is in npm start's command. */
type Variant = { option: boolean; environment: Record<string, string> };
type Workaround = {
  /** The Node option tested (the rest of npm start's command is kept as it is). */
  option?: string;
  with: Variant;
  without: Variant;
  columns: string[];
  run: (service: () => Promise<ServiceProcess>, metricsToken: string) => Promise<(string | number)[]>;
};

// The overload run's service, as npm run bench starts it: admission as configured by default, the
// rate limits lifted (they would answer the burst 429 before admission is reached).
const { ADMISSION_LIMITS: _admission, ...RATE_LIMITS_LIFTED } = LIFTED_LIMITS;
const SEMI_SPACE = '--max-semi-space-size=64';
const NO_WASM_TIERING = '--no-wasm-dynamic-tiering';

async function warm(origin: string, bearer: string, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) await chargeOnce(origin, bearer, 'warm');
}

const WORKAROUNDS: Record<string, Workaround> = {
  'semi-space': {
    option: SEMI_SPACE,
    with: { option: true, environment: LIFTED_LIMITS },
    without: { option: false, environment: LIFTED_LIMITS },
    columns: ['charges/s', 'p99 ms', 'request thread CPU ms a charge', 'GC ms a second', 'peak RSS MiB', 'steal %'],
    run: async (start, metricsToken) => {
      const service = await start();
      const bearer = await token(service.origin);
      await warm(service.origin, bearer, 300);
      const { charges } = benchTargets(service.origin, bearer, {
        transactionPath: '',
        refundPath: '',
        capturePaths: [''],
        savedCards: [],
      });
      await measure(service.origin, charges, { seconds: 2, connections: 8 });
      const pid = service.child.pid!;
      const before = { cpu: cpuSample(pid), stats: await serviceStats(service.origin, metricsToken) };
      const { result: run, stealPercent } = await withStealShare(() =>
        withMemorySampling(pid, () => measure(service.origin, charges, { seconds: SECONDS, connections: 32 })),
      );
      const cpu = cpuPerRequest(before.cpu, cpuSample(pid), run.result.total);
      const stats = runStats(before.stats, await serviceStats(service.origin, metricsToken), run.result.total, SECONDS);
      await service.stop();
      return [
        Math.round(run.result.requestsPerSecond),
        run.result.p99,
        cpu.request.toFixed(2),
        stats.gcMsPerSecond.toFixed(0),
        run.peakMiB.toFixed(0),
        stealPercent.toFixed(0),
      ];
    },
  },
  'wasm-tiering': {
    option: NO_WASM_TIERING,
    with: { option: true, environment: LIFTED_LIMITS },
    without: { option: false, environment: LIFTED_LIMITS },
    columns: ['first second p50 / p99 / max ms', '1–3 s p99 ms', 'whole run p50 / p99 ms', 'errors', 'steal %'],
    run: async (start) => {
      const warmed = await start();
      await warm(warmed.origin, await token(warmed.origin), 300);
      await warmed.stop();
      const fresh = await start();
      const { charges } = benchTargets(fresh.origin, await token(fresh.origin), {
        transactionPath: '',
        refundPath: '',
        capturePaths: [''],
        savedCards: [],
      });
      const { result: samples, stealPercent } = await withStealShare(() =>
        sendEvenly(fresh.origin, charges, [{ rate: 200, seconds: OPEN_SECONDS }]),
      );
      await fresh.stop();
      const first = figuresOf(
        samples.filter((sample) => sample.due < 1000),
        200,
      );
      const next = figuresOf(
        samples.filter((sample) => sample.due >= 1000 && sample.due < 3000),
        200,
      );
      const all = figuresOf(samples, 200);
      return [
        `${first.p50} / ${first.p99} / ${first.max}`,
        next.p99,
        `${all.p50} / ${all.p99}`,
        all.errors + all.non2xx,
        stealPercent.toFixed(0),
      ];
    },
  },
  descriptors: {
    with: { option: false, environment: { ...RATE_LIMITS_LIFTED, LISTEN_DESCRIPTORS: '16' } },
    without: { option: false, environment: { ...RATE_LIMITS_LIFTED, LISTEN_DESCRIPTORS: '1' } },
    columns: [
      'burst: admitted',
      'admitted p50 / p99 / max ms',
      'refused p50 / p99 / max ms',
      'refused on open connections p99 / max ms',
      'sent on new connections',
      'refused on new connections p99 / max ms',
      'admitted lost',
      'steal %',
    ],
    run: async (start) => {
      const service = await start();
      const bearer = await token(service.origin);
      await warm(service.origin, bearer, 300);
      const { charges } = benchTargets(service.origin, bearer, {
        transactionPath: '',
        refundPath: '',
        capturePaths: [''],
        savedCards: [],
      });
      const { result: phases, stealPercent } = await withStealShare(() =>
        overloadRun(service.origin, charges, { steady: 100, burst: BURST }),
      );
      await service.stop();
      const burst = phases[1]!;
      const cell = (ms: { p50: number; p99: number; max: number }) => `${ms.p50} / ${ms.p99} / ${ms.max}`;
      return [
        burst.admitted,
        cell(burst.admittedMs),
        cell(burst.refusedMs),
        `${burst.keptAlive.refusedMs.p99} / ${burst.keptAlive.refusedMs.max}`,
        burst.onNewConnections,
        `${burst.onNew.refusedMs.p99} / ${burst.onNew.refusedMs.max}`,
        burst.lost,
        stealPercent.toFixed(0),
      ];
    },
  },
};

/** npm start's command with the option under test in it or not, its other options as they are. */
function commandOf(option: string | undefined, variant: Variant): string[] {
  const [node, ...rest] = serviceCommand();
  const script = rest.pop()!;
  const kept = rest.filter((each) => each !== option);
  return [node!, ...kept, ...(option && variant.option ? [option] : []), script];
}

async function emptySchema(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('SET client_min_messages = warning; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
  await client.end();
}

async function main(): Promise<void> {
  const [name, pairsArgument] = process.argv.slice(2);
  const workaround = name ? WORKAROUNDS[name] : undefined;
  if (!workaround) {
    console.error(`usage: npm run bench:pairs -- <${Object.keys(WORKAROUNDS).join('|')}> [pairs]`);
    process.exit(2);
  }
  const pairs = Number(pairsArgument ?? 3);
  if (!existsSync('.next/BUILD_ID')) execSync('npm run build', { stdio: 'inherit' });
  // with, without, without, with, with, without, ...: neither side always runs first.
  const order = Array.from({ length: pairs }, (_, pair) =>
    pair % 2 === 0 ? ['with', 'without'] : ['without', 'with'],
  ).flat() as ('with' | 'without')[];
  const database = DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  console.log(`${name} on ${database}, ${machine()}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  const rows: string[] = [
    `| run | ${name} | ${workaround.columns.join(' | ')} |`,
    `|---|---|${workaround.columns.map(() => '---:').join('|')}|`,
  ];
  for (const [index, side] of order.entries()) {
    const variant = workaround[side];
    const dir = mkdtempSync(join(tmpdir(), 'pay-pairs-'));
    if (DATABASE_URL) await emptySchema(DATABASE_URL);
    const metricsToken = randomBytes(24).toString('base64url');
    const environment = {
      DATABASE_URL,
      PGLITE_DIR: join(dir, 'pglite'),
      SERVICE_FILE: join(dir, 'service.json'),
      BENCH_ROUTES: 'true',
      METRICS_TOKEN: metricsToken,
      ...variant.environment,
    };
    const command = commandOf(workaround.option, variant);
    try {
      const cells = await workaround.run(() => startService(PORT, environment, { command }), metricsToken);
      const row = `| ${index + 1} | ${side} | ${cells.join(' | ')} |`;
      console.log(`${row}   (${command.slice(1).join(' ')})`);
      rows.push(row);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(`\n${rows.join('\n')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
