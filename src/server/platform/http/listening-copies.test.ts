import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listeningCopies } from './listening-copies.mjs';

/** How many of this process's descriptors are the socket listening on `port` (Linux /proc). */
function listeningDescriptors(port: number): number {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(local) && fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false;
    }
  }).length;
}

/** A request on a connection of its own, whose client then half-closes it; resolves with the status line. */
function halfClosedRequest(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

const close = (listener: Server) => new Promise<void>((resolve) => listener.close(() => resolve()));

let open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.filter((listener) => listener.listening).map(close));
  open = [];
});

/** An HTTP server listening on a free port, which records the listener that accepted each connection. */
async function httpServer(): Promise<{ server: HttpServer; port: number; acceptedBy: Server[] }> {
  const acceptedBy: Server[] = [];
  const server = createServer((request, response) => response.end('ok'));
  server.keepAliveTimeout = 1;
  // Before the HTTP server's own listener, which sets `socket.server` to itself.
  server.prependListener('connection', (socket: Socket & { server: Server }) => acceptedBy.push(socket.server));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(server);
  return { server, port: (server.address() as AddressInfo).port, acceptedBy };
}

describe('listeningCopies', () => {
  it('gives the socket more descriptors, each accepting with the HTTP server’s connection options', async () => {
    const { server, port } = await httpServer();
    const copies = await listeningCopies(server, 15);
    open.push(...copies);

    expect(copies).toHaveLength(15);
    expect(listeningDescriptors(port)).toBe(16);
    const options = (listener: Server) => {
      const { allowHalfOpen, noDelay, keepAlive, keepAliveInitialDelay, highWaterMark } = listener as Server &
        Record<string, unknown>;
      return { allowHalfOpen, noDelay, keepAlive, keepAliveInitialDelay, highWaterMark };
    };
    // Nagle off and half-open connections kept, as the HTTP server's own descriptor accepts them.
    expect(options(server)).toMatchObject({ allowHalfOpen: true, noDelay: true });
    for (const copy of copies) expect(options(copy)).toStrictEqual(options(server));
  });

  it('hands every connection to the one HTTP server, whichever descriptor accepts it', async () => {
    const { server, port, acceptedBy } = await httpServer();
    open.push(...(await listeningCopies(server, 15)));

    // Queued in the kernel at once, they are accepted by every descriptor in the same turns.
    const answers = await Promise.all(Array.from({ length: 64 }, () => halfClosedRequest(port)));

    expect(answers).toStrictEqual(Array.from({ length: 64 }, () => 'HTTP/1.1 200 OK'));
    expect(acceptedBy).toHaveLength(64);
    expect(new Set(acceptedBy).size).toBeGreaterThan(1);
  });

  it('keeps the port open until every descriptor is closed', async () => {
    const { server, port } = await httpServer();
    const copies = await listeningCopies(server, 3);

    await close(server);
    expect(await connectionRefused(port)).toBe(false);
    expect(await halfClosedRequest(port)).toBe('HTTP/1.1 200 OK');
    await Promise.all(copies.map(close));
    expect(await connectionRefused(port)).toBe(true);
  });

  it('makes no copy for a count under one', async () => {
    const { server, port } = await httpServer();
    expect(await listeningCopies(server, 0)).toStrictEqual([]);
    expect(listeningDescriptors(port)).toBe(1);
  });
});
