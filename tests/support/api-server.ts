import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { handleApiRequest } from '@/server/http/node-api';
import { openTestDatabase, SETUP_TIMEOUT, type TestDatabase } from './procedure-test-support';

/**
 * The API's Node entry (`handleApiRequest`, as server.js calls it) on a local port for the whole
 * file, over a fresh embedded database that the service's own handle (platform/db/client.ts)
 * resolves to. A request the API does not take is answered 418 where Next would answer, so a test
 * sees it was handed over, or, with `hold` in its query, left unanswered as a slow page would be
 * until its client goes. `port()` is known once the suite has started.
 */
export function apiServer(): { port: () => number } {
  let database: TestDatabase;
  let server: Server;
  let port = 0;
  const slot = globalThis as typeof globalThis & { __payDatabase?: Promise<unknown> };
  beforeAll(async () => {
    database = await openTestDatabase();
    slot.__payDatabase = Promise.resolve({ prisma: database.prisma, handle: { close: async () => {} }, appliedMigrations: [] });
    server = createServer((request, response) => {
      if (handleApiRequest(request, response) || /[?&]hold\b/.test(request.url ?? '')) return;
      response.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, SETUP_TIMEOUT);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    slot.__payDatabase = undefined;
    await database.close();
  });
  return { port: () => port };
}
