import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logNormalMs, startStandIn, type StandIn } from './stand-in-processor';

// The benchmark's stand-in processor (issue 48, point 4): its delays are the log-normal the
// issue names, and it answers the part of Mercado Pago's API a card charge uses.

describe('the stand-in processor', () => {
  it('draws delays with the median and 99th percentile asked for', () => {
    const draws = Array.from({ length: 40_000 }, () => logNormalMs(600, 2500)).sort((a, b) => a - b);
    expect(draws[20_000]!).toBeGreaterThan(570);
    expect(draws[20_000]!).toBeLessThan(630);
    expect(draws[39_600]!).toBeGreaterThan(2250);
    expect(draws[39_600]!).toBeLessThan(2750);
  });

  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn({ medianMs: 20, p99Ms: 40 });
  });
  afterAll(() => standIn.close());

  const call = (method: string, path: string, body?: unknown, token = 'TEST-a') =>
    fetch(`${standIn.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("answers a card charge's calls, approves the payment after its delay, and keeps what it held per operation", async () => {
    expect((await call('GET', '/v1/payment_methods')).status).toBe(200);
    const token = await call('POST', '/v1/card_tokens', { card_number: '4111111111111111' });
    expect(token.status).toBe(201);
    standIn.setFixedDelay('TEST-b', 150);
    const started = performance.now();
    const payment = await call('POST', '/v1/payments', { metadata: { merchant_operation_number: 'op-1' } }, 'TEST-b');
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(payment.status).toBe(201);
    expect(await payment.json()).toMatchObject({ status: 'approved', status_detail: 'accredited' });
    expect(standIn.held.get('op-1')).toBeGreaterThanOrEqual(145);
    expect([standIn.approvals.get('op-1'), standIn.approvedBy.get('op-1')]).toEqual([1, 'TEST-b']);
    expect(standIn.peakInFlight()).toBe(1);
    expect((await call('GET', '/v1/payments/1')).status).toBe(404);
  });
});
