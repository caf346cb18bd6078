import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { apiServer } from '@tests/support/api-server';
import type { AppRouter } from '@/server/api/routers/app-router';
import { admissionControl, BURST_FACTOR, DEFAULT_ADMISSION_LIMITS, parseAdmissionLimits } from '@/server/platform/http/admission';
import { pressureOver, pressureReading, type PressureSignal } from '@/server/platform/http/service-pressure';
import type { AwayClock } from '@/server/platform/http/time-away';
import { metrics } from '@/server/platform/observability/metrics';
import { db } from '@/server/platform/db/client';
import { admissionClassOf } from './node-api';
import { apiRouteOf } from './api-routes';

// Issue 31, point 1, and issue 48, point 1: past its class's floor, a request is answered 503
// code 02 with Retry-After at once while one of the service's own queues stands (the event loop,
// the database, the heap), and admitted otherwise, however many are in flight; payer pages and
// processors' notifications keep their own floor; a slot comes back when its request ends,
// whether answered, failed or abandoned.

// Read by env() on its first use, which is this file's first request.
process.env.ADMISSION_LIMITS = 'charges=0,token=0,console=0';
// 100 ms, not the service's 25: the machine may be busy with other test files, and a loop or a
// database that a busy machine delays 25 ms must not refuse what these tests expect admitted.
process.env.ADMISSION_WAIT_MS = '100';
process.env.LOG_REQUESTS = 'false';

const server = apiServer();

type Answer = { status: number; retryAfter: string | undefined; body: string };

function answerOf(outgoing: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    outgoing.on('response', (response: IncomingMessage) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body }));
    });
    outgoing.on('error', reject);
  });
}

function send(method: string, path: string, body = ''): Promise<Answer> {
  const outgoing = httpRequest({
    host: '127.0.0.1',
    port: server.port(),
    method,
    path,
    headers: { 'content-type': 'application/json' },
  });
  const answer = answerOf(outgoing);
  outgoing.end(body);
  return answer;
}

/** A request whose body never finishes (or a page left unanswered): it holds its slot. */
function hanging(path: string, method = 'POST'): { request: ClientRequest; answer: Promise<Answer> } {
  const outgoing = httpRequest({
    host: '127.0.0.1',
    port: server.port(),
    method,
    path,
    headers: { 'content-type': 'application/json', 'content-length': '64' },
  });
  outgoing.write('{"ac');
  const answer = answerOf(outgoing);
  answer.catch(() => {});
  return { request: outgoing, answer };
}

/**
 * Lets the server take the hanging requests in (they are admitted when their headers arrive) and
 * them grow older than ADMISSION_WAIT_MS.
 */
