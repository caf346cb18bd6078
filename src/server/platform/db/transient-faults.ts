// Database faults that say "not now" rather than "never": the connection refused, lost or timed
// out, the server shutting down or starting (a restart, a failover), too many connections, a
// serialization failure or a deadlock. A request that meets one is answered 503 `02` with
// Retry-After (or retried inside where replaying it is safe), never 500: the client can tell an
// outage from a bug, and retry with the same Idempotency-Key.

/** Prisma's codes for them (P1001 unreachable, P1002/P1008 timeouts, P1017 closed, P2024 pool wait, P2034 write conflict, P2037 too many connections). */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034', 'P2037']);
/** SQLSTATE: class 08 (connection exception), 57P01-57P03 (shutdown, crash, starting), 53300 (too many connections), 40001 and 40P01. */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300|40001|40P01)$/;
/** The driver adapter's kinds for the same faults. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionWriteConflict',
]);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
/** node-postgres's own messages, which carry no code. */
const DRIVER_MESSAGES =
  /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection closed|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode)/i;

type Fault = {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
};

/** Whether `error`, or any error it wraps, is a transient fault of the database. */
export function isTransientDatabaseFault(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 6) return false;
  const fault = error as Fault;
  for (const code of [fault.code, fault.originalCode]) {
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  }
  if (typeof fault.kind === 'string' && ADAPTER_KINDS.has(fault.kind)) return true;
  if (typeof fault.message === 'string' && DRIVER_MESSAGES.test(fault.message)) return true;
  return (
    isTransientDatabaseFault(fault.meta?.driverAdapterError?.cause, depth + 1) || isTransientDatabaseFault(fault.cause, depth + 1)
  );
}

/** Pauses before the retries of a read that met a transient fault (then 503: the client retries later). */
export const READ_RETRY_DELAYS_MS = [100, 400] as const;

/** Pauses of a write that must land once its work is done (about 6 s in all: a restart or a failover). */
const PERSIST_RETRY_DELAYS_MS = [100, 200, 400, 800, 1600, 3200] as const;

/** Runs `write`, again after each pause while the database is briefly away; other faults at once. */
export async function persistently<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const pause = PERSIST_RETRY_DELAYS_MS[attempt];
      if (pause === undefined || !isTransientDatabaseFault(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
