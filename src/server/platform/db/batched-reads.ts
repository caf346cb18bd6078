import DataLoader from 'dataloader';
import type { Db } from './client';

// Point reads of many requests in one statement (docs/DECISIONS.md "A saved card's read before its
// claim"): a statement costs the service and the database far more in its round trip than in the
// rows it reads, so under load the reads of concurrent requests share one. A read goes at once
// when none of its kind is in flight on the database handle; those asked meanwhile wait for it and
// then go together, so a quiet service adds no wait and a busy one sends one statement per round
// trip, its batch as large as the load. Nothing is cached: each read sees the rows as they are.

/** The default batch's bound: one statement's parameters and answer stay small. */
const MAX_BATCH = 100;

/**
 * `read` for one key, batched with the same kind's concurrent reads: `read(db, keys)` answers one
 * value per key, in order (undefined for none); a failure of the statement fails its batch only.
 */
export function batchedReads<K, V>(
  read: (db: Db, keys: readonly K[]) => Promise<V[]>,
  { maxBatchSize = MAX_BATCH } = {},
): (db: Db, key: K) => Promise<V> {
  const loaders = new WeakMap<Db, DataLoader<K, V>>();
  return (db, key) => {
    let loader = loaders.get(db);
    if (!loader) {
      loader = oneInFlight((keys) => read(db, keys), maxBatchSize);
      loaders.set(db, loader);
    }
    return loader.load(key);
  };
}

function oneInFlight<K, V>(read: (keys: readonly K[]) => Promise<V[]>, maxBatchSize: number): DataLoader<K, V> {
  let reading = false;
  const waiting: (() => void)[] = [];
  const next = () => {
    const dispatch = waiting.shift();
    if (dispatch) dispatch();
    else reading = false;
  };
  return new DataLoader<K, V>(
    async (keys) => {
      try {
        return await read(keys);
      } finally {
        next();
      }
    },
    {
      cache: false,
      maxBatchSize,
      // DataLoader calls this as it opens a batch, before the batch's first key is in it: the batch
      // goes once the promise jobs of this tick have run (DataLoader's own default), so the reads
      // asked in the same tick go with it.
      batchScheduleFn: (dispatch) => {
        if (reading) {
          waiting.push(dispatch);
          return;
        }
        reading = true;
        void Promise.resolve().then(() => process.nextTick(dispatch));
      },
    },
  );
}
