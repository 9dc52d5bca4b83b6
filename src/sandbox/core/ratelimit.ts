// Per-key rate limit: a fixed one-minute window of the clock of the key's account (no other account's advance
// moves it; advancing your own a minute starts a new window, as it always did), 30 requests on Découverte and 100 on
// other plans (or the account's own limit). Counts are kept in memory, for the most recently used keys only
// (RATE_LIMITED_KEYS_IN_MEMORY): a count of an earlier minute is worth nothing, and any caller can invent keys.
import { BoundedMap } from './bounded-map.js';
import { RATE_LIMITED_KEYS_IN_MEMORY } from './bounds.js';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  reset: number;
  exceeded: boolean;
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows: BoundedMap<string, { window: number; count: number }>;

  constructor(keysInMemory = RATE_LIMITED_KEYS_IN_MEMORY) {
    this.windows = new BoundedMap(keysInMemory);
  }

  /** How many keys have a count in memory. */
  get size(): number {
    return this.windows.size;
  }

  hit(key: string, limit: number, nowMs: number): RateLimitState {
    const window = Math.floor(nowMs / 60_000);
    let entry = this.windows.get(key);
    if (!entry || entry.window !== window) {
      entry = { window, count: 0 };
      this.windows.set(key, entry);
    }
    entry.count++;
    const endMs = (window + 1) * 60_000;
    return {
      limit,
      remaining: Math.max(0, limit - entry.count),
      reset: endMs / 1000,
      exceeded: entry.count > limit,
      retryAfter: Math.max(1, Math.ceil((endMs - nowMs) / 1000)),
    };
  }
}
