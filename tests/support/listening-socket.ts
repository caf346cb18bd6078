import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';

// A service's listening socket seen from outside: how many descriptors a process holds of it, and
// whether its port takes a connection (Linux /proc).

/** How many of process `pid`'s descriptors are the socket listening on `port`. */
export function listeningDescriptors(pid: number | 'self', port: number): number {
  const local = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address, state 0A (LISTEN), inode
      if (fields[1]?.endsWith(local) && fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    try {
      return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
    } catch {
      return false; // closed meanwhile
    }
  }).length;
}

/**
 * One HTTP/1.1 GET on a connection of its own (`Connection: close`); resolves with the status line.
 * Not half-closed after the request: Node's HTTP server takes a client's end as the request's
 * abort, so an answer that is not ready at once would be lost.
 */
export function onNewConnection(port: number, path = '/'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, 'localhost', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer.split('\r\n')[0]!));
    socket.on('error', reject);
  });
}

/** Whether a TCP connection to `port` is refused now. */
export const connectionRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, 'localhost', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
