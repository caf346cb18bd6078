import { createServer, request as send, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect as openSocket } from 'node:net';
import { answerConnect, handleApiRequest } from './node-api';

// The API's own HTTP path, on a real Node server: what it answers before any procedure runs
// (no database needed), and which paths it leaves to Next.
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (!handleApiRequest(request, response)) {
      response.writeHead(418, {
        'x-left-to': 'next',
        'x-method': request.method,
        'x-seen-forwarded-for': request.headers['x-forwarded-for'] ?? '',
        'x-seen-real-ip': request.headers['x-real-ip'] ?? '',
      });
      response.end('a body');
    }
  });
  server.on('connect', answerConnect);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = send({ host: '127.0.0.1', port, method, path, headers, agent: false }, (incoming) => {
      let body = '';
      incoming.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      incoming.on('end', () => resolve({ status: incoming.statusCode!, headers: incoming.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the API on Node’s HTTP path', () => {
  it('answers a path with a trailing slash 308 to the path without it, query kept, with the API’s headers', async () => {
    const answer = await call('POST', '/api/charges/?x=1');
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe('/api/charges?x=1');
    expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('resolves dot segments before it routes: a path that leaves the API goes to Next', async () => {
    expect((await call('GET', '/api/charges/../trpc/console.operations')).headers['x-left-to']).toBe('next');
    expect((await call('GET', '/api/refund/M1/%2e%2e/')).headers.location).toBe('/api/refund');
  });

  it('answers OPTIONS with the route’s real methods, 204 and no Content-Length', async () => {
    const answer = await call('OPTIONS', '/api/refund');
    expect(answer.status).toBe(204);
    expect(answer.headers.allow).toBe('POST, GET, HEAD, OPTIONS');
    expect(answer.headers['content-length']).toBeUndefined();
    expect((await call('OPTIONS', '/oauth/token')).headers.allow).toBe('POST, OPTIONS');
    // A concrete segment wins over a parameter: the capture's path is no transaction named `capture`.
    expect((await call('OPTIONS', '/api/charges/M1/O1/capture')).headers.allow).toBe('POST, OPTIONS');
    expect((await call('OPTIONS', '/api/charges/M1/O1/T1')).headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('hands Next the peer as the client, not what the client wrote in X-Forwarded-For or X-Real-IP (no trusted proxy)', async () => {
    const answer = await call('GET', '/console', { 'x-forwarded-for': '198.51.100.7', 'x-real-ip': '198.51.100.8' });
    expect(answer.headers['x-left-to']).toBe('next');
    expect(answer.headers['x-seen-forwarded-for']).toBe('127.0.0.1');
    expect(answer.headers['x-seen-real-ip']).toBe('');
  });

  it('leaves Next its own paths', async () => {
    for (const path of ['/login', '/api/health', '/api/metrics', '/api/trpc/console.operations', '/api/auth/session']) {
      expect((await call('GET', path)).status, path).toBe(418);
    }
  });

  it('answers for Next the methods its paths do not serve: 405 with Allow in the envelope, OPTIONS 204', async () => {
    for (const [method, path, allow] of [
      ['TRACE', '/', 'GET, HEAD, OPTIONS'],
      ['PUT', '/login', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/operations/1', 'GET, HEAD, OPTIONS'],
      ['POST', '/api/health', 'GET, HEAD, OPTIONS'],
      ['TRACE', '/api/auth/session', 'GET, POST, HEAD, OPTIONS'],
      ['HEAD', '/pay/abc/pay', 'POST, OPTIONS'],
      ['PATCH', '/api/trpc/console.operations', 'GET, POST, HEAD, OPTIONS'],
    ] as const) {
      const answer = await call(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.allow, `${method} ${path}`).toBe(allow);
      if (method !== 'HEAD') {
        const body = JSON.parse(answer.body) as { success: boolean; meta: { status: { code: string } } };
        expect(body.success).toBe(false);
        expect(body.meta.status.code).toBe('31');
      }
    }
    const options = await call('OPTIONS', '/pay/abc/challenge/cancel');
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('POST, OPTIONS');
    expect((await call('OPTIONS', '/login')).headers.allow).toBe('GET, HEAD, OPTIONS');
    // HEAD reaches Next as GET (its route handlers refused HEAD), and still has no body.
    const head = await call('HEAD', '/api/auth/session');
    expect([head.status, head.headers['x-method'], head.body]).toEqual([418, 'GET', '']);
    // What Next serves is still Next's.
    for (const [method, path] of [
      ['HEAD', '/login'],
      ['POST', '/pay/abc/pay'],
      ['POST', '/api/trpc/console.operations'],
      ['GET', '/docs/assets/swagger-ui.css'],
    ] as const) {
      expect((await call(method, path)).status, `${method} ${path}`).toBe(418);
    }
  });

  it('answers CONNECT 405 with the Allow of the path (the origin’s root for an authority), where Node dropped it', async () => {
    const raw = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = openSocket(port, '127.0.0.1', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: x\r\n\r\n`));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
    const proxy = await raw('example.com:443');
    expect(proxy).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(proxy).toContain('allow: GET, HEAD, OPTIONS\r\n');
    expect(proxy).toContain('"code":"31"');
    expect(await raw('/api/charges')).toContain('allow: POST, OPTIONS\r\n');
    expect(await raw('/api/nope')).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
  });
});
