import { Agent, request } from 'node:http';
import type { Target } from './measure';

// The open loop of docs/BENCHMARKS.md: requests sent evenly spaced (one every 1000/rate ms) on
// keep-alive connections, whatever the answers do, as users arrive. autocannon's `overallRate`
// sends each second's requests in one burst, so its p99 measured how fast a burst drains; here
// each latency counts from the moment its request was due, so a stall delays every request
// scheduled during it (no coordinated omission).
export type OpenLoopFigures = {
  rate: number;
  sent: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  errors: number;
  non2xx: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

export async function openLoop(
  origin: string,
  target: Target,
  options: { rate: number; seconds: number },
): Promise<OpenLoopFigures> {
  const url = new URL(target.path, origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const body = target.body?.();
      const outgoing = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: target.method,
          headers: target.headers,
          agent,
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            latencies.push(performance.now() - due);
            if ((response.statusCode ?? 0) >= 300) non2xx += 1;
            resolve();
          });
        },
      );
      outgoing.on('error', () => {
        errors += 1;
        resolve();
      });
      outgoing.end(body);
    });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let index = 0; index < total; index += 1) {
    const due = start + index * interval;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rate: options.rate,
    sent: total,
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    p999: round(percentile(latencies, 0.999)),
    max: round(latencies.at(-1) ?? Number.NaN),
    errors,
    non2xx,
  };
}
