import { createServer, request as send, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from './node-api';

// The API's own HTTP path, on a real Node server: what it answers before any procedure runs
// (no database needed), and which paths it leaves to Next.
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (!handleApiRequest(request, response)) {
      response.writeHead(418, { 'x-left-to': 'next' });
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function call(method: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = send({ host: '127.0.0.1', port, method, path, agent: false }, (incoming) => {
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
  });

  it('leaves Next its own paths', async () => {
    for (const path of ['/login', '/api/health', '/api/metrics', '/api/trpc/console.operations', '/api/auth/session']) {
      expect((await call('GET', path)).status, path).toBe(418);
    }
  });
});
