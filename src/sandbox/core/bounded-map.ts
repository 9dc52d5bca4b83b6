// A Map that keeps at most `limit` entries, dropping the least recently used: the per-key state the sandbox
// keeps in memory (accounts, product lists, rate-limit counts) grows with the keys callers invent, and zero
// setup lets them invent as many as they like. A Map iterates in insertion order, so re-inserting an entry on
// each read keeps the least recently used first.
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  readonly limit: number;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a BoundedMap holds at least one entry, not ${limit}`);
    this.limit = limit;
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value of `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** The values, least recently used first (reading them does not make them used). */
  values(): IterableIterator<V> {
    return this.entries.values();
  }

  clear(): void {
    this.entries.clear();
  }
}
