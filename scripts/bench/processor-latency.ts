import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { API_VERSION, chargeBody, operatorTrpcClient } from '../support/api-client';
import { cpuSample } from '../support/cpu-time';
import { withMemorySampling, memoryMiB } from '../support/service-process';
import type { Target } from './measure';
import { percentile, round, sendEvenly, type Sample } from './open-loop';
import { serviceStats } from './service-stats';
import type { StandIn } from './stand-in-processor';

// The processor-latency runs of docs/BENCHMARKS.md (issue 48, point 4): charges through a
// merchant's Mercado Pago account whose API is the benchmark's stand-in (stand-in-processor.ts),
// answering after a log-normal delay, at 50, 200 and 400 charges/s, each for LATENCY_SECONDS, on
// the service's default admission; then the fault run: at 200/s, the first of the two accounts
// the merchant routes to answers every payment after 10 s for 20 s. Each charge's own time is its
// answer's time less the time the stand-in held its payment.

const LATENCY_RATES = [50, 200, 400];
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 30);
const FAULT = { before: 10, during: 20, after: 10, delayMs: 10_000, rate: 200 };
const MERCHANT = 'BENCHPL';

export type LatencyRow = {
  name: string;
  rate: number;
  sent: number;
  admitted: number;
  refused: number;
  /** Admitted but not approved (or never answered). */
  lost: number;
  ownP50: number;
  ownP99: number;
  /** The answer's p99, processor included. */
  p99: number;
  peakMiB: number;
  peakInFlight: number;
  /** Resident memory over the run's start, per 1,000 payments in flight at the stand-in at its peak. */
  mibPer1000: number;
  connectionsInUse: number | null;
  loopP99Ms: number;
  loopMaxMs: number;
  /** Admission's refusals by the signal that made them (event_loop, database, memory, service_time). */
  refusedBy: Record<string, number>;
  /** Busy share of one core over the run: the request thread, the embedded database's thread, PostgreSQL, and this process (the load and the stand-in). */
  cpu: { request: number; database: number; postgres: number; bench: number };
  /** Fault run only: charges approved by the second account, operations approved twice. */
  failedOver?: number;
  approvedTwice?: number;
};

/** Two Mercado Pago accounts of a merchant of its own, CARD routed to the first, then the second. */
export async function connectStandIn(origin: string, serviceFile: string) {
  const { operatorToken } = JSON.parse(readFileSync(serviceFile, 'utf8')) as { operatorToken: string };
  const operator = operatorTrpcClient(origin, operatorToken);
  await operator.console.platform.createMerchant.mutate({ code: MERCHANT, name: 'Bench: processors that take time' });
  const credential = await operator.admin.issueCredential.mutate({ owner: { merchantCode: MERCHANT } });
  const accounts = [];
  for (const name of ['Mercado Pago A', 'Mercado Pago B']) {
    const keys = {
      publicKey: `TEST-${randomUUID()}`,
      secretKey: `TEST-1000000000000001-112526-${randomBytes(16).toString('hex')}-100000001`,
      webhookSecret: randomBytes(32).toString('hex'),
    };
    const { account } = await operator.console.processorAccounts.connect.mutate({
      merchantCode: MERCHANT,
      processor: 'mercadopago',
      name,
      environment: 'test',
      methods: ['CARD'],
      ...keys,
    });
    accounts.push({ connectorId: account.connectorId, accessToken: keys.secretKey });
  }
  const routes = accounts.map((account, index) => ({ connector: account.connectorId, priority: index + 1 }));
  await operator.console.routing.saveDraft.mutate({ merchantCode: MERCHANT, method: 'CARD', routes });
  await operator.console.routing.publishDraft.mutate({ merchantCode: MERCHANT, method: 'CARD' });
  const tokenAnswer = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'alg-api-version': API_VERSION },
    body: JSON.stringify({
      action: 'authorize',
      grant_type: 'client_credentials',
      audience: `${origin}/api/`,
      client_id: credential.client_id,
      client_secret: credential.client_secret,
      scope: 'post:charges get:charges',
    }),
  });
  const { access_token: bearer } = (await tokenAnswer.json()) as { access_token: string };
  return { accounts, bearer };
}

