import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// The benchmark's own stand-in for a processor (issue 48, point 4): the part of Mercado Pago's
// API a card charge uses (GET /v1/payment_methods to connect the account, POST /v1/card_tokens,
// POST /v1/payments), every payment approved after a delay drawn from a log-normal distribution
// (median 600 ms, p99 2.5 s by default), as real processors answer. Not the processor simulator
// of the tests (tests/simulators: the processor's rules, its declines and modes), and not the
// sandbox's: only latency. It keeps, per operation, the time its payments were held, so the
// benchmark can tell the service's own time from the processor's, and the approvals, so it can
// tell that no operation was approved twice.

/** One draw of a log-normal delay with this median and 99th percentile (Box-Muller). */
export function logNormalMs(medianMs: number, p99Ms: number): number {
  const sigma = Math.log(p99Ms / medianMs) / 2.3263;
  const z = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  return medianMs * Math.exp(sigma * z);
}

export type StandIn = {
  url: string;
  /** Per merchant operation number: the milliseconds its payment calls were held, and its approvals. */
  held: Map<string, number>;
  approvals: Map<string, number>;
  /** Per merchant operation number: the access token of the account that approved it last. */
  approvedBy: Map<string, string>;
  /** Calls in flight now and at most since the last `resetPeak`. */
  inFlight(): number;
  peakInFlight(): number;
  resetPeak(): void;
  /** Every payment of the account with this access token answered after `delayMs`, or by the distribution again (null). */
  setFixedDelay(accessToken: string, delayMs: number | null): void;
  close(): Promise<void>;
};

function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      try {
        resolve(JSON.parse(text || '{}') as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
}

export async function startStandIn(options: { medianMs?: number; p99Ms?: number } = {}): Promise<StandIn> {
  const median = options.medianMs ?? 600;
  const p99 = options.p99Ms ?? 2500;
  const held = new Map<string, number>();
  const approvals = new Map<string, number>();
  const approvedBy = new Map<string, string>();
  const fixed = new Map<string, number>();
  let calls = 0;
  let peak = 0;
  let nextId = 1;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readJson(request);
      const path = (request.url ?? '/').split('?')[0];
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      if (request.method === 'GET' && path === '/v1/payment_methods') return answer(response, 200, []);
      if (request.method === 'POST' && path === '/v1/card_tokens') return answer(response, 201, { id: `tok${nextId++}` });
      if (request.method !== 'POST' || path !== '/v1/payments') return answer(response, 404, { message: 'not found' });
      calls += 1;
      peak = Math.max(peak, calls);
      const delay = fixed.get(token) ?? logNormalMs(median, p99);
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, delay));
      calls -= 1;
      const operation = String((body.metadata as { merchant_operation_number?: unknown } | undefined)?.merchant_operation_number);
      held.set(operation, (held.get(operation) ?? 0) + (performance.now() - started));
      approvals.set(operation, (approvals.get(operation) ?? 0) + 1);
      approvedBy.set(operation, token);
      const id = nextId++;
      answer(response, 201, {
        id,
        status: 'approved',
        status_detail: 'accredited',
        authorization_code: String(100000 + (id % 900000)),
      });
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    approvals,
    approvedBy,
    inFlight: () => calls,
    peakInFlight: () => peak,
    resetPeak: () => {
      peak = calls;
    },
    setFixedDelay: (accessToken, delayMs) => {
      if (delayMs === null) fixed.delete(accessToken);
      else fixed.set(accessToken, delayMs);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
