import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { health } from './health';
import { metrics } from './metrics';
import { observed } from './observe-route';
import { selfCheckRequestId } from './self-checks';

afterEach(() => vi.restoreAllMocks());

describe('observed', () => {
  it('logs one JSON line with the request id, route, method, status and time, and counts the request', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const before = (await metrics().requests.get()).values.find(
      (value) => value.labels.route === 'unit' && value.labels.status === '409',
    )?.value;
    const handler = observed('unit', () => Response.json({}, { status: 409, headers: { 'x-request-id': 'req-123' } }));
    const response = await handler(new Request('http://localhost/api/charges/X/1', { method: 'DELETE' }));
    expect(response.status).toBe(409);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'info',
      message: 'request',
      requestId: 'req-123',
      route: 'unit',
      method: 'DELETE',
      status: 409,
    });
    expect(typeof line.ms).toBe('number');
    expect(Object.keys(line).sort()).toStrictEqual(['level', 'message', 'method', 'ms', 'requestId', 'route', 'status', 'time']);
    const after = (await metrics().requests.get()).values.find(
      (value) => value.labels.route === 'unit' && value.labels.status === '409',
    )?.value;
    expect(after).toBe((before ?? 0) + 1);
  });

  it("writes no line for a health probe or the instance's own start-up requests, and still counts them", async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const count = async (route: string) =>
      (await metrics().requests.get()).values.find((value) => value.labels.route === route && value.labels.status === '503')
        ?.value ?? 0;
    const [probes, selfChecks] = [await count('health'), await count('self')];
    await observed('health', () => Response.json({}, { status: 503 }))(new Request('http://localhost/api/health'));
    const own = { 'x-request-id': selfCheckRequestId() };
    await observed('self', () => Response.json({}, { status: 503, headers: own }))(new Request('http://localhost/api/charges'));
    expect(lines).toStrictEqual([]);
    expect([await count('health'), await count('self')]).toStrictEqual([probes + 1, selfChecks + 1]);
    // Anyone else's request with a request id of that form is logged.
    const other = { 'x-request-id': 'self-check-00000000-0000-4000-8000-000000000000' };
    await observed('self', () => Response.json({}, { status: 503, headers: other }))(new Request('http://localhost/api/charges'));
    expect(lines).toHaveLength(1);
  });
});

describe('health', () => {
  it('is ok when the database answers', async () => {
    const prisma = { $queryRaw: () => Promise.resolve([{ '?column?': 1 }]) } as unknown as Db;
    const result = await health(
      () => Promise.resolve(prisma),
      () => true,
    );
    expect(result.status).toBe('ok');
    expect(result.checks).toMatchObject({ database: { status: 'ok' }, warm_up: { status: 'ok' } });
  });

  it('is unavailable while the instance warms up, the database answering', async () => {
    const prisma = { $queryRaw: () => Promise.resolve([{ '?column?': 1 }]) } as unknown as Db;
    const result = await health(
      () => Promise.resolve(prisma),
      () => false,
    );
    expect(result.status).toBe('unavailable');
    expect(result.checks).toMatchObject({ database: { status: 'ok' }, warm_up: { status: 'pending' } });
  });

  it('is unavailable when the database fails or cannot be opened', async () => {
    const failing = { $queryRaw: () => Promise.reject(new Error('connection refused')) } as unknown as Db;
    expect(
      (
        await health(
          () => Promise.resolve(failing),
          () => true,
        )
      ).status,
    ).toBe('unavailable');
    expect(
      (
        await health(
          () => Promise.reject(new Error('no database')),
          () => true,
        )
      ).checks.database.status,
    ).toBe('unavailable');
  });
});
