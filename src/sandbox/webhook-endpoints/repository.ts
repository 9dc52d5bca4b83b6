// Webhook endpoints and deliveries in the store, and their contract shapes.
import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Clock } from '../core/clock.js';
import type { Db } from '../core/store.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new signing secret: `whsec_` and 32 letters or digits. */
export function newSecret(): string {
  return `whsec_${[...randomBytes(32)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`;
}

export interface EndpointRow {
  code: string;
  account_id: number;
  url: string;
  secret: string;
  events: string;
  description: string | null;
  is_active: number;
  consecutive_failures: number;
  last_success_at: number | null;
  last_failure_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryRow {
  code: string;
  endpoint_code: string;
  event_id: string;
  status: string;
  response_code: number | null;
  failure_reason: string | null;
  attempt: number;
  duration_ms: number | null;
  idempotency_key: string;
  created_at: number;
  last_attempt_at: number | null;
  next_retry_at: number | null;
  type: string;
}

const iso = (clock: Clock, ms: number | null) => (ms === null ? null : clock.iso(ms));

export function endpointOf(clock: Clock, r: EndpointRow): components['schemas']['WebhookEndpoint'] {
  return {
    code: r.code,
    url: r.url,
    events: JSON.parse(r.events) as components['schemas']['WebhookEndpointEvents'],
    description: r.description,
    is_active: r.is_active === 1,
    consecutive_failures: r.consecutive_failures,
    last_success_at: iso(clock, r.last_success_at),
    last_failure_at: iso(clock, r.last_failure_at),
    created_at: clock.iso(r.created_at),
    updated_at: clock.iso(r.updated_at),
  };
}

export function deliveryOf(clock: Clock, r: DeliveryRow): components['schemas']['WebhookDelivery'] {
  return {
    code: r.code,
    endpoint_code: r.endpoint_code,
    event_id: r.event_id,
    event_type: r.type as components['schemas']['WebhookEventName'],
    status: r.status as components['schemas']['WebhookDeliveryStatus'],
    response_code: r.response_code,
    failure_reason: r.failure_reason,
    attempt: Math.max(1, r.attempt),
    duration_ms: r.duration_ms,
    idempotency_key: r.idempotency_key,
    created_at: clock.iso(r.created_at),
    last_attempt_at: clock.iso(r.last_attempt_at ?? r.created_at),
    // Only after a failed attempt, until the next one starts (rows queued by an older sandbox carry their queue time).
    next_retry_at: iso(clock, r.status === 'pending' && r.attempt > 0 ? r.next_retry_at : null),
  };
}

export class EndpointRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }
  find(accountId: number, code: string): EndpointRow | undefined {
    return this.db.get<EndpointRow>('SELECT * FROM webhook_endpoints WHERE account_id = ? AND code = ?', accountId, code);
  }
  list(accountId: number): EndpointRow[] {
    return this.db.all<EndpointRow>('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at DESC, code DESC', accountId);
  }
  activeCount(accountId: number): number {
    return this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ? AND is_active = 1', accountId)!.n;
  }
  insert(r: Omit<EndpointRow, 'consecutive_failures' | 'last_success_at' | 'last_failure_at'>): void {
    this.db.run(
      `INSERT INTO webhook_endpoints (code, account_id, url, secret, events, description, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.code,
      r.account_id,
      r.url,
      r.secret,
      r.events,
      r.description,
      r.is_active,
      r.created_at,
      r.updated_at,
    );
  }
  update(
    code: string,
    change: { url: string; events: string; description: string | null; is_active: number; secret: string; updated_at: number },
  ): void {
    this.db.run(
      'UPDATE webhook_endpoints SET url = ?, events = ?, description = ?, is_active = ?, secret = ?, updated_at = ? WHERE code = ?',
      change.url,
      change.events,
      change.description,
      change.is_active,
      change.secret,
      change.updated_at,
      code,
    );
  }
  /** Deletes the endpoint; its pending deliveries fail without an attempt, and its history goes with it. */
  delete(accountId: number, code: string): void {
    this.db.run(
      "UPDATE deliveries SET status = 'failed', next_retry_at = NULL WHERE account_id = ? AND endpoint_code = ? AND status = 'pending'",
      accountId,
      code,
    );
    this.db.run('DELETE FROM webhook_endpoints WHERE code = ?', code);
  }
  delivery(code: string): DeliveryRow | undefined {
    return this.db.get<DeliveryRow>('SELECT d.*, e.type FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.code = ?', code);
  }
  deliveries(
    accountId: number,
    endpointCode: string,
    limit: number,
    offset: number,
    from = 0,
    to = Number.MAX_SAFE_INTEGER,
  ): { rows: DeliveryRow[]; total: number } {
    const where = 'd.account_id = ? AND d.endpoint_code = ? AND d.created_at >= ? AND d.created_at < ?';
    const rows = this.db.all<DeliveryRow>(
      `SELECT d.*, e.type FROM deliveries d JOIN events e ON e.id = d.event_id WHERE ${where} ORDER BY d.created_at DESC, d.code DESC LIMIT ? OFFSET ?`,
      accountId,
      endpointCode,
      from,
      to,
      limit,
      offset,
    );
    const total = this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM deliveries d WHERE ${where}`, accountId, endpointCode, from, to)!.n;
    return { rows, total };
  }
}
