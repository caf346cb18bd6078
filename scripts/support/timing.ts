// Timing helpers of the measurement scripts (measure:console, measure:scale).

/** The q-quantile of ascending times (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * Runs `work` `warmups` times untimed, then `runs` times timed; the times in ms, ascending. A run
 * slower than `stopAboveMs` ends the series there (its time is the last one kept, and fewer than
 * `runs` times come back), except the first warm-up: it reads cold pages and prepares statements,
 * which the second warm-up shows the query no longer needs.
 */
export async function timeRuns(
  work: () => Promise<unknown>,
  runs: number,
  { warmups = 2, stopAboveMs = Infinity }: { warmups?: number; stopAboveMs?: number } = {},
): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < warmups + runs; run += 1) {
    const started = performance.now();
    await work();
    const took = performance.now() - started;
    const stop = took > stopAboveMs && (run > 0 || warmups < 2);
    if (run >= warmups || stop) times.push(took);
    if (stop) break;
  }
  return times.sort((a, b) => a - b);
}
