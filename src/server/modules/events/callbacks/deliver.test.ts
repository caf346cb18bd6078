import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSnippet, deliverCallback, type DeliveryOptions } from './deliver';
import { boundedResolver } from './resolve-host';
import { verifyBody } from './sign';
import { callbackHeaders } from './signing';

// One callback POST: what each kind of endpoint answer becomes.

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
let server: Server;
let origin: string;
const seen: { path: string; body: string; signature: string; keyId: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      seen.push({
        path,
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers.signature),
        keyId: String(request.headers['signature-key-id']),
      });
      if (path === '/hang') return;
      if (path === '/busy') return void response.writeHead(503).end('later');
      if (path === '/moved') return void response.writeHead(302, { location: '/ok' }).end();
      response.writeHead(200).end('x'.repeat(2_000));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const options = (overrides: Partial<DeliveryOptions> = {}): DeliveryOptions => ({
  headersFor: (timestamp) =>
    callbackHeaders(
      { eventId: 'e-1', eventType: 'transaction.authorized', body: '{"a":1}' },
      { kid: 'k-1', privateKey },
      timestamp,
    ),
  timeoutMs: 1_000,
  guardAddresses: false,
  resolveHost: boundedResolver(500),
  ...overrides,
});

describe('answerSnippet', () => {
  it('keeps 200 characters of what a public destination answered, nothing of a private one', () => {
    const text = 'x'.repeat(1_000);
    expect(answerSnippet(['190.12.34.56'], text)).toBe('x'.repeat(200));
    expect(answerSnippet(['190.12.34.56', '10.0.0.5'], text)).toBe('');
    expect(answerSnippet(['::ffff:7f00:1'], text)).toBe('');
  });
});

describe('deliverCallback', () => {
  it('posts the signed body, and keeps nothing of what a private destination answered', async () => {
    const result = await deliverCallback(`${origin}/ok`, '{"a":1}', options());
    expect(result).toMatchObject({ ok: true, permanent: false, statusCode: 200, error: null });
    expect(result.responseSnippet).toBe('');
    const request = seen.find((each) => each.path === '/ok')!;
    expect(request.keyId).toBe('k-1');
    expect(verifyBody(request.body, request.signature, publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBe(true);
  });

  it('reads a 5xx and a redirect (not followed) as failures to retry', async () => {
    expect(await deliverCallback(`${origin}/busy`, '{}', options())).toMatchObject({
      ok: false,
      permanent: false,
      statusCode: 503,
      error: 'HTTP 503',
    });
    expect(await deliverCallback(`${origin}/moved`, '{}', options())).toMatchObject({ ok: false, statusCode: 302 });
    expect(seen.filter((each) => each.path === '/ok')).toHaveLength(1);
  });

  it('gives up on an endpoint that never answers at the timeout', async () => {
    const result = await deliverCallback(`${origin}/hang`, '{}', options({ timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, permanent: false, statusCode: null, error: 'no answer within 300 ms' });
    expect(result.latencyMs).toBeLessThan(1_000);
  });

  it('refuses a loopback host for good outside sandbox mode, without connecting', async () => {
    const before = seen.length;
    const result = await deliverCallback(`${origin}/ok`, '{}', options({ guardAddresses: true }));
    expect(result).toMatchObject({ ok: false, permanent: true, statusCode: null });
    expect(result.error).toMatch(/non-public address/);
    expect(seen).toHaveLength(before);
  });

  it('reads a host that does not resolve as a failure to retry', async () => {
    const resolveHost = () => Promise.reject(new Error('ENOTFOUND'));
    const result = await deliverCallback('https://nowhere.invalid/hooks', '{}', options({ resolveHost }));
    expect(result).toMatchObject({ ok: false, permanent: false, statusCode: null });
    expect(result.error).toMatch(/did not resolve/);
  });
});
