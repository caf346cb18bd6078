// Per-instance memory of recent database reads on the hot path (credentials, merchants): a key
// is read again once its value is older than `ttlMs`, and at once after `forget` (a change made
// through this instance). Other instances see a change within `ttlMs` (docs/DECISIONS.md).
// Requests that miss one key at the same moment (a fresh instance under load, or the moment a
// value expires) share one read rather than each sending its own.
export class RecentReads<V> {
  private readonly entries = new Map<string, { value: V; readAt: number }>();
  private readonly reading = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, read: () => Promise<V>, now = Date.now()): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && now - entry.readAt < this.ttlMs) return Promise.resolve(entry.value);
    const pending = this.reading.get(key);
    if (pending) return pending;
    let started: Promise<V>;
    try {
      started = read();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const reading = started.then(
      (value) => {
        // A read that `forget` overtook is answered but not kept: it may predate the change.
        if (this.reading.get(key) === reading) {
          this.reading.delete(key);
          this.keep(key, value, now);
        }
        return value;
      },
      (error: unknown) => {
        if (this.reading.get(key) === reading) this.reading.delete(key);
        throw error;
      },
    );
    this.reading.set(key, reading);
    return reading;
  }

  forget(key: string): void {
    this.entries.delete(key);
    this.reading.delete(key);
  }

  private keep(key: string, value: V, readAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, readAt });
  }
}
