import { describe, expect, it, vi } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { callbackMetricsText } from './callback-metrics';
import { metricsText } from '@/server/http/metrics';

describe('callbackMetricsText', () => {
  it('writes the attempts counter and the latency histogram of every outcome, zero when none', () => {
    const text = callbackMetricsText([
      { outcome: 'delivered', count: 3, sumMs: 180, buckets: [2, 3, 3, 3, 3, 3, 3, 3] },
      { outcome: 'failed', count: 1, sumMs: 12_000, buckets: [0, 0, 0, 0, 0, 0, 0, 0] },
    ]);
    const lines = text.split('\n');
    expect(lines).toContain('# TYPE pay_callback_attempts_total counter');
    expect(lines).toContain('pay_callback_attempts_total{outcome="delivered"} 3');
    expect(lines).toContain('pay_callback_attempts_total{outcome="retry"} 0');
    expect(lines).toContain('pay_callback_attempts_total{outcome="failed"} 1');
    expect(lines).toContain('# TYPE pay_callback_attempt_duration_seconds histogram');
    expect(lines).toContain('pay_callback_attempt_duration_seconds_bucket{le="0.05",outcome="delivered"} 2');
    expect(lines).toContain('pay_callback_attempt_duration_seconds_bucket{le="0.1",outcome="delivered"} 3');
    expect(lines).toContain('pay_callback_attempt_duration_seconds_bucket{le="10",outcome="failed"} 0');
    expect(lines).toContain('pay_callback_attempt_duration_seconds_bucket{le="+Inf",outcome="failed"} 1');
    expect(lines).toContain('pay_callback_attempt_duration_seconds_sum{outcome="delivered"} 0.18');
    expect(lines).toContain('pay_callback_attempt_duration_seconds_count{outcome="retry"} 0');
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('metricsText', () => {
  it("serves the database's callback outcomes with the process's own series, reading the database once per interval", async () => {
    const queryRawUnsafe = vi.fn(() =>
      Promise.resolve([{ outcome: 'delivered', count: 5, sum_ms: 100, buckets: [5, 5, 5, 5, 5, 5, 5, 5] }]),
    );
    const prisma = {
      transaction: {
        groupBy: () =>
          Promise.resolve([
            { state: 'AUTORIZADO', _count: { _all: 7 } },
            { state: 'REGISTRADO', _count: { _all: 1 } },
          ]),
      },
      // Attempts in flight: REGISTRADO beside the rows of the previous release.
      chargeClaim: { count: () => Promise.resolve(2) },
      refund: { groupBy: () => Promise.resolve([]) },
      $queryRawUnsafe: queryRawUnsafe,
      $queryRaw: (sql: TemplateStringsArray) =>
        Promise.resolve(
          sql.join('').includes('outbox_events')
            ? [{ destination: 'https://shop.example', pending: 12, in_flight: 4, oldest_seconds: 90.5 }]
            : [{ connector: 'sandbox-acquirer-a', method: 'CARD', outcome: 'approved', count: 3 }],
        ),
    } as unknown as Db;
    const [first, second] = await Promise.all([metricsText(prisma), metricsText(prisma)]);
    expect(first.body).toContain('pay_transactions{state="AUTORIZADO"} 7');
    expect(first.body).toContain('pay_transactions{state="REGISTRADO"} 3');
    expect(first.body).toContain('pay_http_requests_total');
    expect(first.body).toContain('\n\n# HELP pay_callback_attempts_total');
    expect(first.body).toContain('pay_callback_attempts_total{outcome="delivered"} 5');
    expect(first.body).toContain('pay_connector_attempts{connector="sandbox-acquirer-a",method="CARD",outcome="approved"} 3');
    expect(first.body).toContain('pay_callback_backlog_events{destination="https://shop.example"} 12');
    expect(first.body).toContain('pay_callback_in_flight{destination="https://shop.example"} 4');
    expect(first.body).toContain('pay_callback_backlog_oldest_seconds{destination="https://shop.example"} 90.5');
    expect(second.body).toContain('pay_callback_attempts_total{outcome="delivered"} 5');
    expect((await metricsText(prisma)).body).toContain('pay_callback_attempts_total{outcome="delivered"} 5');
    expect(queryRawUnsafe).toHaveBeenCalledTimes(1);
  });
});
