import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { CpuSample } from '../support/cpu-time';
import type { Figures } from './measure';
import type { OpenLoopFigures } from './open-loop';
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

const verdict = (met: boolean, limit: string) => `${met ? 'met' : 'SHORT'} (${limit})`;

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
        `${target === undefined ? '—' : verdict(ratio >= target, `≥ ${target}`)} |`,
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
  lines.push(row(fresh.name, fresh, '—'));
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
