// Idempotency keys (Contract 1.1): a POST with `Idempotency-Key` is answered once; a retry with the same key
// within 24 hours gets the first status and body with `Idempotent-Replayed: true`; the same key with another
// method, path or body is refused (422, `idempotency_key_reused`); a retry while the first request runs
// waits for it. 5xx answers are not kept. Keys are scoped to the API key.
import { createHash } from 'node:crypto';
import { BoundedMap } from './bounded-map.js';
import { ACCOUNTS_IN_MEMORY } from './bounds.js';
import { sandboxModel, type JsonObject } from './contract.js';
import type { Db } from './store.js';

/** The `pattern` of the contract's Idempotency-Key header (`components.parameters.IdempotencyKey`). */
export const IDEMPOTENCY_KEY_PATTERN = String(
  (sandboxModel().resolve(sandboxModel().component('parameters', 'IdempotencyKey')?.node.schema).node as JsonObject | undefined)?.pattern,
);
export const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN, 'u');
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** JSON with every object's keys in sorted order, so that the order a client wrote them in does not matter. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
}

/** How often, in an account's time, its kept answers past their 24 hours are deleted (at its next write). */
export const IDEMPOTENCY_PURGE_EVERY_MS = 3_600_000;

export class IdempotencyStore {
  private readonly db: Db;
  private readonly running = new Map<string, Promise<void>>();
  /** When each recently used account's kept answers were last purged, on its clock. */
  private readonly purgedAt = new BoundedMap<number, number>(ACCOUNTS_IN_MEMORY);

  constructor(db: Db) {
    this.db = db;
  }

  /**
   * What makes two requests "the same" for a key, as the contract's idempotency section says: the method, the path
   * with its query string, and the body as parsed JSON, its objects' keys sorted (whitespace and key order do not
   * matter; `10` and `10.0` are one number, `"10"` another value).
   */
  static fingerprint(method: string, url: string, body: unknown): string {
    return createHash('sha256')
      .update(`${method} ${url}\n${canonicalJson(body ?? null)}`)
      .digest('hex');
  }

  /**
   * Waits while a request with this key runs; then returns the kept response, or marks the key as running
   * (checked and marked with no await in between, so two requests with one key never both run) and returns
   * the function that ends the run.
   */
  async acquire(accountId: number, key: string, now: number): Promise<{ kept: StoredResponse } | { end: () => void }> {
    const slot = `${accountId}:${key}`;
    while (this.running.has(slot)) await this.running.get(slot);
    this.db.run(
      'DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at <= ?',
      accountId,
      key,
      now - IDEMPOTENCY_TTL_MS,
    );
    const kept = this.db.get<StoredResponse>(
      'SELECT fingerprint, status, body FROM idempotency_keys WHERE account_id = ? AND key = ?',
      accountId,
      key,
    );
    if (kept) return { kept };
    let end!: () => void;
    this.running.set(slot, new Promise<void>((resolve) => (end = resolve)));
    let ended = false;
    return {
      // Once only: a later call must not end the run of the next request with this key.
      end: () => {
        if (ended) return;
        ended = true;
        this.running.delete(slot);
        end();
      },
    };
  }

  /**
   * Deletes the account's kept answers past their 24 hours, at most once per IDEMPOTENCY_PURGE_EVERY_MS of its
   * clock. One account at a time: `now` is its clock's, and another account's keys are on another clock.
   */
  purgeExpired(accountId: number, now: number): void {
    const purgedAt = this.purgedAt.get(accountId) ?? Number.NEGATIVE_INFINITY;
    if (now - purgedAt < IDEMPOTENCY_PURGE_EVERY_MS && now >= purgedAt) return;
    this.purgedAt.set(accountId, now);
    this.db.run('DELETE FROM idempotency_keys WHERE account_id = ? AND created_at <= ?', accountId, now - IDEMPOTENCY_TTL_MS);
  }

  keep(accountId: number, key: string, response: StoredResponse, now: number): void {
    this.purgeExpired(accountId, now);
    this.db.run(
      'INSERT OR REPLACE INTO idempotency_keys (account_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      accountId,
      key,
      response.fingerprint,
      response.status,
      response.body,
      now,
    );
  }
}
