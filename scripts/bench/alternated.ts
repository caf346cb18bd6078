import { measure, type Target } from './measure';
import { cpuPerRequest, cpuSample, type CpuSample } from '../support/cpu-time';
import { verdict } from './report';
import { SAVED_CARDS } from './prepare';

// Saturated runs of several targets compared with one another: each target in turn for a short
// window, cycle after cycle, so that whatever drifts during a run (the database growing, its
// autovacuum, the machine's neighbours) weighs on each alike. Measured one after the other for
// 10 s each, a new card's charge went from 433 to 550 req/s across three rounds and the same
// target differed by 20 % between adjacent runs (docs/BENCHMARKS.md).

export type Alternated = {
  name: string;
  /** Requests answered over all its windows, per second of them. */
  requestsPerSecond: number;
  /** Its rate in each cycle. */
  perCycle: number[];
  non2xx: number;
  /** CPU milliseconds per request over all its windows: the service's threads and PostgreSQL's processes. */
  cpu: CpuSample;
  /** Statements sent to the database per request (the service's count, `pay_db_statements_total`). */
  statements: number;
};

const NO_CPU: CpuSample = { request: 0, database: 0, other: 0, postgres: 0 };

/** A request's CPU milliseconds, every thread and database process together. */
export const cpuTotal = (cpu: CpuSample) => cpu.request + cpu.database + cpu.other + cpu.postgres;

export async function alternated(
  origin: string,
  targets: readonly Target[],
  options: {
    windowSeconds: number;
    cycles: number;
    connections: number;
    /** The service process, whose CPU time (and PostgreSQL's) each window samples. */
    pid: number;
    /** The service's statements sent so far. */
    statementsSent: () => Promise<number>;
    onCycle?: (cycle: number, rates: number[]) => void;
  },
): Promise<Alternated[]> {
  const totals = targets.map((target) => ({
    name: target.name,
    requests: 0,
    seconds: 0,
    perCycle: [] as number[],
    non2xx: 0,
    cpuMs: { ...NO_CPU },
    statements: 0,
  }));
  for (let cycle = 0; cycle < options.cycles; cycle += 1) {
    // Each cycle starts with the next target, so none is always the first after another's load.
    for (let step = 0; step < targets.length; step += 1) {
      const index = (cycle + step) % targets.length;
      const statementsBefore = await options.statementsSent();
      const before = cpuSample(options.pid);
      const result = await measure(origin, targets[index]!, { seconds: options.windowSeconds, connections: options.connections });
      const used = cpuPerRequest(before, cpuSample(options.pid), 1);
      const total = totals[index]!;
      total.statements += (await options.statementsSent()) - statementsBefore;
      for (const kind of Object.keys(NO_CPU) as (keyof CpuSample)[]) total.cpuMs[kind] += used[kind];
      total.requests += result.total;
      total.seconds += options.windowSeconds;
      total.non2xx += result.non2xx + result.errors;
      total.perCycle.push(result.total / options.windowSeconds);
    }
    options.onCycle?.(
      cycle,
      totals.map((total) => total.perCycle.at(-1)!),
    );
  }
  return totals.map(({ name, requests, seconds, perCycle, non2xx, cpuMs, statements }) => ({
    name,
    statements: statements / requests,
    requestsPerSecond: requests / seconds,
    perCycle,
    non2xx,
    cpu: {
      request: cpuMs.request / requests,
      database: cpuMs.database / requests,
      other: cpuMs.other / requests,
      postgres: cpuMs.postgres / requests,
    },
  }));
}

/** The ratio of `of` to `to` in each cycle: its lowest, median and highest. */
export function cycleRatios(of: Alternated, to: Alternated): { low: number; median: number; high: number } {
  const ratios = of.perCycle.map((rate, cycle) => rate / to.perCycle[cycle]!).sort((a, b) => a - b);
  return { low: ratios[0]!, median: ratios[Math.floor(ratios.length / 2)]!, high: ratios.at(-1)! };
}

/** Ten cycles of three 3 s windows: 90 s of load. */
export const SAVED_CARD_WINDOWS = { windowSeconds: 3, cycles: 10 };

/**
 * A saved card's charges against a new card's, alternated (issue 51's target: within 10 % of a new
 * card's rate): each one's rate and its ratio to the new card's, that ratio's lowest / median /
 * highest over the cycles, and the CPU a request costs the service and its database, whose ratio
 * (the new card's over the saved card's) is what the rates' would be on cores nothing else shares.
 */
export function savedCardTable(connections: number, newCard: Alternated, oneClick: Alternated, mit: Alternated): string[] {
  const { windowSeconds, cycles } = SAVED_CARD_WINDOWS;
  const row = (label: string, of: Alternated) => {
    const ratio = of.requestsPerSecond / newCard.requestsPerSecond;
    const spread =
      of === newCard
        ? '—'
        : Object.values(cycleRatios(of, newCard))
            .map((each) => each.toFixed(2))
            .join(' / ');
    const cpuRatio = cpuTotal(newCard.cpu) / cpuTotal(of.cpu);
    const { request, database, other, postgres } = of.cpu;
    const cpu = `${cpuTotal(of.cpu).toFixed(2)} (${[request, database + postgres, other].map((ms) => ms.toFixed(2)).join(' / ')})`;
    return (
      `| ${label} | ${of.requestsPerSecond.toFixed(0)} | ${ratio.toFixed(2)} | ${spread} | ${cpu} | ` +
      `${cpuRatio.toFixed(2)} | ${of.statements.toFixed(1)} | ${of.non2xx} | ${of === newCard ? '—' : verdict(ratio >= 0.9, '≥ 0.9 × new card')} |`
    );
  };
  return [
    `Saved cards beside a new card, alternated: ${cycles} cycles of ${windowSeconds} s windows at ${connections} connections, ${SAVED_CARDS.toLocaleString('en')} saved cards charged in turn.`,
    '',
    '| charge | requests/s | ratio to a new card | per cycle (lowest / median / highest) | CPU ms per request (request thread / database / other threads) | CPU ratio | statements per request | not 2xx | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    row('POST /charges (CARD)', newCard),
    row('POST /charges (saved card, one-click)', oneClick),
    row('POST /charges (saved card, MIT)', mit),
  ];
}
