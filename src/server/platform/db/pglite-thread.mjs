// The embedded database's own thread (docs/DECISIONS.md "PGlite off the request thread"):
// PGlite runs here, so its WebAssembly work does not stop the thread that serves requests.
// Plain JavaScript, started by pglite-proxy.ts (the build bundles it as a worker of its own; tests
// and scripts load this file). One message per call; transactions stay open here between
// messages, under PGlite's own lock.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse as results, protocol } from '@electric-sql/pglite';

// On disk (dataDir), or in memory: empty, or loaded from a dump of another database (`template`,
// the unit tests' migrated one: loading it skips initdb, four of the five seconds a new one takes).
const database = await PGlite.create(
  workerData.dataDir
    ? { dataDir: workerData.dataDir }
    : workerData.template
      ? { loadDataDir: new Blob([readFileSync(workerData.template)]) }
      : {},
);
const transactions = new Map();
// A new 16 MiB WAL segment is not written full of zeros first: that write held a statement for
// 30 to 45 ms every few thousand charges. The zeros only reserve the disk space early
// (PostgreSQL's wal_init_zero); PGlite runs with fsync off, and a full disk still fails the write.
await database.exec('SET wal_init_zero = off');

// Prepared statements, as on PostgreSQL (statement-names.ts): PGlite's query() parses, plans
// and describes every statement anew; here each distinct text is parsed once under a name and
// afterwards only bound and executed. The same steps as PGlite's own query() otherwise (its
// locks, parameter serializers, result parsers, and a write to disk outside transactions).
// A script (migrations) may change the tables the statements read: exec forgets them all.
const MAX_PREPARED = 500;
const MAX_PARAMETERS = 32;
const prepared = new Map();
let lastName = 0;
const { serialize } = protocol;

function send(message) {
  return database.execProtocolStream(message, { syncToFs: false });
}

async function prepare(sql, parameters) {
  const known = prepared.get(sql);
  if (known) return { statement: known, messages: [] };
  // Names never repeat: one of a statement dropped by DEALLOCATE is not given out again. As on
  // PostgreSQL, lists whose length varies (many parameters) and texts past the limit run unnamed.
  const named = prepared.size < MAX_PREPARED && parameters <= MAX_PARAMETERS;
  const name = named ? `s${++lastName}` : '';
  const messages = await send(serialize.parse({ name, text: sql }));
  const statement = {
    name,
    paramTypes: results.parseDescribeStatementResults(await send(serialize.describe({ type: 'S', name }))),
  };
  if (name) prepared.set(sql, statement);
  return { statement, messages };
}

function serialized(params, paramTypes) {
  return params.map((value, index) => {
    if (value === null || value === undefined) return null;
    const serializer = database.serializers[paramTypes[index]];
    return serializer ? serializer(value) : value.toString();
  });
}

function concatenated(parts) {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

// Bind, describe, execute and sync go to the backend as one buffer: PGlite runs every message it
// is handed before it returns, and a failure makes PostgreSQL skip to the sync, as over a socket.
function preparedQuery(inTransaction, sql, params, options, timing) {
  const run = async () => {
    timing.startedAt = sharedClock();
    let messages;
    let synced = false;
    try {
      const ready = await prepare(sql, params.length);
      const bind = serialize.bind({ statement: ready.statement.name, values: serialized(params, ready.statement.paramTypes) });
      const buffer = concatenated([bind, serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]);
      synced = true;
      messages = [...ready.messages, ...(await send(buffer))];
    } catch (error) {
      // A statement that failed to parse or a value that failed to serialize: the backend still
      // waits for the sync that ends this exchange.
      if (!synced) await send(serialize.sync());
      if (error instanceof Error) Object.assign(error, { query: sql, params });
      throw error;
    }
    if (!inTransaction) await database.syncToFs();
    return results.parseResults(messages, options.parsers, { rowMode: options.rowMode })[0];
  };
  const exclusive = () => database._runExclusiveQuery(run);
  return inTransaction ? exclusive() : database._runExclusiveTransaction(exclusive);
}

async function execScript(target, sql) {
  const done = await target.exec(sql);
  if (prepared.size > 0) {
    await target.exec('DEALLOCATE ALL');
    prepared.clear();
  }
  return done;
}

// The result parsers of a call: PGlite's own (fixed when it starts), except the types whose
// parsers run in the calling thread, left as the text PostgreSQL sent. Made once per set of such
// types: handed them apart, PGlite's parseResults copies its 300-odd parsers into a new object
// on every statement (150 µs).
const parserSets = new Map();
function parsersLeaving(oids) {
  const key = oids.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = { ...database.parsers, ...Object.fromEntries(oids.map((oid) => [oid, (text) => text])) };
    parserSets.set(key, parsers);
  }
  return parsers;
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

function beginTransaction(id, timing) {
  return new Promise((started, failed) => {
    const finished = database
      .transaction(
        (tx) =>
          new Promise((end) => {
            timing.startedAt = sharedClock();
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

async function handle(message, timing) {
  if (message.op === 'begin') return beginTransaction(message.tx, timing);
  if (message.op === 'commit' || message.op === 'rollback') return endTransaction(message.tx, message.op === 'rollback');
  const target = message.tx ? transactions.get(message.tx)?.tx : database;
  if (!target) throw new Error(`no open transaction ${message.tx}`);
  switch (message.op) {
    case 'query': {
      const result = await preparedQuery(
        target !== database,
        message.sql,
        message.params ?? [],
        {
          rowMode: message.rowMode,
          parsers: parsersLeaving(message.rawOids ?? []),
        },
        timing,
      );
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
    }
    case 'exec':
      return (await execScript(target, message.sql)).map((result) => ({ affectedRows: result.affectedRows }));
    case 'close':
      return database.close();
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

// When each message began to run, once PGlite's lock was had (a query, a transaction's begin) or
// at once (the rest), on the clock the calling thread shares: it times the database's queue
// (database-queue.ts).
function sharedClock() {
  return performance.timeOrigin + performance.now();
}

parentPort.on('message', (message) => {
  const receivedAt = sharedClock();
  const timing = { startedAt: undefined };
  handle(message, timing).then(
    (result) => parentPort.postMessage({ id: message.id, result, startedAt: timing.startedAt ?? receivedAt }),
    (error) => parentPort.postMessage({ id: message.id, error: errorFields(error), startedAt: timing.startedAt ?? receivedAt }),
  );
});
parentPort.postMessage({ ready: true });
