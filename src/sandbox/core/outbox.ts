// The outbox: an event is written in the transaction of the change that causes it, with one delivery per
// subscribed active endpoint and a job for each delivery's first attempt.
import type { WebhookEventMap, WebhookEventType } from '../../webhooks/event-types.js';
import type { Clock } from './clock.js';
import { timeOrderedUuid } from './ids.js';
import { defineJob, type Scheduler } from './scheduler.js';
import type { Db } from './store.js';

export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  mode: 'test' | 'live';
}

/** A delivery's attempt (./delivery.ts); asynchronous, it deletes its row when it records the outcome. */
export const DELIVERY_JOB = defineJob<{ delivery: string }>(
  'webhook.delivery',
  (core, { delivery }, jobId) => core.delivery.attempt(delivery, jobId),
  { async: true },
);

/** Whether an endpoint subscribed to `events` (a JSON array of names or `*`) receives `type`. */
export function subscribes(events: string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

export class Outbox {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;

  constructor(db: Db, clock: Clock, scheduler: Scheduler) {
    this.db = db;
    this.clock = clock;
    this.scheduler = scheduler;
  }

  /**
   * Records an event and queues its deliveries. Call inside the transaction of the change. `data` is typed by the
   * event's schema in the contract (the generated `webhooks`), so a payload that does not match it does not compile.
   */
  emit<T extends WebhookEventType>(
    account: { id: number; mode: 'test' | 'live' },
    type: T,
    data: WebhookEventMap[T]['data'],
  ): EventEnvelope {
    // On the account's clock, whatever runs it (a job of another clock included): its time and its deliveries'.
    return this.clock.within(account.id, () => this.record(account, type, data));
  }

  private record<T extends WebhookEventType>(
    account: { id: number; mode: 'test' | 'live' },
    type: T,
    data: WebhookEventMap[T]['data'],
  ): EventEnvelope {
    const now = this.clock.now();
    const uuid = timeOrderedUuid();
    const event: EventEnvelope = { id: `evt_${uuid}`, type, created_at: this.clock.iso(now), data, mode: account.mode };
    this.db.run(
      'INSERT INTO events (id, account_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)',
      event.id,
      account.id,
      type,
      JSON.stringify(event),
      now,
    );
    const endpoints = this.db.all<{ code: string; events: string }>(
      'SELECT code, events FROM webhook_endpoints WHERE account_id = ? AND is_active = 1 ORDER BY seq',
      account.id,
    );
    for (const endpoint of endpoints) {
      if (!subscribes(JSON.parse(endpoint.events) as string[], type)) continue;
      this.queueDelivery(account.id, endpoint.code, event.id, `idem_${uuid.replaceAll('-', '')}`, now);
    }
    return event;
  }

  /** A new delivery of a stored event to one endpoint, attempted at once (no retry is due: `next_retry_at` null). */
  queueDelivery(accountId: number, endpointCode: string, eventId: string, idempotencyKey: string, now: number): string {
    const code = timeOrderedUuid();
    this.db.run(
      `INSERT INTO deliveries (code, account_id, endpoint_code, event_id, status, response_code, attempt, duration_ms, idempotency_key, created_at, last_attempt_at, next_retry_at)
       VALUES (?, ?, ?, ?, 'pending', NULL, 0, NULL, ?, ?, NULL, NULL)`,
      code,
      accountId,
      endpointCode,
      eventId,
      idempotencyKey,
      now,
    );
    this.scheduler.schedule(DELIVERY_JOB, now, { delivery: code });
    return code;
  }
}
