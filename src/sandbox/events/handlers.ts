// Events (tag "Events"): the events of the last 30 days of the clock, as delivered, and their redelivery
// through the outbox's delivery machinery, with the event's own X-Service-Idempotency-Key.
import type { components } from '../../../generated/openapi.js';
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { notFound, stateError } from '../core/errors.js';
import { subscribes, type EventEnvelope } from '../core/events.js';
import { EndpointRepository, deliveryOf, type DeliveryRow } from '../webhooks/repository.js';

/** Events older than this (of the clock) are neither listed nor redelivered. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/** The idempotency key of every delivery of an event: `idem_` and the hex digits of its id. */
export const idempotencyKeyOf = (eventId: string): string => `idem_${eventId.slice(4).replaceAll('-', '')}`;

interface EventRow {
  id: string;
  type: string;
  body: string;
  created_at: number;
}

export function events(core: SandboxCore): Handlers {
  const { db, clock, outbox } = core;
  const endpoints = new EndpointRepository(db);
  const find = (account: Account, id: string): EventRow => {
    const row = db.get<EventRow>('SELECT id, type, body, created_at FROM events WHERE account_id = ? AND id = ? AND created_at >= ?', account.id, id, clock.now() - EVENT_RETENTION_MS);
    if (!row) throw notFound('Event');
    return row;
  };
  const eventOf = (r: EventRow) => JSON.parse(r.body) as EventEnvelope as components['schemas']['Event'];

  return {
    listEvents({ account, query }) {
      const [from, to] = createdRange(query);
      const where = ['account_id = ?', 'created_at >= ?', 'created_at < ?'];
      const args = [account.id, Math.max(from, clock.now() - EVENT_RETENTION_MS), to] as (string | number)[];
      if (query.type !== undefined) where.push('type = ?'), args.push(query.type);
      const [limit, offset] = pageWindow(query);
      const rows = db.all<EventRow>(`SELECT id, type, body, created_at FROM events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, ...args, limit, offset);
      const total = db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM events WHERE ${where.join(' AND ')}`, ...args)!.n;
      return page(rows.map(eventOf), total, query);
    },

    getEvent({ account, params }) {
      return { data: eventOf(find(account, params.id)) };
    },

    redeliverEvent({ account, params, body }) {
      return db.transaction(() => {
        const event = find(account, params.id);
        let targets: string[];
        if (body?.endpoint_code !== undefined) {
          const endpoint = endpoints.find(account.id, body.endpoint_code);
          if (!endpoint) throw notFound('Webhook endpoint');
          if (endpoint.is_active !== 1) throw stateError('webhook_endpoint_inactive', 'The endpoint is disabled: enable it first.', 'disabled');
          if (!subscribes(JSON.parse(endpoint.events) as string[], event.type)) {
            throw stateError('webhook_endpoint_not_subscribed', `The endpoint is not subscribed to ${event.type}.`);
          }
          targets = [endpoint.code];
        } else {
          targets = endpoints.list(account.id).filter((e) => e.is_active === 1 && subscribes(JSON.parse(e.events) as string[], event.type)).map((e) => e.code).reverse();
        }
        const now = clock.now();
        const codes = targets.map((endpoint) => outbox.queueDelivery(account.id, endpoint, event.id, idempotencyKeyOf(event.id), now));
        const rows = codes.map((code) => db.get<DeliveryRow>('SELECT d.*, e.type FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.code = ?', code)!);
        return { data: rows.map((r) => deliveryOf(clock, r)) };
      });
    },
  };
}
