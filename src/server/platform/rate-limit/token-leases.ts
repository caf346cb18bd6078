// Tokens an instance took from a shared (database) bucket ahead of use and spends locally: see
// rate-limit.ts. Unspent tokens lapse after the lease's time to live.

const LEASE_SECONDS = 0.05;
const LEASE_TTL_MS = 1_000;

type Lease = { tokens: number; expiresAt: number };

/** How many tokens to take at once: those of LEASE_SECONDS of the rate, at least one, at most the burst. */
export function leaseSize(rate: number, burst: number): number {
  return Math.max(1, Math.min(Math.floor(rate * LEASE_SECONDS), Math.floor(burst)));
}

export class TokenLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly maxKeys: number) {}

  /** Spends a leased token of the key, if one is held and fresh. */
  spend(key: string, now = Date.now()): boolean {
    const held = this.leases.get(key);
    if (!held) return false;
    if (held.expiresAt <= now || held.tokens < 1) {
      this.leases.delete(key);
      return false;
    }
    held.tokens -= 1;
    return true;
  }

  /** Holds `tokens` more for the key (a fresh lease, or added to a fresh one). */
  add(key: string, tokens: number, now = Date.now()): void {
    const held = this.leases.get(key);
    if (held && held.expiresAt > now) {
      held.tokens += tokens;
      return;
    }
    if (this.leases.size >= this.maxKeys) this.dropLapsed(now);
    if (this.leases.size >= this.maxKeys) return;
    this.leases.set(key, { tokens, expiresAt: now + LEASE_TTL_MS });
  }

  private dropLapsed(now: number): void {
    for (const [key, held] of this.leases) if (held.expiresAt <= now) this.leases.delete(key);
  }
}
