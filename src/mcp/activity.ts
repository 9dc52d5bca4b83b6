// The events of an account and their webhook deliveries, read with the package's client (typed by the contract):
// `GET /events` (newest first, by type), then `GET /webhooks` and each endpoint's `GET /webhooks/{code}/deliveries`,
// joined on the event's id. It answers "was card.frozen sent for this card, and did my endpoint take it?" in one
// call, where the API needs three.
import type { components } from '../../generated/openapi.js';
import { createPartnerClient, type PageItem } from '../client/index.js';
import type { Target } from './target.js';

type Delivery = PageItem<'/webhooks/{code}/deliveries'>;
/** The event types a request names (the closed list; the tool's input is checked against it). */
type EventTypeChoice = components['schemas']['WebhookEventNameChoice'];

export interface ActivityQuery {
  /** Only events of this type (`card.frozen`). */
  type?: string;
  /** Fields the event's `data` must have, compared as JSON (`{ card_code: '…' }`). */
  data?: Record<string, unknown>;
  /** Only events with a delivery in this status (`failed` ...). */
  deliveryStatus?: string;
  /** At most this many events (default 10). */
  limit?: number;
}

export interface EventActivity {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
  deliveries: (Pick<Delivery, 'code' | 'endpoint_code' | 'status' | 'attempt' | 'response_code' | 'next_retry_at' | 'last_attempt_at'> & {
    endpoint_url?: string;
  })[];
}

/** The most records read from one list (events, or one endpoint's deliveries): the sandbox keeps them all. */
const SCAN = 1000;

const matches = (data: unknown, wanted: Record<string, unknown> = {}) =>
  Object.entries(wanted).every(
    ([key, value]) =>
      typeof data === 'object' && data !== null && JSON.stringify((data as Record<string, unknown>)[key]) === JSON.stringify(value),
  );

export async function accountActivity(
  target: Target,
  query: ActivityQuery,
): Promise<{ events: EventActivity[]; endpoints: number; scanned: number }> {
  const client = createPartnerClient({ apiKey: target.apiKey, baseUrl: target.baseUrl, retry: false });
  const limit = query.limit ?? 10;
  // The endpoints are one list, not paginated (an account has at most 10).
  const endpoints = (await client.call.GET('/webhooks')).data.map((e) => ({ code: e.code, url: e.url }));

  // Every delivery of the account, by event id (read first: an event is kept when one of its deliveries matches).
  const deliveries = new Map<string, EventActivity['deliveries']>();
  for (const endpoint of endpoints) {
    let read = 0;
    for await (const d of client.paginate('/webhooks/{code}/deliveries', {
      params: { path: { code: endpoint.code }, query: { limit: 100 } },
    })) {
      const list = deliveries.get(d.event_id) ?? [];
      list.push({
        code: d.code,
        endpoint_code: d.endpoint_code,
        endpoint_url: endpoint.url,
        status: d.status,
        attempt: d.attempt,
        response_code: d.response_code,
        last_attempt_at: d.last_attempt_at,
        next_retry_at: d.next_retry_at,
      });
      deliveries.set(d.event_id, list);
      if (++read >= SCAN) break;
    }
  }

  const events: EventActivity[] = [];
  let scanned = 0;
  const type = query.type as EventTypeChoice | undefined;
  for await (const event of client.paginate('/events', { params: { query: { limit: 100, ...(type ? { type } : {}) } } })) {
    scanned++;
    const own = deliveries.get(event.id) ?? [];
    if (matches(event.data, query.data) && (query.deliveryStatus === undefined || own.some((d) => d.status === query.deliveryStatus))) {
      events.push({ id: event.id, type: event.type, created_at: event.created_at, data: event.data, deliveries: own });
      if (events.length >= limit) break;
    }
    if (scanned >= SCAN) break;
  }
  return { events, endpoints: endpoints.length, scanned };
}