/** The merchant's charges, each operation number kept in the order sent (a run's samples are in due order too). */
function chargesOf(bearer: string, run: string): { target: Target; numbers: string[] } {
  const numbers: string[] = [];
  return {
    numbers,
    target: {
      name: 'POST /charges (CARD), processor answering in 600 ms (median)',
      method: 'POST',
      path: '/api/charges',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, 'alg-api-version': API_VERSION },
      body: () => {
        const body = JSON.parse(chargeBody(run)) as { merchant_code: string; merchant_operation_number: string };
        body.merchant_code = MERCHANT;
        body.merchant_operation_number = `pl-${run}-${numbers.length}`;
        numbers.push(body.merchant_operation_number);
        return JSON.stringify(body);
      },
    },
  };
}

/**
 * Samples the service's metrics every 250 ms while `work` runs: the pool's highest connections in
 * use (PostgreSQL), and the event loop's delay, whose histogram each scrape resets: the highest
 * p99 of a window and the longest delay.
 */
async function withMetricsSampling<T>(origin: string, metricsToken: string, work: () => Promise<T>) {
  let connectionsInUse: number | null = null;
  let loopP99Ms = 0;
  let loopMaxMs = 0;
  let running = true;
  const read = (text: string, name: string) => {
    const line = text.split('\n').find((each) => each.startsWith(`${name} `));
    return line === undefined ? null : Number(line.split(' ')[1]);
  };
  const sampling = (async () => {
    while (running) {
      const text = await (await fetch(`${origin}/api/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      const connections = read(text, 'pay_db_connections_in_use');
      if (connections !== null) connectionsInUse = Math.max(connectionsInUse ?? 0, connections);
      loopP99Ms = Math.max(loopP99Ms, (read(text, 'nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000);
      loopMaxMs = Math.max(loopMaxMs, (read(text, 'nodejs_eventloop_lag_max_seconds') ?? 0) * 1000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    const result = await work();
    return { result, connectionsInUse: connectionsInUse as number | null, loopP99Ms, loopMaxMs };
  } finally {
    running = false;
    await sampling;
  }
}

function rowOf(
  name: string,
  rate: number,
  samples: Sample[],
  numbers: string[],
  standIn: StandIn,
  extra: Pick<
    LatencyRow,
    'peakMiB' | 'peakInFlight' | 'mibPer1000' | 'connectionsInUse' | 'loopP99Ms' | 'loopMaxMs' | 'refusedBy' | 'cpu'
  >,
): LatencyRow {
  const admitted = samples
    .map((sample, index) => ({ sample, number: numbers[index]! }))
    .filter(({ sample }) => sample.status !== 503);
  const own = admitted
    .filter(({ sample }) => sample.status === 200)
    .map(({ sample, number }) => sample.ms - (standIn.held.get(number) ?? 0))
    .sort((a, b) => a - b);
  const all = admitted.map(({ sample }) => sample.ms).sort((a, b) => a - b);
  return {
    name,
    rate,
    sent: samples.length,
    admitted: admitted.length,
    refused: samples.length - admitted.length,
    lost: admitted.filter(({ sample, number }) => sample.status !== 200 || !standIn.approvals.has(number)).length,
    ownP50: round(percentile(own, 0.5)),
    ownP99: round(percentile(own, 0.99)),
    p99: round(percentile(all, 0.99)),
    ...extra,
  };
}

async function measured(origin: string, pid: number, metricsToken: string, standIn: StandIn, send: () => Promise<Sample[]>) {
  const startMiB = memoryMiB(pid).rss;
  const before = await serviceStats(origin, metricsToken);
  standIn.resetPeak();
  const [cpuBefore, benchBefore, startedAt] = [cpuSample(pid), process.cpuUsage(), performance.now()];
  const { result, peakMiB } = await withMemorySampling(pid, () => withMetricsSampling(origin, metricsToken, send));
  const [cpuAfter, bench, elapsedMs] = [cpuSample(pid), process.cpuUsage(benchBefore), performance.now() - startedAt];
  const stats = await serviceStats(origin, metricsToken);
  const peakInFlight = standIn.peakInFlight();
  const share = (ms: number) => Math.round((100 * ms) / elapsedMs);
  let postgres = 0;
  for (const [id, ticks] of cpuAfter.postgresByProcess) postgres += ticks - (cpuBefore.postgresByProcess.get(id) ?? 0);
  const refusedBy = Object.fromEntries(
    Object.entries(stats.chargeRefusals)
      .map(([signal, count]) => [signal, count - (before.chargeRefusals[signal] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
  return {
    samples: result.result,
    extra: {
      peakMiB: round(peakMiB),
      peakInFlight,
      mibPer1000: round(((peakMiB - startMiB) / Math.max(1, peakInFlight)) * 1000),
      connectionsInUse: result.connectionsInUse,
      loopP99Ms: round(Math.max(result.loopP99Ms, stats.loopP99Ms)),
      loopMaxMs: round(Math.max(result.loopMaxMs, stats.loopMaxMs)),
      refusedBy,
      cpu: {
        request: share(cpuAfter.request - cpuBefore.request),
        database: share(cpuAfter.database - cpuBefore.database),
        postgres: share(postgres * 10),
        bench: share((bench.user + bench.system) / 1000),
      },
    },
  };
}

/** The steady runs at each rate, then the fault run, on a service whose Mercado Pago is `standIn`. */
export async function processorLatencyRuns(
  origin: string,
  serviceFile: string,
  pid: number,
  metricsToken: string,
  standIn: StandIn,
  { rates = LATENCY_RATES, withFault = true }: { rates?: number[]; withFault?: boolean } = {},
): Promise<LatencyRow[]> {
  const { accounts, bearer } = await connectStandIn(origin, serviceFile);
  const run = Date.now().toString(36);
  // Warm the accounts' connectors and the stand-in's connections.
  const warm = chargesOf(bearer, `${run}w`);
  await sendEvenly(origin, warm.target, [{ rate: 20, seconds: 3 }]);
  const rows: LatencyRow[] = [];
  for (const rate of rates) {
    const { target, numbers } = chargesOf(bearer, `${run}r${rate}`);
    const { samples, extra } = await measured(origin, pid, metricsToken, standIn, () =>
      sendEvenly(origin, target, [{ rate, seconds: LATENCY_SECONDS }]),
    );
    const row = rowOf(`${rate} charges/s for ${LATENCY_SECONDS} s`, rate, samples, numbers, standIn, extra);
    console.log(
      `  processor latency ${rate}/s: ${row.admitted} admitted, ${row.refused} refused ${JSON.stringify(row.refusedBy)}, ` +
        `own p99 ${row.ownP99} ms, CPU ${JSON.stringify(row.cpu)}`,
    );
    rows.push(row);
  }
  if (!withFault) return rows;
  const { target, numbers } = chargesOf(bearer, `${run}f`);
  const [slow, other] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
  const timers = [
    setTimeout(() => standIn.setFixedDelay(slow.accessToken, FAULT.delayMs), FAULT.before * 1000),
    setTimeout(() => standIn.setFixedDelay(slow.accessToken, null), (FAULT.before + FAULT.during) * 1000),
  ];
  const { samples, extra } = await measured(origin, pid, metricsToken, standIn, () =>
    sendEvenly(origin, target, [{ rate: FAULT.rate, seconds: FAULT.before + FAULT.during + FAULT.after }]),
  );
  for (const timer of timers) clearTimeout(timer);
  standIn.setFixedDelay(slow.accessToken, null);
  const fault = rowOf(
    `fault: ${FAULT.rate}/s, the first processor answering in 10 s for ${FAULT.during} s`,
    FAULT.rate,
    samples,
    numbers,
    standIn,
    extra,
  );
  fault.approvedTwice = numbers.filter((number) => (standIn.approvals.get(number) ?? 0) > 1).length;
  fault.failedOver = numbers.filter((number) => standIn.approvedBy.get(number) === other.accessToken).length;
  console.log(
    `  fault run: ${fault.admitted} admitted, ${fault.failedOver} approved by the second account, own p99 ${fault.ownP99} ms`,
  );
  rows.push(fault);
  return rows;
}

/**
 * The runs' table against issue 48's targets: at 200/s nothing refused, the own time's p99 at most
 * twice an instant processor's at 200/s; at 400/s the own time's p99 at most 10 × the bare route's;
 * in the fault run, the own time's p99 at most twice the steady state's, nothing lost, nothing
 * approved twice, and 64 MiB or less per 1,000 charges in flight. Memory is judged there only: in
 * the steady runs under 300 are in flight and the resident memory's rise is the heap's own growth,
 * so their figure is shown in parentheses.
 */
export function latencyTable(rows: LatencyRow[], instantP99At200: number, bareP99At200: number): string[] {
  const at = (rate: number) => rows.find((row) => row.rate === rate && row.failedOver === undefined)!;
  const verdict = (met: boolean, limit: string) => `${met ? 'met' : 'SHORT'} (${limit})`;
  const target = (row: LatencyRow): string => {
    if (row.failedOver !== undefined) {
      const steady = at(200).ownP99;
      return [
        verdict(row.ownP99 <= 2 * steady, `own p99 ≤ 2 × steady state = ${round(2 * steady)} ms`),
        verdict(row.lost === 0 && row.approvedTwice === 0, 'nothing lost or approved twice'),
        verdict(row.mibPer1000 <= 64, '≤ 64 MiB per 1,000 in flight'),
      ].join(', ');
    }
    if (row.rate === 200) {
      return [
        verdict(row.refused === 0, '0 refused'),
        Number.isNaN(instantP99At200)
          ? "own p99 ≤ 2 × instant processor's: not measured in this run"
          : verdict(row.ownP99 <= 2 * instantP99At200, `own p99 ≤ 2 × instant processor's = ${round(2 * instantP99At200)} ms`),
      ].join(', ');
    }
    if (row.rate === 400) {
      if (Number.isNaN(bareP99At200)) return 'own p99 ≤ 10 × bare: not measured in this run';
      return verdict(row.ownP99 <= 10 * bareP99At200, `own p99 ≤ 10 × bare = ${round(10 * bareP99At200)} ms`);
    }
    return '—';
  };
  return [
    '| processor-latency run, POST /charges (CARD) | sent | admitted | refused (503 02), by signal | lost | own time p50 / p99 ms | answer p99 ms | peak in flight | peak RSS MiB | MiB per 1,000 in flight | connections in use (max) | event-loop delay p99 (worst 250 ms window) / max ms | CPU % of a core: request thread / database thread / PostgreSQL / load and stand-in | approved by the second / twice | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.sent} | ${row.admitted} | ${row.refused}${bySignal(row.refusedBy)} | ${row.lost} | ${row.ownP50} / ${row.ownP99} | ${row.p99} | ${row.peakInFlight} | ${row.peakMiB.toFixed(0)} | ${row.failedOver === undefined ? `(${row.mibPer1000})` : row.mibPer1000} | ${row.connectionsInUse ?? '—'} | ${row.loopP99Ms} / ${row.loopMaxMs} | ${row.cpu.request} / ${row.cpu.database} / ${row.cpu.postgres} / ${row.cpu.bench} | ${row.failedOver === undefined ? '—' : `${row.failedOver} / ${row.approvedTwice}`} | ${target(row)} |`,
    ),
  ];
}

function bySignal(refusedBy: Record<string, number>): string {
  const entries = Object.entries(refusedBy).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? '' : ` (${entries.map(([signal, count]) => `${signal} ${count}`).join(', ')})`;
}
