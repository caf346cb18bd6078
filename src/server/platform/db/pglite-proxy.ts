import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { messages, type PGlite } from '@electric-sql/pglite';
import { databaseQueue } from './database-queue';

// The calling side of pglite-thread.mjs: the part of PGlite's interface the Prisma adapter and
// the migrations use (query, exec, transaction), each call a message to the database's thread.

type Parser = (text: string, typeId: number) => unknown;
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, Parser> };
type Field = { name: string; dataTypeID: number };
type QueryResult = { rows: unknown[]; fields: Field[]; affectedRows?: number };
type ErrorFields = Record<string, unknown> & { message: string; isDatabaseError: boolean };
/** `startedAt`: when the thread began to run it, on the shared clock (database-queue.ts). */
type Reply = { id: number; result?: unknown; error?: ErrorFields; startedAt?: number };

export type PgliteThread = {
  client: PGlite;
  close(): Promise<void>;
};

const THREAD_FILE = join(process.cwd(), 'src/server/platform/db/pglite-thread.mjs');
/** The database thread's name as the system shows it (`ps -L`, /proc/<pid>/task/<tid>/comm); the benchmark tells its CPU time by it. */
export const DATABASE_THREAD_NAME = 'pglite';

function toError(fields: ErrorFields): Error {
  const { message, isDatabaseError, ...rest } = fields;
  const error = isDatabaseError ? new messages.DatabaseError(message, 0, 'error') : new Error(message);
  return Object.assign(error, rest);
}

/** Applies in this thread the parsers the thread left as text (functions cannot cross). */
function parsed(result: QueryResult, parsers: Record<number, Parser> | undefined, rowMode: string | undefined): QueryResult {
  if (!parsers) return result;
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows as Record<string | number, unknown>[]) {
      const key = rowMode === 'array' ? index : field.name;
      if (row[key] !== null && row[key] !== undefined) row[key] = parse(row[key] as string, field.dataTypeID);
    }
  });
  return result;
}

export async function startPgliteThread(dataDir: string | undefined, template?: string): Promise<PgliteThread> {
  const worker = new Worker(THREAD_FILE, { name: DATABASE_THREAD_NAME, workerData: { dataDir, template } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; token: number }>();
  const queue = databaseQueue();
  let nextId = 1;
  let failure: Error | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve());
  });
  await ready;
  worker.on('message', (reply: Reply) => {
    const call = pending.get(reply.id);
    if (!call) return;
    pending.delete(reply.id);
    queue.started(call.token, reply.startedAt);
    if (reply.error) call.reject(toError(reply.error));
    else call.resolve(reply.result);
  });
  worker.on('error', (error: Error) => {
    failure = error;
    for (const call of pending.values()) {
      queue.started(call.token);
      call.reject(error);
    }
    pending.clear();
  });

  const send = <T>(message: Record<string, unknown>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const token = queue.enqueued();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, token });
      worker.postMessage({ ...message, id });
    });
  };

  const queryable = (tx: number | undefined) => ({
    async query(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
      const rawOids = Object.keys(options.parsers ?? {}).map(Number);
      const result = await send<QueryResult>({ op: 'query', tx, sql, params, rowMode: options.rowMode, rawOids });
      return parsed(result, options.parsers, options.rowMode);
    },
    exec: (sql: string) => send<{ affectedRows?: number }[]>({ op: 'exec', tx, sql }),
  });

  let nextTransaction = 1;
  const client = {
    ...queryable(undefined),
    async transaction<T>(work: (tx: unknown) => Promise<T>): Promise<T> {
      const tx = nextTransaction++;
      await send({ op: 'begin', tx });
      let ended = false;
      const handle = {
        ...queryable(tx),
        async rollback() {
          ended = true;
          await send({ op: 'rollback', tx });
        },
      };
      try {
        const result = await work(handle);
        if (!ended) await send({ op: 'commit', tx });
        return result;
      } catch (error) {
        if (!ended) await send({ op: 'rollback', tx });
        throw error;
      }
    },
  };

  return {
    client: client as unknown as PGlite,
    async close() {
      await send({ op: 'close' });
      await worker.terminate();
    },
  };
}
