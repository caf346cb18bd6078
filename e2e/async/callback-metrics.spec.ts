import { METRICS_TOKEN, metricValue } from '../support/service';
import { API, asyncActor, bodyFor, chargeOk, expect, test, waitForEvents } from './async-helpers';
import { operationNumber } from '../support/api-client';

// Callback outcomes reach /api/metrics from the database (callback_attempts), as they would on
// any instance whichever process delivered them; the count is read at most every 15 s, hence the
// poll. tests/postgres/callback-metrics.test.ts has the standalone worker deliver.
test('delivered callbacks are counted in /api/metrics', async ({ request, receiver }) => {
  const scrape = async () => {
    const response = await request.get(`${API}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status()).toBe(200);
    return response.text();
  };
  const delivered = 'pay_callback_attempts_total{outcome="delivered"}';
  const before = metricValue(await scrape(), delivered);
  const { merchant, token } = await asyncActor(request, 'CBMET');
  await chargeOk(
    request,
    token,
    bodyFor(merchant.code, operationNumber('cb-met'), 'CARD', { callback_url: receiver.url('/met') }),
    'AUTORIZADO',
  );
  await waitForEvents(receiver, '/met', ['transaction.registered', 'transaction.pending', 'transaction.authorized']);
  await expect.poll(async () => metricValue(await scrape(), delivered), { timeout: 20_000 }).toBeGreaterThanOrEqual(before + 3);
  expect(await scrape()).toContain('pay_callback_attempt_duration_seconds_bucket{le="0.05",outcome="delivered"}');
});
