// More descriptors of one listening socket (docs/DECISIONS.md, "new connections"). Node's libuv
// accepts one connection per descriptor per turn of the event loop (since libuv 1.45, "don't
// accept() connections in a loop"; Node 24's libuv 1.52 still does). A saturated service's turns
// last 15-150 ms, so a burst of new connections queued in the kernel for seconds before one
// request of theirs was read, refusals included. Each descriptor is polled on its own, so each copy takes one more per turn.
// Plain JavaScript: server.js loads it before anything is built.
import { spawn } from 'node:child_process';

// Node duplicates a descriptor only by passing it over IPC: a short-lived child process receives
// the server and sends it back once per copy. A connection the child accepts meanwhile comes back
// unread (pauseOnConnect), as in Node's documented example of sending a socket.
const COPIER = `process.once('message', ({ copies }, server) => {
  server.pauseOnConnect = true;
  server.on('connection', (socket) => process.send('connection', socket));
  let sent = 0;
  const copy = () => (sent++ < copies ? process.send('copy', server, copy) : server.close(() => process.disconnect()));
  copy();
});`;

// What net.Server's constructor took from the HTTP server's options and applies to each connection
// it accepts (Nagle off, half-open connections kept, buffer sizes): a copy is made with Node's
// defaults, which would accept connections the HTTP server treats differently.
const CONNECTION_OPTIONS = ['allowHalfOpen', 'noDelay', 'keepAlive', 'keepAliveInitialDelay', 'highWaterMark'];

/**
 * `count` listening copies of `listener`'s socket, each handing its connections to `listener`
 * (its 'connection' event, documented for injecting connections into an HTTP server). Close them
 * with the listener: the port stays open while any descriptor of it does.
 * @param {import('node:net').Server} listener a server already listening
 * @param {number} count
 * @returns {Promise<import('node:net').Server[]>}
 */
export async function listeningCopies(listener, count) {
  const copies = [];
  if (!(count > 0)) return copies;
  const hand = (socket) => listener.emit('connection', socket);
  const child = spawn(process.execPath, ['-e', COPIER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  child.on('message', (kind, handle) => {
    if (kind === 'connection') {
      handle.allowHalfOpen = listener.allowHalfOpen;
      handle.setNoDelay(listener.noDelay);
      if (listener.keepAlive) handle.setKeepAlive(true, listener.keepAliveInitialDelay * 1000);
      return hand(handle);
    }
    for (const option of CONNECTION_OPTIONS) handle[option] = listener[option];
    handle.on('connection', hand);
    handle.on('error', (error) => console.error(`a copy of the listening socket failed: ${error.message}`));
    copies.push(handle);
  });
  child.send({ copies: count }, listener);
  await new Promise((resolve) => {
    // Bounded: a child that never ends leaves the service with the copies it made, not unstarted.
    const late = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => resolve(clearTimeout(late)));
    child.once('error', (error) => {
      console.error(`the listening socket was not copied: ${error.message}`);
      resolve(clearTimeout(late));
    });
  });
  if (copies.length < count) console.error(`${copies.length} of ${count} copies of the listening socket made`);
  return copies;
}
