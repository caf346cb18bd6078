import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomInt } from 'node:crypto';

// What every processor simulator shares (tests/simulators/README.md): one plain node:http listener
// on loopback per host of the processor (a request on the wrong host is one the processor never
// answers), the modes a test sets per account (normal, outage, slow, errors, rate_limited), a
// log of whole requests (host, method, path, headers, body: the connector battery asserts where
// card data went; the log lives in the test's memory only), and the control API under
// /__simulator/ of every listener. Each processor's module answers its own API's paths with its
// own documented bodies.

export const SIMULATOR_MODES = ['normal', 'outage', 'slow', 'errors', 'rate_limited'] as const;
export type SimulatorMode = (typeof SIMULATOR_MODES)[number];

/** How one account (or, without a key, every account) behaves. */
export type ModeSetting = { mode: SimulatorMode; delayMs: number };

export type RecordedRequest = {
  /** The listener (the processor's host) it reached: `api` for a processor of one host. */
  host: string;
  method: string;
  path: string;
  /** The query string, without its `?`. */
  query: string;
  /** Every header as sent. */
  headers: Record<string, string>;
  /** The raw body ('' when none). */
  body: string;
  /** The credential the request carried, cut to its first 12 characters (`sk_test_abcd`). */
  credential: string | null;
  idempotencyKey: string | null;
  at: number;
};

export type SimRequest = {
  /** The listener it reached (`api` for a processor of one host). */
  host: string;
  method: string;
  /** The path without its query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The raw body ('' when none). */
  body: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
};

export type SimReply = { status: number; body?: unknown; headers?: Record<string, string>; html?: string };

export type SimulatorCore = {
  /** The first listener's origin. */
  url: string;
  /** Each listener's origin by its host name. */
  urls: Record<string, string>;
  requests: RecordedRequest[];
  modeFor(key: string | null): ModeSetting;
  setMode(mode: SimulatorMode, options?: { key?: string; delayMs?: number }): void;
  close(): Promise<void>;
};

export type SimulatorHandlers = {
  /** The credential a request carries (the secret key, access token or public key), for modes and the log. */
  credentialOf(request: SimRequest): string | null;
  /**
   * Optional: the key an account's mode is kept under, for processors whose accounts carry more
   * than one credential (a public and a secret key), so a mode set for either holds for both.
   */
  modeKeyOf?(credential: string): string;
  /** Answers the processor's API; null for a path it does not know (404). */
  handle(request: SimRequest): Promise<SimReply | null>;
  /** The processor's error body for `errors` (a 5xx) and `rate_limited` (429). */
  faultReply(mode: 'errors' | 'rate_limited'): SimReply;
  /** The processor's own control endpoints (/__simulator/<path>); null when unknown. */
  control(request: SimRequest): Promise<SimReply | null>;
  reset(): void;
};

