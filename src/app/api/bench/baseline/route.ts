import { env } from '@/env';
import { handleRestRequest } from '@/server/api/rest/rest-handler';

export const dynamic = 'force-dynamic';

const BODY = JSON.stringify({ success: true, message: 'baseline' });

// The benchmark's baseline (npm run bench): a bare route handler with a fixed JSON body, so the
// API's figures are read as ratios to what Next itself costs on this machine in the same run.
// Off unless BENCH_ROUTES=true: then it is an unknown path like any other.
export function GET(request: Request): Response | Promise<Response> {
  if (!env().BENCH_ROUTES) return handleRestRequest(request);
  return new Response(BODY, { headers: { 'content-type': 'application/json' } });
}
