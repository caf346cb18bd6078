// The service's process: one Node HTTP server. The API's paths (the REST API, the token
// endpoint, JWKS, the OpenAPI document) go straight to the API's own handler, which lives in
// Next's server bundle and is published there at start (src/server/http/node-api.ts); every
// other path goes to Next (its documented custom server). `node server.js` serves the build;
// `node server.js --dev` runs Next's development server. PORT (3000) is the port.
import { createServer } from 'node:http';
import { listeningCopies } from './src/server/platform/http/listening-copies.mjs';
import { checkRuntime } from './src/server/platform/runtime.mjs';

checkRuntime('pay-service');

// The name `ps` and `top` show for the service's process (its request thread); the embedded
// database's thread has a name of its own (platform/db/pglite-proxy.ts).
process.title = 'pay-service';

const dev = process.argv.includes('--dev');
process.env.NODE_ENV ??= dev ? 'development' : 'production';
const { default: next } = await import('next');

const port = Number(process.env.PORT ?? 3000);
const API_HANDLER = Symbol.for('pay.api-handler');

// Requests that arrive while the service starts wait for it, as they did for `next start`.
let started;
const ready = new Promise((resolve) => (started = resolve));
let nextHandler;

// Next's answers being made: a stop waits for them, as for the API's, before the database closes.
const nextUnderWay = new Set();

function route(request, response) {
  // Looked up on every request: in development Next reloads the module that publishes it.
  if (globalThis[API_HANDLER].request(request, response, () => toNext(request, response))) return;
  toNext(request, response);
}

function toNext(request, response) {
  const answering = Promise.resolve(nextHandler(request, response))
    .catch(() => undefined)
    .finally(() => nextUnderWay.delete(answering));
  nextUnderWay.add(answering);
}

let draining = false;

const server = createServer((request, response) => {
  // While draining, a request that came on a kept-alive connection is answered, and its
  // connection closed after it (a client would otherwise keep the connection busy).
  if (draining) response.setHeader('connection', 'close');
  if (nextHandler) route(request, response);
  else void ready.then(() => route(request, response));
});
// CONNECT comes as a raw socket, never as a request: without this, Node drops the connection.
server.on('connect', (request, socket) => {
  // Node removed its error listener from this socket: a reset while the service starts is ignored.
  socket.on('error', () => socket.destroy());
  void ready.then(() => globalThis[API_HANDLER].connect(request, socket));
});
// Longer than the idle timeout of clients and balancers (undici 4 s, nginx 75 s upstream
// keep-alive is capped by this), so no request meets a connection the server is closing.
server.keepAliveTimeout = 70_000;

// A stop (SIGTERM or SIGINT: a deploy, a scale-in) drains before the database closes
// (src/server/startup/startup.ts): no new connection is accepted, the requests under way are
// answered, and each connection is closed once it is idle, so a charge in flight is answered
// rather than cut between its claim and its outcome. Once every connection is closed the drain
// still waits for the answers being made: a client that hung up closed its connection, not its
// charge. After `graceMs` every socket still open is destroyed, upgraded ones included (Node's
// closeAllConnections leaves those), and the drain ends.
const sockets = new Set();
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
});
globalThis[Symbol.for('pay.http-drain')] = (graceMs) =>
  new Promise((resolve) => {
    draining = true;
    const idle = setInterval(() => server.closeIdleConnections(), 25);
    let cut;
    const done = () => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve(undefined);
    };
    cut = setTimeout(() => {
      for (const socket of sockets) socket.destroy();
      done();
    }, graceMs);
    // Every descriptor of the listening socket is closed, or the port would still take connections.
    const closed = [server, ...acceptors].map((listener) => new Promise((settle) => listener.close(() => settle())));
    void Promise.all(closed).then(() => {
      void Promise.all([globalThis[API_HANDLER]?.answered(), ...nextUnderWay]).then(done);
    });
  });

// The port first: a port already taken ends the process before it touches the database.
await new Promise((resolve) => {
  server.once('error', (error) => {
    console.error(`cannot listen on port ${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, () => resolve(undefined));
});
// More descriptors of the port's socket, so that a burst of new connections is accepted several
// per turn of the event loop (LISTEN_DESCRIPTORS, src/env.ts).
const acceptors = await listeningCopies(server, Number(process.env.LISTEN_DESCRIPTORS ?? 16) - 1);

// Next's websocket upgrades (hot reloading in development) are taken on this server.
const app = next({ dev, hostname: 'localhost', port, httpServer: server });
const handler = app.getRequestHandler();
await app.prepare();

// Next runs src/instrumentation.ts (migrations, keys, the worker) on the first request it serves,
// not in prepare(): one liveness request on a private port makes that happen, and loading that
// route publishes the API handler (src/app/api/health).
const boot = createServer(handler);
await new Promise((resolve) => boot.listen(0, '127.0.0.1', () => resolve(undefined)));
await fetch(`http://127.0.0.1:${boot.address().port}/api/health?probe=live`);
boot.close();
boot.closeAllConnections();

if (typeof globalThis[API_HANDLER]?.request !== 'function') {
  console.error('the API handler was not published: the service did not start');
  process.exit(1);
}
nextHandler = handler;
started();
console.log(`  ▲ listening on http://localhost:${port}${dev ? ' (development)' : ''}`);
