// Timing helpers of the measurement scripts (measure:console, measure:scale).

/** The q-quantile of ascending times (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** Runs `work` `warmups` times untimed, then `runs` times timed; the times in ms, ascending. */
export async function timeRuns(work: () => Promise<unknown>, runs: number, warmups = 2): Promise<number[]> {
  for (let run = 0; run < warmups; run += 1) await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}
