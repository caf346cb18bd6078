// What the service says of itself during a run, from its /api/metrics: statements sent to the
// database (pay_db_statements_total), the event loop's delay (prom-client's monitorEventLoopDelay,
// reset at each scrape, so a scrape before a run starts its window) and the time spent in garbage
// collection (nodejs_gc_duration_seconds, every kind).
export type ServiceStats = {
  statements: number;
  gcSeconds: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /** POST /charges refused by admission so far, by the signal that refused them (pay_admission_refusals_total). */
  chargeRefusals: Record<string, number>;
};

function chargeRefusals(text: string): Record<string, number> {
  const refusals: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('pay_admission_refusals_total{') || !line.includes('class="charges"')) continue;
    const signal = /signal="([^"]+)"/.exec(line)?.[1] ?? 'unknown';
    refusals[signal] = (refusals[signal] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return refusals;
}

function value(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

export async function serviceStats(origin: string, metricsToken: string): Promise<ServiceStats> {
  const response = await fetch(`${origin}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  if (!response.ok) throw new Error(`metrics: ${response.status}`);
  const text = await response.text();
  return {
    statements: value(text, 'pay_db_statements_total'),
    gcSeconds: value(text, 'nodejs_gc_duration_seconds_sum'),
    loopP99Ms: value(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
    loopMaxMs: value(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
    chargeRefusals: chargeRefusals(text),
  };
}

/** A run's figures: statements per request, GC milliseconds per second of run, the loop's delay over the run. */
export type RunStats = { statementsPerRequest: number; gcMsPerSecond: number; loopP99Ms: number; loopMaxMs: number };

export function runStats(before: ServiceStats, after: ServiceStats, requests: number, seconds: number): RunStats {
  return {
    statementsPerRequest: requests > 0 ? (after.statements - before.statements) / requests : 0,
    gcMsPerSecond: ((after.gcSeconds - before.gcSeconds) * 1000) / seconds,
    loopP99Ms: after.loopP99Ms,
    loopMaxMs: after.loopMaxMs,
  };
}
