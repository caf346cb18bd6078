import { spawn } from 'node:child_process';
import { createServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionRefused, listeningDescriptors, onNewConnection } from '@tests/support/listening-socket';
import { listeningCopies } from './listening-copies.mjs';

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
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  open.push(server);
  return { server, port: (server.address() as AddressInfo).port, acceptedBy };
}

describe('listeningCopies', () => {
  it('gives the socket more descriptors, each accepting with the HTTP server’s connection options', async () => {
    const { server, port } = await httpServer();
    const copies = await listeningCopies(server, 15);
    open.push(...copies);

    expect(copies).toHaveLength(15);
    expect(listeningDescriptors('self', port)).toBe(16);
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
    const answers = await Promise.all(Array.from({ length: 64 }, () => onNewConnection(port)));

    expect(answers).toStrictEqual(Array.from({ length: 64 }, () => 'HTTP/1.1 200 OK'));
    expect(acceptedBy).toHaveLength(64);
    expect(new Set(acceptedBy).size).toBeGreaterThan(1);
  });

  // While the child lives it listens too. Here this process is held busy while the child starts,
  // so the child accepts the connections that come meanwhile: each must come back and be answered.
  it('answers the connections the copying child accepted', async () => {
    const { server, port, acceptedBy } = await httpServer();
    // Another process opens a connection every 20 ms for 3 s, each with one request.
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const net = require('net'); const answers = []; let sent = 0;
         const tick = setInterval(() => {
           if (++sent === 150) clearInterval(tick);
           const socket = net.connect(${port}, 'localhost', () => socket.write('GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n'));
           let answer = ''; socket.setEncoding('utf8'); socket.on('data', (chunk) => (answer += chunk));
           socket.on('close', () => { answers.push(answer.split('\\r\\n')[0]); if (answers.length === 150) console.log(JSON.stringify(answers)); });
         }, 20);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    client.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const clientDone = new Promise((resolve) => client.once('exit', resolve));
    const copying = listeningCopies(server, 3);
    const until = Date.now() + 2000;
    while (Date.now() < until); // busy: the child, started and sent the server, accepts alone
    open.push(...(await copying));
    await clientDone;

    expect(JSON.parse(output)).toStrictEqual(Array.from({ length: 150 }, () => 'HTTP/1.1 200 OK'));
    // A connection the child passed back belongs to no server of this process.
    expect(acceptedBy.filter((listener) => !listener).length).toBeGreaterThan(0);
  }, 20_000);

  it('keeps the port open until every descriptor is closed', async () => {
    const { server, port } = await httpServer();
    const copies = await listeningCopies(server, 3);

    await close(server);
    expect(await connectionRefused(port)).toBe(false);
    expect(await onNewConnection(port)).toBe('HTTP/1.1 200 OK');
    await Promise.all(copies.map(close));
    expect(await connectionRefused(port)).toBe(true);
  });

  it('makes no copy for a count under one', async () => {
    const { server, port } = await httpServer();
    expect(await listeningCopies(server, 0)).toStrictEqual([]);
    expect(listeningDescriptors('self', port)).toBe(1);
  });
});