const DEFAULT_SLOW_MS = 15_000;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseJson(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, reply: SimReply): void {
  if (response.destroyed) return;
  const headers = { ...reply.headers };
  if (reply.html !== undefined) {
    response.writeHead(reply.status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(reply.html);
    return;
  }
  if (reply.body === undefined) {
    response.writeHead(reply.status, headers).end();
    return;
  }
  response
    .writeHead(reply.status, { 'content-type': 'application/json;charset=UTF-8', ...headers })
    .end(JSON.stringify(reply.body));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a simulator on 127.0.0.1, one listener per host (default one, `api`, on `port`; 0: any
 * free port). Requests to /__simulator/ are
 * the control API: `POST mode {mode, key?, delay_ms?}`, `GET requests`, `POST reset`, then the
 * processor's own. Everything else is the processor's API, under the mode of its credential:
 * `outage` resets the connection without an answer; `slow` does the work and answers after
 * `delay_ms` (default 15 s); `errors` and `rate_limited` answer the processor's fault without
 * doing anything.
 */
export async function startSimulator(
  handlers: SimulatorHandlers,
  options: { port?: number; hosts?: { name: string; port?: number }[] } = {},
): Promise<SimulatorCore> {
  const requests: RecordedRequest[] = [];
  const modes = new Map<string, ModeSetting>();
  let defaultMode: ModeSetting = { mode: 'normal', delayMs: DEFAULT_SLOW_MS };
  const sockets = new Set<Socket>();

  const modeKey = (key: string): string => handlers.modeKeyOf?.(key) ?? key;
  const modeFor = (key: string | null): ModeSetting =>
    (key !== null ? (modes.get(key) ?? modes.get(modeKey(key))) : undefined) ?? defaultMode;
  const setMode: SimulatorCore['setMode'] = (mode, { key, delayMs } = {}) => {
    if (!SIMULATOR_MODES.includes(mode)) throw new Error(`unknown mode ${String(mode)}`);
    const setting = { mode, delayMs: delayMs ?? DEFAULT_SLOW_MS };
    if (key === undefined) {
      modes.clear();
      defaultMode = setting;
    } else modes.set(modeKey(key), setting);
  };

  async function control(request: SimRequest): Promise<SimReply> {
    const action = request.path.slice('/__simulator/'.length);
    const body = (request.json ?? {}) as { mode?: SimulatorMode; key?: string; delay_ms?: number };
    if (request.method === 'POST' && action === 'mode') {
      if (!body.mode || !SIMULATOR_MODES.includes(body.mode)) {
        return { status: 400, body: { error: `mode must be one of ${SIMULATOR_MODES.join(', ')}` } };
      }
      setMode(body.mode, { ...(body.key ? { key: body.key } : {}), ...(body.delay_ms ? { delayMs: body.delay_ms } : {}) });
      return { status: 200, body: { mode: body.mode } };
    }
    if (request.method === 'GET' && action === 'requests') return { status: 200, body: requests };
    if (request.method === 'POST' && action === 'reset') {
      requests.length = 0;
      modes.clear();
      defaultMode = { mode: 'normal', delayMs: DEFAULT_SLOW_MS };
      handlers.reset();
      return { status: 200, body: { reset: true } };
    }
    return (await handlers.control(request)) ?? { status: 404, body: { error: 'unknown control path' } };
  }

  const listen = (host: string) => (incoming: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const url = new URL(incoming.url ?? '/', 'http://simulator');
      const raw = await readBody(incoming);
      const request: SimRequest = {
        host,
        method: incoming.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: raw,
        json: parseJson(raw),
      };
      if (request.path.startsWith('/__simulator/')) {
        send(response, await control(request));
        return;
      }
      const credential = handlers.credentialOf(request);
      const idempotency = incoming.headers['x-idempotency-key'];
      requests.push({
        host,
        method: request.method,
        path: request.path,
        query: url.search.slice(1),
        headers: Object.fromEntries(
          Object.entries(incoming.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(', ') : (value ?? ''),
          ]),
        ),
        body: raw,
        credential: credential?.slice(0, 12) ?? null,
        idempotencyKey: typeof idempotency === 'string' ? idempotency : null,
        at: Date.now(),
      });
      const { mode, delayMs } = modeFor(credential);
      if (mode === 'outage') {
        incoming.socket.destroy();
        return;
      }
      if (mode === 'errors' || mode === 'rate_limited') {
        send(response, handlers.faultReply(mode));
        return;
      }
      const reply = (await handlers.handle(request)) ?? { status: 404, body: { message: 'not found' } };
      if (mode === 'slow') await sleep(delayMs);
      send(response, reply);
    })().catch((error: unknown) => {
      send(response, {
        status: 500,
        body: { message: `simulator fault: ${error instanceof Error ? error.message : 'unknown'}` },
      });
    });
  };
  const servers: Server[] = [];
  const urls: Record<string, string> = {};
  for (const { name, port } of options.hosts ?? [{ name: 'api', port: options.port }]) {
    const server = createServer(listen(name));
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port ?? 0, '127.0.0.1', resolve);
    });
    servers.push(server);
    urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  return {
    url: Object.values(urls)[0]!,
    urls,
    requests,
    modeFor,
    setMode,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}

/** A notification's POST to a receiver: the status it answered, or 0 when nothing answered. */
export async function postNotification(url: string, body: string, headers: Record<string, string>): Promise<number> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** Random letters and digits, as processors' ids use them. */
export function alphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let value = '';
  for (let index = 0; index < length; index += 1) value += alphabet[randomInt(alphabet.length)];
  return value;
}
