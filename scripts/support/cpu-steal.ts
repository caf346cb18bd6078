import { readFileSync } from 'node:fs';

// The share of the machine's CPU time its hypervisor gave to other guests (Linux /proc/stat,
// "steal"). On a shared virtual machine it moves latencies and requests per second from one run
// to the next; the benchmark prints it beside each run so that such a run can be told apart.
type Ticks = { steal: number; total: number };

function ticks(): Ticks | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    return { steal: fields[7] ?? 0, total: fields.reduce((sum, value) => sum + value, 0) };
  } catch {
    return null; // not Linux
  }
}

/** Runs `work`, and the percentage of CPU time stolen meanwhile (NaN where /proc/stat is missing). */
export async function withStealShare<T>(work: () => Promise<T>): Promise<{ result: T; stealPercent: number }> {
  const before = ticks();
  const result = await work();
  const after = ticks();
  const stealPercent =
    before && after && after.total > before.total
      ? (100 * (after.steal - before.steal)) / (after.total - before.total)
      : Number.NaN;
  return { result, stealPercent };
}
