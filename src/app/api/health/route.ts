import { db } from '@/server/platform/db/client';
import { health } from '@/server/platform/observability/health';
import { isWarm } from '@/server/startup/warm-up';
import { observed } from '@/server/platform/observability/observe-route';
import { publishApiHandler } from '@/server/http/node-api';

export const dynamic = 'force-dynamic';

// The API's own HTTP path must run with the module instances of Next's route handlers (the
// instrumentation hook's bundle has its own copies: caches it updated would never reach the
// API). server.js's first request is to this route, after the service has started: loading it
// hands the handler over.
publishApiHandler();

// GET /api/health: liveness (?probe=live answers without touching the database) and readiness
// (503 while the instance warms up or the database does not answer).
export const GET = observed('health', async (request) => {
  const headers = { 'cache-control': 'no-store' };
  if (new URL(request.url).searchParams.get('probe') === 'live') {
    return Response.json({ status: 'ok', uptime_seconds: Math.round(process.uptime()) }, { headers });
  }
  const result = await health(db, isWarm);
  return Response.json(result, { status: result.status === 'ok' ? 200 : 503, headers });
});
