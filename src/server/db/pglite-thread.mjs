// The embedded database's own thread (docs/DECISIONS.md "PGlite off the request thread"):
// PGlite runs here, so its WebAssembly work does not stop the thread that serves requests.
// Plain JavaScript, started by pglite-proxy.ts (the build bundles it as a worker of its own; tests
// and scripts load this file). One message per call; transactions stay open here between
// messages, under PGlite's own lock.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const database = await PGlite.create(workerData.dataDir ? { dataDir: workerData.dataDir } : {});
const transactions = new Map();

/** Text as PostgreSQL sent it, for the types whose parsers run in the calling thread. */
function rawParsers(oids) {
  return Object.fromEntries(oids.map((oid) => [oid, (text) => text]));
}

function errorFields(error) {
  const fields = {
    message: error?.message ?? String(error),
    isDatabaseError: typeof error?.severity === 'string' && typeof error?.code === 'string',
  };
  for (const key of [
    'severity',
    'code',
    'detail',
    'hint',
    'position',
    'where',
    'schema',
    'table',
    'column',
    'dataType',
    'constraint',
    'routine',
  ]) {
    if (error?.[key] !== undefined) fields[key] = error[key];
  }
  return fields;
}

function beginTransaction(id) {
  return new Promise((started, failed) => {
    const finished = database
      .transaction(
        (tx) =>
          new Promise((end) => {
            transactions.set(id, { tx, end, finished });
            started();
          }),
      )
      .catch((error) => {
        transactions.delete(id);
        failed(error);
      });
  });
}

async function endTransaction(id, rollback) {
  const open = transactions.get(id);
  if (!open) throw new Error(`no open transaction ${id}`);
  transactions.delete(id);
  if (rollback) await open.tx.rollback();
  open.end();
  await open.finished;
}

async function handle(message) {
  if (message.op === 'begin') return beginTransaction(message.tx);
  if (message.op === 'commit' || message.op === 'rollback') return endTransaction(message.tx, message.op === 'rollback');
  const target = message.tx ? transactions.get(message.tx)?.tx : database;
  if (!target) throw new Error(`no open transaction ${message.tx}`);
  switch (message.op) {
    case 'query': {
      const result = await target.query(message.sql, message.params, {
        rowMode: message.rowMode,
        parsers: rawParsers(message.rawOids),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return (await target.exec(message.sql)).map((result) => ({ affectedRows: result.affectedRows }));
    case 'close':
      return database.close();
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

parentPort.on('message', (message) => {
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) => parentPort.postMessage({ id: message.id, error: errorFields(error) }),
  );
});
parentPort.postMessage({ ready: true });
