// Events (tag "Events"): the events of the last 30 days of the clock, as delivered, and their redelivery
// through the outbox's delivery machinery, with the event's own X-Service-Idempotency-Key (./rules.ts).
import type { Account } from '../core/accounts.js';
import type { Handlers, SandboxCore } from '../core/context.js';
import { createdRange, page, pageWindow } from '../core/context.js';
import { notFound, stateError } from '../core/errors.js';
import { subscribes } from '../core/outbox.js';
import { EndpointRepository, deliveryOf } from '../webhook-endpoints/repository.js';
import { eventOf, eventPage, findEvent, type EventRow } from './repository.js';
import { EVENT_RETENTION_MS, idempotencyKeyOf } from './rules.js';

export function events(core: SandboxCore): Handlers {
  const { db, clock, outbox } = core;
  const endpoints = new EndpointRepository(db);
  const find = (account: Account, id: string): EventRow => {
    const row = findEvent(core, account.id, id, clock.now() - EVENT_RETENTION_MS);
    if (!row) throw notFound('Event');
    return row;
  };

  return {
    listEvents({ account, query }) {
      const [from, to] = createdRange(query);
      const [limit, offset] = pageWindow(query);
      const { rows, total } = eventPage(
        core,
        account.id,
        { from: Math.max(from, clock.now() - EVENT_RETENTION_MS), to, type: query.type },
        limit,
        offset,
      );
      return page(rows.map(eventOf), total, query);
    },

    getEvent({ account, params }) {
      return { data: eventOf(find(account, params.id)) };
    },

    redeliverEvent({ account, params, body }) {
      const event = find(account, params.id);
      let targets: string[];
      if (body?.endpoint_code !== undefined) {
        const endpoint = endpoints.find(account.id, body.endpoint_code);
        if (!endpoint) throw notFound('Webhook endpoint');
        if (endpoint.is_active !== 1)
          throw stateError('webhook_endpoint_inactive', 'The endpoint is disabled: enable it first.', 'inactive');
        if (!subscribes(JSON.parse(endpoint.events) as string[], event.type)) {
          throw stateError('webhook_endpoint_not_subscribed', `The endpoint is not subscribed to ${event.type}.`);
        }
        targets = [endpoint.code];
      } else {
        targets = endpoints
          .list(account.id)
          .filter((e) => e.is_active === 1 && subscribes(JSON.parse(e.events) as string[], event.type))
          .map((e) => e.code)
          .reverse();
      }
      const now = clock.now();
      const codes = targets.map((endpoint) => outbox.queueDelivery(account.id, endpoint, event.id, idempotencyKeyOf(event.id), now));
      const rows = codes.map((code) => endpoints.delivery(code)!);
      return { data: rows.map((r) => deliveryOf(clock, r)) };
    },
  };
}
