import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTRPCClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import { apiServer } from '@tests/support/api-server';
import type { AppRouter } from '@/server/api/routers/app-router';
import { admissionControl, DEFAULT_ADMISSION_LIMITS, parseAdmissionLimits } from '@/server/platform/http/admission';
import { admissionClassOf } from './node-api';
import { apiRouteOf } from './api-routes';

// Issue 31, point 1: past its class's requests in flight, a request is answered 503 code 02
// with Retry-After at once; payer pages and processors' notifications keep their own share; a
// slot comes back when its request ends, whether answered, failed or abandoned.

// Read by env() on its first use, which is this file's first request.
process.env.ADMISSION_LIMITS = 'charges=2,token=1,console=1';
process.env.ADMISSION_WAIT_MS = '1';
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
    expect(parseAdmissionLimits('charges=0')).toMatch(/must be class=count/);
    expect(parseAdmissionLimits('charges')).toMatch(/must be class=count/);
  });

  it('admits its floor, then more only while the oldest in flight is younger than the wait', () => {
    const control = admissionControl({ ...DEFAULT_ADMISSION_LIMITS, payer: 2 }, 50);
    const first = control.admit('payer', 1000);
    expect(control.admit('payer', 1000)).not.toBeNull();
    // A burst into an idle class: the oldest has waited 49 ms, so a third and a fourth get in.
    expect(control.admit('payer', 1049)).not.toBeNull();
    const fourth = control.admit('payer', 1049);
    expect(fourth).not.toBeNull();
    // The oldest has waited 50 ms: the queue is standing, refuse.
    expect(control.admit('payer', 1050)).toBeNull();
    expect(control.inFlight('payer')).toBe(4);
    // Another class is not touched by it.
    expect(control.admit('notifications', 1050)).not.toBeNull();
    // The oldest answered: the next oldest (1000) still stands; below the floor, admitted whatever its age.
    first!();
    expect(control.admit('payer', 1100)).toBeNull();
  });

  it('gives a slot back once, however often its release is called', () => {
    const control = admissionControl({ ...DEFAULT_ADMISSION_LIMITS, payer: 1 }, 50);
    const release = control.admit('payer', 0);
    expect(release).not.toBeNull();
    expect(control.admit('payer', 100)).toBeNull();
    release!();
    release!();
    expect(control.inFlight('payer')).toBe(0);
    expect(control.admit('payer', 100)).not.toBeNull();
    expect(control.admit('payer', 200)).toBeNull();
  });

  it('answers a class over its limit 503 code 02 with Retry-After at once, while payer pages and notifications get in', async () => {
    const held = [hanging('/api/charges'), hanging('/api/charges'), hanging('/oauth/token')];
    await settled();

    const refused = await send('POST', '/api/charges', '{}');
    expect(refused).toMatchObject({ status: 503, retryAfter: '1' });
    expect(codeOf(refused)).toBe('02');
    expect(JSON.parse(refused.body)).toMatchObject({ success: false });
    const token = await send('POST', '/oauth/token', '{}');
    expect(token).toMatchObject({ status: 503, retryAfter: '1' });
    expect(codeOf(token)).toBe('02');

    // Other classes are not full: a read, a payer page (Next's: the 418 here), a notification.
    expect((await send('GET', '/api/refund')).status).toBe(401);
    expect((await send('GET', '/pay/tok-one')).status).toBe(418);
    expect((await send('POST', '/pay/tok-one/pay', 'a=1')).status).toBe(418);
    const notification = await send('POST', '/api/notifications/nobody/acct-one', '{}');
    expect(notification.status).not.toBe(503);

    // Abandoned requests give their slots back.
    for (const { request } of held) request.destroy();
    await Promise.allSettled(held.map(({ answer }) => answer));
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

  it("answers a tRPC call over the console's limit in tRPC's envelope, so the console and the operator CLI read the refusal", async () => {
    const held = hanging('/operations?hold', 'GET');
    await settled();
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
    held.request.destroy();
    await held.answer.catch(() => {});
  });
});
