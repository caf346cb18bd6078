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

/**
 * One request of a run: when it was due (ms from the run's start), how long it took from then, its
 * status (0: the connection failed), and whether it went on a connection opened for it (every
 * kept-alive one was busy) rather than on one already open.
 */
export type Sample = { due: number; ms: number; status: number; newConnection: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

export const round = (ms: number) => Math.round(ms * 10) / 10;

/** The figures of a run's samples (sent at `rate`). */
export function figuresOf(samples: readonly Sample[], rate: number): OpenLoopFigures {
  const latencies = samples.filter((sample) => sample.status !== 0).map((sample) => sample.ms);
  latencies.sort((a, b) => a - b);
  return {
    rate,
    sent: samples.length,
    p50: round(percentile(latencies, 0.5)),
    p99: round(percentile(latencies, 0.99)),
    p999: round(percentile(latencies, 0.999)),
    max: round(latencies.at(-1) ?? Number.NaN),
    errors: samples.length - latencies.length,
    non2xx: samples.filter((sample) => sample.status >= 300).length,
  };
}

/** Requests evenly spaced within each phase, the phases one after another; every request's sample. */
export async function sendEvenly(
  origin: string,
  target: Target,
  phases: readonly { rate: number; seconds: number }[],
): Promise<Sample[]> {
  const url = new URL(target.path, origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 4096 });
  const samples: Sample[] = [];
  const start = performance.now();
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const body = target.body?.();
      let newConnection = false;
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
            samples.push({ due: due - start, ms: performance.now() - due, status: response.statusCode ?? 0, newConnection });
            resolve();
          });
        },
      );
      outgoing.on('socket', (socket) => {
        newConnection = socket.connecting;
      });
      outgoing.on('error', () => {
        samples.push({ due: due - start, ms: performance.now() - due, status: 0, newConnection });
        resolve();
      });
      outgoing.end(body);
    });
  const inFlight: Promise<void>[] = [];
  let phaseStart = start;
  for (const phase of phases) {
    const interval = 1000 / phase.rate;
    const total = Math.round(phase.rate * phase.seconds);
    for (let index = 0; index < total; index += 1) {
      const due = phaseStart + index * interval;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      inFlight.push(send(due));
    }
    phaseStart += phase.seconds * 1000;
  }
  await Promise.all(inFlight);
  agent.destroy();
  return samples.sort((a, b) => a.due - b.due);
}
