export const dynamic = 'force-dynamic';

const BODY = JSON.stringify({ success: true, message: 'baseline' });

// The benchmark's baseline (npm run bench): a bare Next route handler with a fixed JSON body, so
// the API's figures are read as ratios to what Next itself costs on this machine in the same run.
// Next serves this path only when BENCH_ROUTES=true (src/server/http/api-routes.ts); otherwise it
// is an unknown API path like any other.
export function GET(): Response {
  return new Response(BODY, { headers: { 'content-type': 'application/json' } });
}
