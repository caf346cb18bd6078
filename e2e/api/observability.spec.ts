import { expect, test } from '../support/contract';
import { charge, chargeBody, operationNumber, tokenFor } from '../support/api-client';
import { createMerchant, METRICS_TOKEN, metricValue } from '../support/service';

// Operations endpoints: health (liveness and database readiness) and Prometheus metrics.
test('GET /api/health answers ok with the database and warm-up checks, and ?probe=live without them', async ({ request }) => {
  const ready = await request.get('/api/health');
  expect(ready.status()).toBe(200);
  expect(ready.headers()['cache-control']).toBe('no-store');
  const body = (await ready.json()) as {
    status: string;
    uptime_seconds: number;
    checks: { database: { status: string }; warm_up: { status: string } };
  };
  expect(body.status).toBe('ok');
  expect(body.checks.database.status).toBe('ok');
  expect(body.checks.warm_up.status).toBe('ok');
  expect(Number.isInteger(body.uptime_seconds)).toBe(true);
  const live = await request.get('/api/health?probe=live');
  expect(live.status()).toBe(200);
  expect(Object.keys((await live.json()) as object).sort()).toStrictEqual(['status', 'uptime_seconds']);
});

test('GET /api/metrics needs the bearer token', async ({ request }) => {
  expect((await request.get('/api/metrics')).status()).toBe(401);
  const wrong = await request.get('/api/metrics', { headers: { authorization: 'Bearer not-the-metrics-token' } });
  expect(wrong.status()).toBe(401);
  expect(await wrong.text()).not.toContain('pay_');
});

test('metrics count requests by route and status, and transactions by state', async ({ request }) => {
  const scrape = async () => {
    const response = await request.get('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/plain');
    return response.text();
  };
  const merchant = await createMerchant('MET');
  const token = await tokenFor(request, merchant);
  const series = 'pay_http_requests_total{route="charges",method="POST",status="200"}';
  const refused = 'pay_http_requests_total{route="charges",method="POST",status="401"}';
  const before = await scrape();
  expect((await charge(request, token, chargeBody(merchant.code, operationNumber('met'), 'CARD'))).status()).toBe(200);
  expect((await charge(request, 'not-a-token', chargeBody(merchant.code, operationNumber('met'), 'CARD'))).status()).toBe(401);
  const after = await scrape();
  expect(metricValue(after, series)).toBeGreaterThanOrEqual(metricValue(before, series) + 1);
  expect(metricValue(after, refused)).toBeGreaterThanOrEqual(metricValue(before, refused) + 1);
  expect(after).toContain('pay_http_request_duration_seconds_bucket{le="0.05",route="charges",method="POST"}');
  // State counts are read from the database at most every 15 s.
  await expect
    .poll(async () => metricValue(await scrape(), 'pay_transactions{state="AUTORIZADO"}'), { timeout: 20_000 })
    .toBeGreaterThan(0);
  // Operation numbers and ids never become labels.
  expect(after).not.toMatch(/route="[^"]*\//);
});
