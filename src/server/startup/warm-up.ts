import { env } from '@/env';
import { openedDatabase } from '@/server/platform/db/client';
import { onEveryConnection } from '@/server/platform/db/every-connection';
import { logError, logInfo } from '@/server/platform/log';
import { selfCheckRequestId } from '@/server/platform/observability/self-checks';
import { warmHotStatements } from '@/server/startup/warm-statements';

// A fresh instance loads each route's code, compiles its schemas and opens its database paths on
// the first request that needs them; under load those first requests queue behind one another
// for hundreds of milliseconds (docs/BENCHMARKS.md, "fresh instance"). So the instance asks its
// hot paths itself before it says it is ready (/api/health): each request below is refused (no
// credential or a wrong one), so it changes nothing, and it still loads the route, its
// procedures and schemas, the token endpoint's credential lookup and the console's login page.
// Then every connection of the database's pool runs the statements of a charge, a transaction's
// read and a refund page, writing nothing. (Before any of this, at start, each connection has
// made a few charges and rolled them back: warm-charge.ts.)

type WarmUpRequest = { method: string; path: string; body?: string; headers?: Record<string, string> };

const warmUpRequests = (): WarmUpRequest[] => [
  { method: 'GET', path: '/api/openapi.json' },
  {
    method: 'POST',
    path: '/oauth/token',
    headers: { 'content-type': 'application/json' },
    // Well formed, for a client that does not exist: the credential lookup and the secret hash run.
    body: JSON.stringify({
      action: 'authorize',
      grant_type: 'client_credentials',
      audience: `${env().baseUrl}/`,
      client_id: 'warm-up',
      client_secret: 'warm-up',
      scope: 'post:charges',
    }),
  },
  {
    method: 'POST',
    path: '/api/charges',
    headers: { authorization: 'Bearer warm-up', 'content-type': 'application/json' },
    body: '{}',
  },
  {
    method: 'GET',
    path: '/api/charges/WARMUP/warm-up/00000000-0000-4000-8000-000000000000',
    headers: { authorization: 'Bearer warm-up' },
  },
  { method: 'DELETE', path: '/api/charges/WARMUP/warm-up', headers: { authorization: 'Bearer warm-up' } },
  { method: 'GET', path: '/api/refund?merchant_code=WARMUP', headers: { authorization: 'Bearer warm-up' } },
  { method: 'GET', path: '/login' },
];

/** How long the instance waits for its own port before it gives up warming and says it is ready anyway. */
const LISTEN_WAIT_MS = 60_000;
const ROUNDS = 3;

const slot = globalThis as typeof globalThis & { __payWarm?: { done: boolean } };

/** Whether the warm-up has finished (or given up); /api/health is not ready before. */
export function isWarm(): boolean {
  return slot.__payWarm?.done ?? true;
}

async function ask(origin: string, request: WarmUpRequest): Promise<boolean> {
  try {
    const response = await fetch(`${origin}${request.path}`, {
      method: request.method,
      headers: { ...request.headers, 'x-request-id': selfCheckRequestId() },
      body: request.body,
    });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/** Starts the warm-up in the background, once the server listens on its port. */
export function startWarmUp(): void {
  slot.__payWarm = { done: false };
  const origin = `http://127.0.0.1:${env().PORT}`;
  const started = performance.now();
  const requests = warmUpRequests();
  void (async () => {
    try {
      // The server starts listening only after instrumentation returns: wait for it.
      while (!(await ask(origin, requests[0]!))) {
        if (performance.now() - started > LISTEN_WAIT_MS) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // A few rounds, so the hottest code is past its first, slowest runs.
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const request of requests) await ask(origin, request);
      }
      const { prisma, handle } = await openedDatabase();
      await onEveryConnection(prisma, handle.connections, warmHotStatements);
      logInfo('warm-up done', { ms: Math.round(performance.now() - started) });
    } catch (error) {
      // A warm-up that fails leaves a slower start, not a service that never says it is ready.
      logError('warm-up failed', error);
    } finally {
      slot.__payWarm = { done: true };
    }
  })();
}
