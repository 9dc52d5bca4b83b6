/**
 * Deduplication by `X-Service-Idempotency-Key`. The service retries a delivery after any non-2xx answer or a
 * time-out (10 s), with the same key, so a receiver can see one event several times.
 */

/**
 * Where seen keys are kept. Back it with a shared store (Redis, a database table with a unique key) when
 * several processes receive webhooks; the default `MemoryDedupStore` is per process and forgets on restart.
 */
export interface DedupStore {
  /**
   * Records `key` for `ttlSeconds` unless it is already recorded and unexpired. Returns `true` when this call
   * recorded it (first delivery), `false` when it was already there (a repeat). Make it atomic in a shared
   * store, so that two concurrent deliveries cannot both get `true`: Redis `SET key 1 NX EX ttl`, or an
   * `INSERT` that fails on a unique key.
   */
  add(key: string, ttlSeconds: number): boolean | Promise<boolean>;
  /** Forgets `key`, so that the next delivery with it is processed (used when the handler fails). */
  delete(key: string): unknown;
}

/** The in-memory default: a Map from key to expiry time, swept as it is used. */
export class MemoryDedupStore implements DedupStore {
  readonly #expiries = new Map<string, number>();
  readonly #now: () => number;

  /** @param options.now Current Unix time in seconds (default `Date.now() / 1000`); inject it in tests. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? (() => Date.now() / 1000);
  }

  add(key: string, ttlSeconds: number): boolean {
    const now = this.#now();
    this.#sweep(now);
    const expiry = this.#expiries.get(key);
    if (expiry !== undefined && expiry > now) return false;
    // Re-insert so that the Map stays ordered by insertion time, which the sweep relies on.
    this.#expiries.delete(key);
    this.#expiries.set(key, now + ttlSeconds);
    return true;
  }

  delete(key: string): void {
    this.#expiries.delete(key);
  }

  /** Keys held, expired ones included until the next sweep. */
  get size(): number {
    return this.#expiries.size;
  }

  // Drops expired keys from the oldest insertion on, stopping at the first live one. With one TTL this removes
  // every expired key; with mixed TTLs a few may wait for a later sweep, and `add` still treats them as expired.
  #sweep(now: number): void {
    for (const [key, expiry] of this.#expiries) {
      if (expiry > now) break;
      this.#expiries.delete(key);
    }
  }
}

/** One day: the document does not give the retry schedule, so this default is a provisional choice. */
export const DEFAULT_DEDUP_TTL_SECONDS = 24 * 60 * 60;

export interface DeduplicatorOptions {
  /** Default: a new `MemoryDedupStore`. */
  store?: DedupStore;
  /**
   * How long a key is remembered, in seconds. Keep it longer than the service's retry window. Default 86,400
   * (one day); the document does not give the retry schedule.
   */
  ttl?: number;
}

export type DedupResult<T> = { duplicate: false; value: T } | { duplicate: true };

export interface Deduplicator {
  /**
   * Runs `handler` unless `key` was already handled within the TTL. When the handler throws, the key is
   * forgotten and the error rethrown: answer non-2xx, and the service's retry is processed normally.
   */
  run<T>(key: string, handler: () => T | Promise<T>): Promise<DedupResult<T>>;
}

export function createDeduplicator(options: DeduplicatorOptions = {}): Deduplicator {
  const store = options.store ?? new MemoryDedupStore();
  const ttl = options.ttl ?? DEFAULT_DEDUP_TTL_SECONDS;
  if (!(ttl > 0)) throw new RangeError(`ttl must be a number of seconds > 0, got ${String(ttl)}`);
  return {
    async run<T>(key: string, handler: () => T | Promise<T>): Promise<DedupResult<T>> {
      if (typeof key !== 'string' || key === '') {
        throw new TypeError('The idempotency key is missing: pass the X-Service-Idempotency-Key header value.');
      }
      if (!(await store.add(key, ttl))) return { duplicate: true };
      try {
        return { duplicate: false, value: await handler() };
      } catch (error) {
        await store.delete(key);
        throw error;
      }
    },
  };
}
