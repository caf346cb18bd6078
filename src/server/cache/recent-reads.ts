// Per-instance memory of recent database reads on the hot path (credentials, merchants): a key
// is read again once its value is older than `ttlMs`, and at once after `forget` (a change made
// through this instance). Other instances see a change within `ttlMs` (docs/DECISIONS.md).
export class RecentReads<V> {
  private readonly entries = new Map<string, { value: V; readAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: string, read: () => Promise<V>, now = Date.now()): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && now - entry.readAt < this.ttlMs) return entry.value;
    const value = await read();
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, readAt: now });
    return value;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
