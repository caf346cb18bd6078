// Timing helpers of the measurement scripts (measure:console, measure:scale).

/** The q-quantile of ascending times (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * Runs `work` `warmups` times untimed, then `runs` times timed; the times in ms, ascending. A run
 * (warm-up or timed) slower than `stopAboveMs` ends the series there: its time is the last one
 * kept, and fewer than `runs` times come back.
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
    if (run >= warmups || took > stopAboveMs) times.push(took);
    if (took > stopAboveMs) break;
  }
  return times.sort((a, b) => a - b);
}
