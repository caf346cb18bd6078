import { request as send } from 'node:http';
import { describe, expect, it } from 'vitest';
import { apiServer } from '@tests/support/api-server';

// Issue 26, point 6: reached directly (no TRUSTED_PROXIES), the token endpoint's per-address
// bucket is the peer's, whatever X-Forwarded-For a client writes. Before, a fresh header per
// request escaped it: 0 of 150 requests were limited.
// A small bucket (5 per second, a burst of 10), read when the first request reads the settings:
// the bound below then holds however long the machine takes to send the 150 requests.
process.env.TOKEN_RATE_PER_ADDRESS = '5';
const RATE = 5;
const BURST = 10;

const server = apiServer();

function tokenRequest(forwardedFor: string, client: string): Promise<number> {
  const body = `grant_type=client_credentials&client_id=${client}&client_secret=not-the-secret`;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        host: '127.0.0.1',
        port: server.port(),
        method: 'POST',
        path: '/oauth/token',
        agent: false,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'alg-api-version': '1709847567',
          'x-forwarded-for': forwardedFor,
        },
      },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () => resolve(incoming.statusCode!));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the token endpoint’s per-address limit, with no trusted proxy', () => {
  it('limits 150 concurrent requests from one peer though each names a fresh X-Forwarded-For', async () => {
    // All at once, as an attacker sends them: the bucket refills while the secret checks run.
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: 150 }, (_, i) => tokenRequest(`198.51.100.${i}`, `unknown-${i}`)));
    const seconds = (performance.now() - started) / 1000;
    const limited = statuses.filter((status) => status === 429).length;
    // One bucket for the peer: at most the burst and what refilled meanwhile got through (each
    // a 401: a client id each, so the per-client bucket plays no part); trusting the header,
    // none of the 150 was limited.
    expect(150 - limited).toBeLessThanOrEqual(BURST + Math.ceil(RATE * seconds) + 1);
    expect(limited).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 429).every((status) => status === 401)).toBe(true);
  });
});
