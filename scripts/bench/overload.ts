import type { Target } from './measure';
import { percentile, round, sendEvenly, type Sample } from './open-loop';

// The overload run of docs/BENCHMARKS.md (issue 31): on a service with its admission control as
// configured by default, charges at a steady rate, then at twice the saturated rate for the
// burst, then at the steady rate again. Admitted is every request not answered 503 (admission
// answers 503 code 02 at once); refused, the 503s. The requests due in the 2 s after the burst and
// those after show how soon the service is back at its steady-state latency.

export const BURST_SECONDS = 30;
const STEADY_SECONDS = 5;
const AFTER_SECONDS = 6;

type Figures = { p50: number; p99: number; max: number };

export type OverloadPhase = {
  name: string;
  rate: number;
  sent: number;
  admitted: number;
  /** Admitted but not 2xx (a failure), or never answered. */
  lost: number;
  refused: number;
  admittedMs: Figures;
  refusedMs: Figures;
  /**
   * Requests sent on a connection the generator opened for them. Node's libuv accepts one
   * connection per listening descriptor per turn of the event loop (libuv#3696), so on a saturated loop these wait to be
   * accepted: admissions and refusals are also given by the kind of connection they came on.
   */
  onNewConnections: number;
  keptAlive: { admittedMs: Figures; refusedMs: Figures };
  onNew: { admittedMs: Figures; refusedMs: Figures };
};

function figures(latencies: number[]): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 0.5)),
    p99: round(percentile(sorted, 0.99)),
    max: round(sorted.at(-1) ?? Number.NaN),
  };
}

function phase(name: string, rate: number, samples: Sample[]): OverloadPhase {
  const refused = samples.filter((sample) => sample.status === 503);
  const admitted = samples.filter((sample) => sample.status !== 503);
  const split = (onNew: boolean) => ({
    admittedMs: figures(admitted.filter((sample) => sample.newConnection === onNew).map((sample) => sample.ms)),
    refusedMs: figures(refused.filter((sample) => sample.newConnection === onNew).map((sample) => sample.ms)),
  });
  return {
    name,
    rate,
    sent: samples.length,
    admitted: admitted.length,
    lost: admitted.filter((sample) => sample.status === 0 || sample.status >= 300).length,
    refused: refused.length,
    admittedMs: figures(admitted.map((sample) => sample.ms)),
    refusedMs: figures(refused.map((sample) => sample.ms)),
    onNewConnections: samples.filter((sample) => sample.newConnection).length,
    keptAlive: split(false),
    onNew: split(true),
  };
}

export async function overloadRun(
  origin: string,
  target: Target,
  rates: { steady: number; burst: number },
): Promise<OverloadPhase[]> {
  const samples = await sendEvenly(origin, target, [
    { rate: rates.steady, seconds: STEADY_SECONDS },
    { rate: rates.burst, seconds: BURST_SECONDS },
    { rate: rates.steady, seconds: AFTER_SECONDS },
  ]);
  const burstStart = STEADY_SECONDS * 1000;
  const burstEnd = burstStart + BURST_SECONDS * 1000;
  const within = (from: number, to: number) => samples.filter((sample) => sample.due >= from && sample.due < to);
  return [
    phase('before the burst', rates.steady, within(0, burstStart)),
    phase('the burst', rates.burst, within(burstStart, burstEnd)),
    phase('0–2 s after it', rates.steady, within(burstEnd, burstEnd + 2000)),
    phase(`2–${AFTER_SECONDS} s after it`, rates.steady, within(burstEnd + 2000, Number.POSITIVE_INFINITY)),
  ];
}

/**
 * The run's table against issue 31's targets: the burst's admitted p99 at most 10 × the bare
 * route's p99 at 200/s, every refusal within 50 ms, nothing admitted lost, and the requests due
 * from 2 s after the burst at the steady state's p99 (at most twice it, for the noise of a
 * shared machine).
 */
export function overloadTable(phases: OverloadPhase[], bareP99At200: number): string[] {
  const [before, burst, , after] = phases as [OverloadPhase, OverloadPhase, OverloadPhase, OverloadPhase];
  const verdict = (met: boolean, limit: string) => `${met ? 'met' : 'SHORT'} (${limit})`;
  const targets = new Map<OverloadPhase, string>([
    [
      burst,
      [
        verdict(
          burst.admittedMs.p99 <= 10 * bareP99At200,
          `admitted p99 ≤ 10 × bare p99 at 200/s = ${round(10 * bareP99At200)} ms`,
        ),
        verdict(burst.refused === 0 || burst.refusedMs.max <= 50, 'every refusal ≤ 50 ms'),
        verdict(burst.lost === 0, 'nothing admitted lost'),
      ].join(', '),
    ],
    [after, verdict(after.admittedMs.p99 <= 2 * before.admittedMs.p99, 'p99 ≤ 2 × before the burst: back within 2 s')],
  ]);
  const cell = (ms: Figures) => (Number.isNaN(ms.p50) ? '—' : `${ms.p50} / ${ms.p99} / ${ms.max}`);
  const tail = (ms: Figures) => (Number.isNaN(ms.p99) ? '—' : `${ms.p99} / ${ms.max}`);
  const split = (side: { admittedMs: Figures; refusedMs: Figures }) => `${tail(side.admittedMs)}; ${tail(side.refusedMs)}`;
  return [
    '| overload run, POST /charges (CARD) | requests/s sent | sent | admitted | refused (503 02) | admitted lost | admitted p50 / p99 / max ms | refused p50 / p99 / max ms | on connections already open: admitted; refused, p99 / max ms | sent on new connections | on them: admitted; refused, p99 / max ms | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...phases.map(
      (each) =>
        `| ${each.name} | ${each.rate} | ${each.sent} | ${each.admitted} | ${each.refused} | ${each.lost} | ${cell(each.admittedMs)} | ${cell(each.refusedMs)} | ${split(each.keptAlive)} | ${each.onNewConnections} | ${split(each.onNew)} | ${targets.get(each) ?? '—'} |`,
    ),
  ];
}
