import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { CpuSample } from '../support/cpu-time';
import type { Figures } from './measure';
import { figuresOf, round, type OpenLoopFigures, type Sample } from './open-loop';
import type { RunStats } from './service-stats';

// The benchmark's tables, checked against the targets of docs/BENCHMARKS.md (ratios to the bare
// route of the same run); printed, and written into that file between the database's markers.

export type SaturatedRow = {
  name: string;
  figures: Figures;
  peakMiB: number;
  cpu: CpuSample;
  stats: RunStats;
  stealPercent: number;
};
export type OpenRow = { name: string; baseline: boolean; figures: OpenLoopFigures; stealPercent: number; stats: RunStats };

const steal = (percent: number) => (Number.isNaN(percent) ? '—' : percent.toFixed(0));

/** Saturated requests/s as a share of the bare route's. */
const RPS_TARGETS: Record<string, number> = {
  'POST /charges (CARD)': 0.7,
  'GET transaction': 1.0,
  'GET /refund (filtered)': 0.5,
};

/** Request thread / database (PGlite's thread or the PostgreSQL processes) / the service's other threads. */
function cpuCell(cpu: CpuSample): string {
  return [cpu.request, cpu.database + cpu.postgres, cpu.other].map((ms) => ms.toFixed(2)).join(' / ');
}

export const verdict = (met: boolean, limit: string) => `${met ? 'met' : 'SHORT'} (${limit})`;

export function saturatedTable(baseline: SaturatedRow, rows: SaturatedRow[]): string[] {
  const lines = [
    '| endpoint | requests/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB | CPU ms per request (request thread / database / other threads) | statements per request | event-loop delay p99 / max ms | GC ms per s | CPU steal % | ratio to baseline | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of [baseline, ...rows]) {
    const { figures, stats } = row;
    const ratio = figures.requestsPerSecond / baseline.figures.requestsPerSecond;
    const target = RPS_TARGETS[row.name];
    lines.push(
      `| ${row.name} | ${figures.requestsPerSecond.toFixed(0)} | ${figures.p50} | ${figures.p99} | ${figures.errors} | ${figures.non2xx} | ` +
        `${row.peakMiB.toFixed(0)} | ${cpuCell(row.cpu)} | ${stats.statementsPerRequest.toFixed(1)} | ` +
        `${stats.loopP99Ms.toFixed(0)} / ${stats.loopMaxMs.toFixed(0)} | ${stats.gcMsPerSecond.toFixed(0)} | ${steal(row.stealPercent)} | ${ratio.toFixed(2)} | ` +
        `${target === undefined ? (row.name.includes('saved card') ? 'below' : '—') : verdict(ratio >= target, `≥ ${target}`)} |`,
    );
  }
  return lines;
}

/** The charge's targets at 200 requests/s against the bare route's figures at that rate. */
function chargeTargets(charge: OpenLoopFigures, bare: OpenLoopFigures | undefined): string {
  if (!bare) return '—';
  return [
    verdict(charge.p50 <= bare.p50 + 3, 'p50 ≤ bare + 3 ms'),
    verdict(charge.p99 <= 2 * bare.p99, 'p99 ≤ 2 × bare'),
    verdict(charge.p999 <= 100, 'p99.9 ≤ 100 ms'),
  ].join(', ');
}

export function openTable(rows: OpenRow[], fresh: Omit<OpenRow, 'baseline'>): string[] {
  const lines = [
    '| endpoint | requests/s sent | p50 ms | p99 ms | p99.9 ms | max ms | errors | non-2xx | event-loop delay p99 / max ms | GC ms per s | CPU steal % | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  const row = (name: string, { figures, stats, stealPercent }: Omit<OpenRow, 'name' | 'baseline'>, target: string) =>
    `| ${name} | ${figures.rate} | ${figures.p50} | ${figures.p99} | ${figures.p999} | ${figures.max} | ${figures.errors} | ${figures.non2xx} | ` +
    `${stats.loopP99Ms.toFixed(0)} / ${stats.loopMaxMs.toFixed(0)} | ${stats.gcMsPerSecond.toFixed(0)} | ${steal(stealPercent)} | ${target} |`;
  for (const each of rows) {
    const bare = rows.find((other) => other.baseline && other.figures.rate === each.figures.rate)?.figures;
    const target = each.name === 'POST /charges (CARD)' && each.figures.rate === 200 ? chargeTargets(each.figures, bare) : '—';
    lines.push(row(each.baseline ? 'baseline (bare route)' : each.name, each, target));
  }
  const steady = rows.find((each) => each.name === 'POST /charges (CARD)' && each.figures.rate === 200)?.figures.p99;
  lines.push(
    row(
      fresh.name,
      fresh,
      steady === undefined ? '—' : verdict(fresh.figures.p99 <= 2 * steady, `p99 ≤ 2 × steady state = ${round(2 * steady)} ms`),
    ),
  );
  return lines;
}

/** Windows of a fresh instance's run, from its first request: what is cold shows in the first ones. */
const FRESH_WINDOWS = [
  { from: 0, to: 1000 },
  { from: 1000, to: 3000 },
  { from: 3000, to: Number.POSITIVE_INFINITY },
];

/** The fresh instance's run by window of due time: its first second, the next two, and the rest. */
export function freshTable(samples: readonly Sample[], rate: number): string[] {
  const lines = [
    '| fresh instance, POST /charges (CARD) | requests | p50 ms | p99 ms | max ms | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { from, to } of FRESH_WINDOWS) {
    const inWindow = samples.filter((sample) => sample.due >= from && sample.due < to);
    if (inWindow.length === 0) continue;
    const figures = figuresOf(inWindow, rate);
    const name = to === Number.POSITIVE_INFINITY ? `from ${from / 1000} s on` : `${from / 1000}–${to / 1000} s`;
    lines.push(
      `| ${name} | ${figures.sent} | ${figures.p50} | ${figures.p99} | ${figures.max} | ${figures.errors} | ${figures.non2xx} |`,
    );
  }
  return lines;
}

export function machine(): string {
  const cores = cpus();
  return `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

/** Replaces the section of `database` in docs/BENCHMARKS.md (between its markers). */
export function writeSection(file: string, database: string, lines: string[]): void {
  const start = `<!-- bench:${database}:start -->`;
  const end = `<!-- bench:${database}:end -->`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = [start, ...lines, end].join('\n');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next =
    from >= 0 && to > from
      ? `${text.slice(0, from)}${section}${text.slice(to + end.length)}`
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
