import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionRefused, listeningDescriptors, onNewConnection } from '@tests/support/listening-socket';
import { listeningCopies } from './listening-copies.mjs';

/** The processes this one started that still run (Linux /proc). */
const childrenOfThisProcess = () =>
  readdirSync('/proc/self/task').flatMap((task) =>
    readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );

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

  // While the child lives it listens too. Here this process is held busy from before the child
  // starts until a second after it listens, so the child accepts the connections that come
  // meanwhile: each must come back and be answered.
  it('answers the connections the copying child accepted', async () => {
    const { server, port, acceptedBy } = await httpServer();
    // Another process opens a connection every 20 ms, each with one request, until its input ends.
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const net = require('net'); const answers = []; let sent = 0, sending = true;
         const report = () => { if (!sending && answers.length === sent) console.log(JSON.stringify(answers)); };
         const tick = setInterval(() => {
           sent++;
           const socket = net.connect(${port}, 'localhost', () => socket.write('GET / HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n'));
           let answer = ''; socket.setEncoding('utf8'); socket.on('data', (chunk) => (answer += chunk));
           socket.on('close', () => { answers.push(answer.split('\\r\\n')[0]); report(); });
         }, 20);
         process.stdin.resume(); process.stdin.on('end', () => { sending = false; clearInterval(tick); report(); });`,
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let output = '';
    client.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const clientDone = new Promise((resolve) => client.once('exit', resolve));
    const copying = listeningCopies(server, 3);
    // Busy (the child was started and sent the server before listeningCopies first awaited): wait
    // for a child of this process to hold the socket, then a second more, 15 s at the most.
    const deadline = Date.now() + 15_000;
    let childListening = 0;
    while (!childListening && Date.now() < deadline) {
      childListening = childrenOfThisProcess().some((pid) => pid !== client.pid && listeningDescriptors(pid, port) > 0)
        ? Date.now()
        : 0;
    }
    while (Date.now() < childListening + 1000);
    open.push(...(await copying));
    client.stdin.end();
    await clientDone;

    expect(childListening).toBeGreaterThan(0);
    const answers = JSON.parse(output) as string[];
    expect(answers.length).toBeGreaterThan(0);
    expect(answers).toStrictEqual(answers.map(() => 'HTTP/1.1 200 OK'));
    // A connection the child passed back belongs to no server of this process.
    expect(acceptedBy.filter((listener) => !listener).length).toBeGreaterThan(0);
  }, 30_000);

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
