import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { DATABASE_THREAD_NAME, startPgliteThread, type PgliteThread } from './pglite-proxy';

// The embedded database's thread sends each statement's bind, describe, execute and sync as one
// buffer (pglite-thread.mjs): a statement that fails at any step must leave the connection ready
// for the next one, inside a transaction as outside.
let thread: PgliteThread;
let db: PGlite;

beforeAll(async () => {
  thread = await startPgliteThread(undefined);
  db = thread.client;
  await db.exec('CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)');
}, 60_000);

afterAll(() => thread?.close());

const names = async () => (await db.query<{ name: string }>('SELECT name FROM items ORDER BY id')).rows.map((row) => row.name);

it('runs in a thread the system shows by its own name, which the benchmark counts as the database', () => {
  const threadNames = readdirSync('/proc/self/task').map((task) => readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim());
  expect(threadNames.filter((name) => name === DATABASE_THREAD_NAME)).toHaveLength(1);
});

describe('a failing statement leaves the connection usable', () => {
  it.each([
    ['a syntax error (parse)', 'SELEC name FROM items', [], '42601'],
    ['a value of the wrong type (bind)', 'INSERT INTO items (id, name) VALUES ($1, $2)', ['one', 'x'], '22P02'],
    ['a unique violation (execute)', 'INSERT INTO items (id, name) VALUES ($1, $2)', [1, 'again'], '23505'],
  ])('%s: its code, then the next statement runs', async (_case, sql, params, code) => {
    await db.query('INSERT INTO items (id, name) VALUES (1, $1) ON CONFLICT DO NOTHING', ['first']);
    await expect(db.query(sql, params)).rejects.toMatchObject({ code });
    expect(await names()).toEqual(['first']);
    // The same text again: a statement prepared before its failure is run again, not re-prepared wrongly.
    await expect(db.query(sql, params)).rejects.toMatchObject({ code });
    await db.query('INSERT INTO items (id, name) VALUES ($1, $2)', [2, 'second']);
    expect(await names()).toEqual(['first', 'second']);
    await db.query('DELETE FROM items WHERE id = 2');
  });

  it('inside a transaction: the failure aborts it, its rollback leaves nothing, and the next one commits', async () => {
    await expect(
      db.transaction(async (tx: Transaction) => {
        await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [3, 'rolled back']);
        await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [1, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await db.transaction(async (tx: Transaction) => {
      await tx.query('INSERT INTO items (id, name) VALUES ($1, $2)', [4, 'committed']);
    });
    expect(await names()).toEqual(['first', 'committed']);
  });
});
