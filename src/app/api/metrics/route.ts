import { timingSafeEqual } from 'node:crypto';
import { env } from '@/env';
import { db } from '@/server/platform/db/client';
import { metricsText } from '@/server/http/metrics';

export const dynamic = 'force-dynamic';

function allowed(authorization: string | null): boolean {
  const token = env().METRICS_TOKEN;
  if (!token) return env().NODE_ENV !== 'production';
  const expected = Buffer.from(`Bearer ${token}`);
  const sent = Buffer.from(authorization ?? '');
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

// GET /api/metrics: Prometheus text format (see src/server/platform/observability/metrics.ts).
export async function GET(request: Request): Promise<Response> {
  if (!allowed(request.headers.get('authorization'))) {
    return new Response('metrics need Authorization: Bearer <METRICS_TOKEN>\n', {
      status: 401,
      headers: { 'www-authenticate': 'Bearer', 'cache-control': 'no-store' },
    });
  }
  const { contentType, body } = await metricsText(await db());
  return new Response(body, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
}
