import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { CpuSample } from '../support/cpu-time';
import type { Figures } from './measure';

// The benchmark's table: each endpoint's figures and its ratio to the baseline of the same
// run, checked against the targets of docs/BENCHMARKS.md; printed, and written into that file
// between the markers of the database measured.
export type Row = {
  name: string;
  figures: Figures;
  peakMiB: number;
  /** CPU milliseconds per request (closed-loop runs). */
  cpu?: CpuSample;
  target?: { kind: 'rps' | 'p99'; ratio: number };
};

/** Request thread / database (PGlite's thread or the PostgreSQL processes) / the service's other threads. */
function cpuCell(cpu: CpuSample | undefined): string {
  if (!cpu) return '—';
  return [cpu.request, cpu.database + cpu.postgres, cpu.other].map((ms) => ms.toFixed(2)).join(' / ');
}

function ratioOf(row: Row, baseline: Figures): number {
  return row.target?.kind === 'p99' ? row.figures.p99 / baseline.p99 : row.figures.requestsPerSecond / baseline.requestsPerSecond;
}

function verdict(row: Row, baseline: Figures): string {
  if (!row.target) return '—';
  const ratio = ratioOf(row, baseline);
  const limit = `${row.target.kind === 'p99' ? '≤' : '≥'} ${row.target.ratio}`;
  // An open-loop p99 only counts if the endpoint kept up with the rate the baseline got.
  if (row.target.kind === 'p99' && row.figures.requestsPerSecond < 0.95 * baseline.requestsPerSecond) {
    return `SHORT (served ${row.figures.requestsPerSecond.toFixed(0)} of ${baseline.requestsPerSecond.toFixed(0)} req/s)`;
  }
  const met = row.target.kind === 'p99' ? ratio <= row.target.ratio : ratio >= row.target.ratio;
  return `${met ? 'met' : 'SHORT'} (${limit})`;
}

export function table(rows: Row[], baselines: { closed: Figures; open: Figures }): string[] {
  const lines = [
    '| endpoint | requests/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MiB | CPU ms per request (request thread / database / other threads) | ratio to baseline | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const baseline = row.target?.kind === 'p99' || row.name.includes('200 req/s') ? baselines.open : baselines.closed;
    const ratio = row.name.startsWith('baseline') ? 1 : ratioOf(row, baseline);
    const figures = row.figures;
    lines.push(
      `| ${row.name} | ${figures.requestsPerSecond.toFixed(0)} | ${figures.p50} | ${figures.p99} | ${figures.errors} | ${figures.non2xx} | ${row.peakMiB.toFixed(0)} | ${cpuCell(row.cpu)} | ${ratio.toFixed(2)}${row.target?.kind === 'p99' ? ' (p99)' : ''} | ${verdict(row, baseline)} |`,
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