async function settled(): Promise<void> {
  await send('GET', '/api/openapi.json');
  await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Keeps the thread busy `ms`: what a saturated event loop does to every callback. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function codeOf(answer: Answer): string | undefined {
  return (JSON.parse(answer.body) as { meta?: { status?: { code?: string } } }).meta?.status?.code;
}

describe('admission control', () => {
  it('classes every path: the API by route and method, payer pages, the console, and what is never refused', () => {
    const of = (method: string, path: string, api = true) => admissionClassOf(method, path, api ? apiRouteOf(path) : null);
    expect(of('POST', '/api/charges')).toBe('charges');
    expect(of('DELETE', '/api/charges/SHOP/op-1')).toBe('charges');
    expect(of('GET', '/api/refund')).toBe('reads');
    expect(of('POST', '/oauth/token')).toBe('token');
    expect(of('POST', '/api/notifications/culqi/acct-one')).toBe('notifications');
    expect(of('GET', '/pay/tok-one', false)).toBe('payer');
    expect(of('POST', '/pay/tok-one/pay', false)).toBe('payer');
    expect(of('POST', '/api/trpc/console.operations', false)).toBe('console');
    expect(of('GET', '/operations', false)).toBe('console');
    for (const path of ['/api/health', '/api/metrics', '/api/bench/baseline', '/_next/static/chunk.js']) {
      expect(of('GET', path, false)).toBeNull();
    }
  });

  it('reads its limits over the defaults and refuses a malformed one', () => {
    expect(parseAdmissionLimits('charges=2, token=1')).toEqual({ ...DEFAULT_ADMISSION_LIMITS, charges: 2, token: 1 });
    expect(parseAdmissionLimits('')).toEqual(DEFAULT_ADMISSION_LIMITS);
    expect(parseAdmissionLimits('charge=2')).toMatch(/^"charge=2" must be class=count/);
    expect(parseAdmissionLimits('charges=0')).toEqual({ ...DEFAULT_ADMISSION_LIMITS, charges: 0 });
    expect(parseAdmissionLimits('charges=-1')).toMatch(/must be class=count/);
    expect(parseAdmissionLimits('charges')).toMatch(/must be class=count/);
  });

  it('admits its floor in service whatever the pressure, past it while the service keeps up, and a burst into a calm service', () => {
    let pressure: PressureSignal | null = null;
    let now = 1000;
    const control = admissionControl(
      { ...DEFAULT_ADMISSION_LIMITS, payer: 2 },
      50,
      () => pressure,
      () => now,
    );
    const admit = () => {
      const admitted = control.admit('payer');
      if (!('release' in admitted)) throw new Error(`refused: ${admitted.refused}`);
      return admitted;
    };
    const first = admit();
    const second = admit();
    // Past the floor, nothing standing: admitted, however many.
    const more = Array.from({ length: 10 }, admit);
    expect([control.inFlight('payer'), control.inService('payer')]).toEqual([12, 12]);
    // The longest request in service has been in it 50 ms: the service is not keeping up. A
    // burst's allowance (4 × the floor) is admitted all the same, then the class refuses.
    now = 1050;
    const allowance = Array.from({ length: BURST_FACTOR * 2 }, admit);
    expect(control.admit('payer')).toEqual({ refused: 'service_time' });
    // Every one goes to its processor: away, no longer in service, so the class keeps up again.
    for (const each of [first, second, ...more, ...allowance]) each.clock.leave(now);
    expect([control.inFlight('payer'), control.inService('payer')]).toEqual([20, 0]);
    now = 1500;
    const later = Array.from({ length: 5 }, admit);
    // Back from a 1,950 ms processor, the first has been in the service 50 ms and 10 ms: 60 ms.
    // Pressure was met 460 ms ago: no allowance yet.
    now = 1510;
    first.clock.back(now);
    expect(control.admit('payer')).toEqual({ refused: 'service_time' });
    first.release();
    // The service's own queues, past the floor: a queue past its limit refuses.
    for (const each of later) each.clock.leave(now);
    pressure = 'database';
    const floor = [admit(), admit()];
    expect(control.admit('payer')).toEqual({ refused: 'database' });
    pressure = 'event_loop';
    expect(control.admit('payer')).toEqual({ refused: 'event_loop' });
    // Another class below its floor is not touched by it.
    expect('release' in control.admit('notifications')).toBe(true);
    // A calm second after the last pressure: the allowance is whole again.
    for (const each of floor) each.release();
    pressure = null;
    now = 2600;
    admit();
    admit();
    admit();
    pressure = 'memory';
    for (let index = 0; index < BURST_FACTOR * 2; index += 1) admit();
    expect(control.admit('payer')).toEqual({ refused: 'memory' });
  });

  it('gives the allowance back after a calm second, though nothing came past the floor meanwhile', () => {
    let pressure: PressureSignal | null = 'event_loop';
    let now = 1000;
    const control = admissionControl(
      { ...DEFAULT_ADMISSION_LIMITS, payer: 2 },
      50,
      () => pressure,
      () => now,
    );
    const burst = () => Array.from({ length: 2 + BURST_FACTOR * 2 }, () => control.admit('payer'));
    const spent = burst();
    expect(spent.every((each) => 'release' in each)).toBe(true);
    expect(control.admit('payer')).toEqual({ refused: 'event_loop' });
    for (const each of spent) if ('release' in each) each.release();
    // Two calm seconds with a request at a time, under the floor: no pressure was ever met.
    pressure = null;
    for (now = 1100; now < 3100; now += 100) {
      const one = control.admit('payer');
      if ('release' in one) one.release();
    }
    // The next burst meets a loaded loop at once: its allowance is whole.
    pressure = 'event_loop';
    expect(burst().every((each) => 'release' in each)).toBe(true);
    expect(control.admit('payer')).toEqual({ refused: 'event_loop' });
  });

  it('gives a slot back once, however often its release is called, away or in service', () => {
    const control = admissionControl(
      { ...DEFAULT_ADMISSION_LIMITS, payer: 1, console: 0 },
      50,
      () => 'memory',
      () => 0,
    );
    // A floor of 0 has no allowance either: everything meets the pressure.
    expect(control.admit('console')).toEqual({ refused: 'memory' });
    const admitted = Array.from({ length: 1 + BURST_FACTOR }, () => control.admit('payer'));
    expect(admitted.every((each) => 'release' in each)).toBe(true);
    expect(control.admit('payer')).toEqual({ refused: 'memory' });
    const [first, second] = admitted as { release: () => void; clock: AwayClock }[];
    first!.release();
    first!.release();
    expect([control.inFlight('payer'), control.inService('payer')]).toEqual([BURST_FACTOR, BURST_FACTOR]);
    // Released while away (the client hung up during the processor's call): not counted twice.
    second!.clock.leave(0);
    second!.release();
    second!.clock.back(10);
    expect([control.inFlight('payer'), control.inService('payer')]).toEqual([BURST_FACTOR - 1, BURST_FACTOR - 1]);
    for (const each of admitted) if ('release' in each) each.release();
    expect([control.inFlight('payer'), control.inService('payer')]).toEqual([0, 0]);
    expect('release' in control.admit('payer')).toBe(true);
    expect(control.admit('payer')).toEqual({ refused: 'memory' });
  });

  it('reads pressure from the event loop, then the database, then the heap, each at its limit', () => {
    const limits = { waitMs: 25, heapUsed: 0.9 };
    const calm = { eventLoopDelayMs: 3, eventLoopUtilization: 0.99, databaseWaitMs: 24.9, heapUsed: 0.89 };
    expect(pressureOver(calm, limits)).toBeNull();
    expect(pressureOver({ ...calm, eventLoopDelayMs: 25, databaseWaitMs: 40 }, limits)).toBe('event_loop');
    expect(pressureOver({ ...calm, databaseWaitMs: 25 }, limits)).toBe('database');
    expect(pressureOver({ ...calm, heapUsed: 0.9 }, limits)).toBe('memory');
  });

  it('answers a class past its floor 503 code 02 with Retry-After at once while the database queue stands, payer pages and notifications still in', async () => {
    const held = [hanging('/api/charges'), hanging('/api/charges'), hanging('/oauth/token')];
    await settled();
    // The embedded database runs one statement at a time: a transaction that holds it for 700 ms
    // makes a statement behind it wait, and that wait stands past an interval (database-queue.ts).
    const prisma = await db();
    // (Prisma's promises run once awaited: Promise.resolve sets them off now.)
    const holding = Promise.resolve(
      prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await new Promise((resolve) => setTimeout(resolve, 700));
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const behind = Promise.resolve(prisma.$queryRaw`SELECT 1`);
    try {
      // Until the reading shows the wait standing (at most 400 ms more: the hold lasts 700), so a
      // machine busy with the other test files does not send the request before the queue is seen.
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let polls = 0; polls < 40 && pressureReading().databaseWaitMs < 100; polls += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const refused = await send('POST', '/api/charges', '{}');
      expect(refused).toMatchObject({ status: 503, retryAfter: '1' });
      expect(codeOf(refused)).toBe('02');
      // POST /charges documents `success` as the string "false" (docs/interface.md), its refusal too.
      expect(JSON.parse(refused.body)).toMatchObject({ success: 'false' });
      const token = await send('POST', '/oauth/token', '{}');
      expect(token).toMatchObject({ status: 503, retryAfter: '1' });
      expect(codeOf(token)).toBe('02');
      expect(JSON.parse(token.body)).toMatchObject({ success: false });

      // Classes below their floor: a read (24), a payer page (Next's: the 418 here), a notification.
      expect((await send('GET', '/api/openapi.json')).status).toBe(200);
      expect((await send('GET', '/pay/tok-one')).status).toBe(418);
      expect((await send('POST', '/pay/tok-one/pay', 'a=1')).status).toBe(418);
      const metricsText = await metrics().registry.getSingleMetricAsString('pay_admission_refusals_total');
      // The database's queue stood; on a machine busy with the other test files the event loop can
      // stand too, and it is read first (pressureOver), or the reading can have dropped between two
      // intervals while the held charges had been in service past the limit (service_time, seen
      // once in a full unit run): each is the service's own queue.
      expect(metricsText).toMatch(/pay_admission_refusals_total\{class="charges",signal="(database|event_loop|service_time)"\}/);
    } finally {
      await Promise.allSettled([holding, behind]);
      // Released whatever happened above, so no held request stays in service for the next test.
      for (const { request } of held) request.destroy();
      await Promise.allSettled(held.map(({ answer }) => answer));
    }
    // The queue drained: an interval later nothing stands, and the held requests gave their slots back.
    await new Promise((resolve) => setTimeout(resolve, 150));
    await settled();
    expect((await send('POST', '/api/charges', '{}')).status).toBe(401);
    expect((await send('POST', '/oauth/token', '{}')).status).toBe(400);
  });

  it('gives slots back after answers and failures: many more requests than the limit, one after another, are all served', async () => {
    const statuses = [];
    for (let index = 0; index < 6; index += 1) {
      statuses.push((await send('POST', '/api/charges', '{}')).status, (await send('POST', '/api/charges', 'not json')).status);
      statuses.push((await send('POST', '/oauth/token', '{"grant_type":"client_credentials"}')).status);
    }
    expect(statuses.filter((status) => status === 503)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([400, 401]));
  });

  it("answers a tRPC call refused in tRPC's envelope, so the console and the operator CLI read the refusal", async () => {
    const held = hanging('/operations?hold', 'GET');
    await settled();
    // The event loop is the queue now: every callback waits behind a stretch of work past the limit.
    const blocked = setInterval(() => busyFor(150), 151);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const url = `http://127.0.0.1:${server.port()}/api/trpc`;
    for (const link of [httpLink({ url }), httpBatchLink({ url })]) {
      const client = createTRPCClient<AppRouter>({ links: [link] });
      const failure: unknown = await client.console.overview.query().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TRPCClientError);
      const refused = failure as TRPCClientError<AppRouter>;
      expect([refused.message, refused.data, refused.shape?.code]).toEqual([
        'The service is at capacity; retry after Retry-After seconds',
        {
          kind: 'UNAVAILABLE',
          errors: [{ code: 'unavailable', message: 'The service is at capacity; retry after Retry-After seconds' }],
        },
        -32603,
      ]);
    }
    const raw = await send('POST', '/api/trpc/console.overview', '{}');
    expect([raw.status, raw.retryAfter]).toEqual([503, '1']);
    clearInterval(blocked);
    held.request.destroy();
    await held.answer.catch(() => {});
  });
});
