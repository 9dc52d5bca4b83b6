import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_DEDUP_TTL_SECONDS, MemoryDedupStore, createDeduplicator, type DedupStore } from '../../src/webhooks/index.js';

/** A settable clock in seconds. */
function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (s: number) => {
      now += s;
    },
  };
}

describe('MemoryDedupStore', () => {
  it('records a key once and reports repeats until the TTL expires', () => {
    const c = clock();
    const store = new MemoryDedupStore({ now: c.now });
    expect(store.add('idem_a', 60)).toBe(true);
    expect(store.add('idem_a', 60)).toBe(false);
    expect(store.add('idem_b', 60)).toBe(true);
    c.advance(59);
    expect(store.add('idem_a', 60)).toBe(false);
    c.advance(1); // exactly 60 s later: expired
    expect(store.add('idem_a', 60)).toBe(true);
    expect(store.add('idem_a', 60)).toBe(false);
  });

  it('sweeps expired keys so memory does not grow without bound', () => {
    const c = clock();
    const store = new MemoryDedupStore({ now: c.now });
    for (let i = 0; i < 1000; i++) store.add(`idem_${i}`, 10);
    expect(store.size).toBe(1000);
    c.advance(11);
    store.add('idem_new', 10);
    expect(store.size).toBe(1);
  });

  it('delete forgets a key', () => {
    const store = new MemoryDedupStore({ now: clock().now });
    store.add('idem_a', 60);
    store.delete('idem_a');
    expect(store.add('idem_a', 60)).toBe(true);
  });
});

describe('createDeduplicator', () => {
  it('runs the handler for the first delivery and skips repeats within the TTL', async () => {
    const c = clock();
    const dedup = createDeduplicator({ store: new MemoryDedupStore({ now: c.now }), ttl: 3600 });
    const handler = vi.fn(async () => 'processed');
    expect(await dedup.run('idem_1', handler)).toEqual({ duplicate: false, value: 'processed' });
    expect(await dedup.run('idem_1', handler)).toEqual({ duplicate: true });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(await dedup.run('idem_2', handler)).toEqual({ duplicate: false, value: 'processed' });
    expect(handler).toHaveBeenCalledTimes(2);

    c.advance(3599);
    expect(await dedup.run('idem_1', handler)).toEqual({ duplicate: true });
    c.advance(1);
    expect(await dedup.run('idem_1', handler)).toEqual({ duplicate: false, value: 'processed' });
    expect(handler).toHaveBeenCalledTimes(3);
  });

  it('forgets the key when the handler fails, so the retry is processed', async () => {
    const dedup = createDeduplicator({ store: new MemoryDedupStore({ now: clock().now }) });
    await expect(dedup.run('idem_1', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    await expect(dedup.run('idem_1', () => 'ok')).resolves.toEqual({ duplicate: false, value: 'ok' });
    await expect(dedup.run('idem_1', () => 'again')).resolves.toEqual({ duplicate: true });
  });

  it('lets only one of two concurrent deliveries of the same key through', async () => {
    const dedup = createDeduplicator();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = dedup.run('idem_1', async () => {
      await gate;
      return 'first';
    });
    const second = await dedup.run('idem_1', () => 'second');
    release();
    expect(second).toEqual({ duplicate: true });
    expect(await first).toEqual({ duplicate: false, value: 'first' });
  });

  it('works with a pluggable async store and passes it the TTL', async () => {
    // A stand-in for Redis `SET key 1 NX EX ttl`: async, records the TTL it was given.
    const calls: string[] = [];
    const seen = new Map<string, number>();
    const store: DedupStore = {
      async add(key, ttlSeconds) {
        calls.push(`add ${key} ${ttlSeconds}`);
        if (seen.has(key)) return false;
        seen.set(key, ttlSeconds);
        return true;
      },
      async delete(key) {
        calls.push(`delete ${key}`);
        seen.delete(key);
      },
    };
    const dedup = createDeduplicator({ store, ttl: 120 });
    expect(await dedup.run('idem_1', () => 1)).toEqual({ duplicate: false, value: 1 });
    expect(await dedup.run('idem_1', () => 2)).toEqual({ duplicate: true });
    await expect(
      dedup.run('idem_2', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(calls).toEqual(['add idem_1 120', 'add idem_1 120', 'add idem_2 120', 'delete idem_2']);
  });

  it('defaults to a one-day TTL', async () => {
    const store: DedupStore = { add: vi.fn(() => true), delete: vi.fn() };
    await createDeduplicator({ store }).run('idem_1', () => undefined);
    expect(DEFAULT_DEDUP_TTL_SECONDS).toBe(86_400);
    expect(store.add).toHaveBeenCalledWith('idem_1', 86_400);
  });

  it('refuses a missing key and a non-positive TTL', async () => {
    const dedup = createDeduplicator();
    await expect(dedup.run('', () => 1)).rejects.toThrow(/idempotency key is missing/);
    await expect(dedup.run(undefined as never, () => 1)).rejects.toThrow(TypeError);
    expect(() => createDeduplicator({ ttl: 0 })).toThrow(RangeError);
  });
});
