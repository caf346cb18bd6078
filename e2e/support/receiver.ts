import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A merchant's callback endpoint on loopback: records every request with its raw body and
// headers, and answers as the test script says (status per attempt, or never).
export type ReceivedCallback = {
  path: string;
  body: string;
  json: Record<string, unknown>;
  signature: string;
  /** The `signature-key-id` header: which published key signed it. */
  keyId: string;
  /** `x-event-id` of a callback, `webhook-id` of a webhook endpoint's delivery. */
  eventId: string;
  /** Every header as received (lower-case names). */
  headers: Record<string, string>;
  at: number;
};

export type Receiver = {
  url: (path?: string) => string;
  received: ReceivedCallback[];
  /** Status to answer for the n-th request to a path (1-based); 'hang' never answers. */
  respond: (path: string, plan: (attempt: number) => number | 'hang') => void;
  waitFor: (predicate: (callbacks: ReceivedCallback[]) => boolean, timeoutMs?: number) => Promise<ReceivedCallback[]>;
  close: () => Promise<void>;
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedCallback[] = [];
  const plans = new Map<string, (attempt: number) => number | 'hang'>();
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = (request.url ?? '/').split('?')[0]!;
      const attempt = (counts.get(path) ?? 0) + 1;
      counts.set(path, attempt);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as received; the test decides
      }
      received.push({
        path,
        body,
        json,
        signature: String(request.headers.signature ?? ''),
        keyId: String(request.headers['signature-key-id'] ?? ''),
        eventId: String(request.headers['x-event-id'] ?? request.headers['webhook-id'] ?? ''),
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
        at: Date.now(),
      });
      const answer = plans.get(path)?.(attempt) ?? 200;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    respond: (path, plan) => plans.set(path, plan),
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (predicate(received)) return received;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(
        `callbacks not received in ${timeoutMs} ms; got ${received.map((item) => String(item.json.event_type)).join(', ')}`,
      );
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
