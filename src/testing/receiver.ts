// A webhook receiver for your tests: an HTTP server on a loopback port that verifies every delivery with the
// toolkit's verifyWebhook, keeps the verified events (once each: retries share an X-Service-Idempotency-Key),
// every verified delivery in arrival order (repeats included) and the rejected deliveries, and lets a test wait
// for an event or for a number of deliveries. It works with any sandbox that can reach it:
// one started in-process with startSandbox(), or one in another process (`npx partner-api-sandbox`).
// See docs/testing.md.
import type { IncomingHttpHeaders, Server } from 'node:http';
import { http } from '../node-http.js';
import type { AddressInfo } from 'node:net';
import type { PartnerClient } from '../client/index.js';
import type { WebhookEvent, WebhookEventOf, WebhookEventType } from '../webhooks/event-types.js';
import { WEBHOOK_HEADERS, getHeader } from '../webhooks/headers.js';
import { verifyWebhook, type VerifyOptions } from '../webhooks/verify.js';

export interface WebhookReceiverOptions {
  /** The endpoint's signing secret, when the endpoint exists already. `register()` sets it otherwise. */
  secret?: string;
  /** Address to listen on; default 127.0.0.1 (the sandbox accepts loopback `http://` endpoint urls). */
  host?: string;
  /** Port; default 0, a free one. */
  port?: number;
  /** Path of the url; default `/webhooks`. */
  path?: string;
  /** Options of verifyWebhook (`tolerance`, `now`). */
  verify?: VerifyOptions;
}

/** A delivery the receiver answered 400: its signature or timestamp did not verify, or it was not JSON. */
export interface RejectedDelivery {
  /** verifyWebhook's error code (`signature_mismatch`, `timestamp_too_old`...) or `invalid_body`. */
  code: string;
  message: string;
  /** The event type the body claims, if it could be read. */
  type?: string;
}

/** One verified delivery, as it arrived: a repeat of an idempotency key is a delivery of its own. */
export interface ReceivedDelivery {
  /** The event's id and type. */
  eventId: string;
  type: string;
  /** The delivery's `X-Service-Idempotency-Key` (the event id when the header is missing). */
  idempotencyKey: string;
  /** 1 for the first delivery of its idempotency key, 2 for the first repeat, and so on. */
  copy: number;
  /** The status the receiver answered it with. */
  answered: number;
}

/** What an event must show: a predicate, or fields its `data` must have (compared deeply, others ignored). */
export type EventMatch<T extends WebhookEventType> = ((event: WebhookEventOf<T>) => boolean) | DeepPartial<WebhookEventOf<T>['data']>;
type DeepPartial<T> = T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface WaitOptions {
  /** Milliseconds to wait before rejecting; default 5,000. */
  timeout?: number;
}

export interface WebhookReceiver {
  /** `http://HOST:PORT/webhooks`: the url to register as a webhook endpoint. */
  readonly url: string;
  /** The secret deliveries are verified with. Until it is set, deliveries are acknowledged and not kept. */
  secret: string | undefined;
  /** The status verified deliveries are answered with; default 204. Set 500 to make the sandbox retry. */
  answer: number;
  /** Every verified event, once each, in arrival order. */
  readonly events: readonly WebhookEvent[];
  /**
   * Every verified delivery in arrival order, repeats included (`copy` > 1): what a handler's deduplication and
   * ordering code sees. `events` keeps each idempotency key once.
   */
  readonly deliveries: readonly ReceivedDelivery[];
  /** How many verified deliveries repeated an idempotency key already received. */
  duplicates(): number;
  /** Resolves with `deliveries` once at least `count` verified deliveries arrived; rejects after `timeout` ms. */
  waitForDeliveries(count: number, options?: WaitOptions): Promise<readonly ReceivedDelivery[]>;
  /** Deliveries answered 400 (expect none). */
  readonly rejected: readonly RejectedDelivery[];
  /** Deliveries acknowledged before the secret was known (the registration ping). */
  readonly unverified: number;
  /** The verified events of one type (every event without a type). */
  list<T extends WebhookEventType>(type: T): WebhookEventOf<T>[];
  list(): WebhookEvent[];
  /** How many verified events of one type arrived (every event without a type). */
  count(type?: WebhookEventType): number;
  /** The count of each type received: `{ 'card.frozen': 1, 'balance.debited': 2 }`. */
  counts(): Record<string, number>;
  /**
   * The first verified event of `type` that matches, already received or still to come. Rejects after
   * `timeout` ms with a message listing what did arrive, and any rejected delivery.
   */
  waitForEvent<T extends WebhookEventType>(type: T, match?: EventMatch<T>, options?: WaitOptions): Promise<WebhookEventOf<T>>;
  /**
   * Registers this receiver as a webhook endpoint of the client's account (`POST /webhooks`, subscribed to
   * `events`, default every event) and keeps the secret the answer gives. Returns the endpoint's code.
   */
  register(client: PartnerClient, options?: { events?: string[]; description?: string }): Promise<string>;
  /** Forgets the events, rejections and waits so far (between tests). */
  clear(): void;
  close(): Promise<void>;
}

/** Deep, partial equality: every key of `want` is in `have` with an equal value. */
function matches(have: unknown, want: unknown): boolean {
  if (want === null || typeof want !== 'object') return Object.is(have, want);
  if (have === null || typeof have !== 'object') return false;
  if (Array.isArray(want)) return Array.isArray(have) && want.length === have.length && want.every((w, i) => matches(have[i], w));
  return Object.entries(want).every(([key, value]) => matches((have as Record<string, unknown>)[key], value));
}

function describeMatch(match: unknown): string {
  if (match === undefined) return '';
  return typeof match === 'function' ? ' matching your predicate' : ` with data ${JSON.stringify(match)}`;
}

/** Resolves with what `find` returns once it returns something, checked now and at each wake; rejects after `timeout` ms. */
function waitUntil<T>(waiters: Set<() => void>, find: () => T | undefined, timeout: number, failure: () => string): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = find();
      if (found === undefined) return;
      done();
      resolve(found);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(failure()));
    }, timeout);
    const done = () => {
      clearTimeout(timer);
      waiters.delete(check);
    };
    waiters.add(check);
    check();
  });
}

/** A delivery verified with `secret`, or why it was refused. */
async function verifyDelivery(
  raw: Buffer,
  headers: IncomingHttpHeaders,
  secret: string,
  verify: VerifyOptions | undefined,
): Promise<{ event: WebhookEvent } | { rejected: RejectedDelivery }> {
  try {
    return { event: await verifyWebhook(raw, headers, secret, verify) };
  } catch (error) {
    let type: string | undefined;
    try {
      type = (JSON.parse(raw.toString('utf8')) as { type?: string }).type;
    } catch {
      // not JSON: verifyWebhook said so
    }
    const code = (error as { code?: string }).code ?? 'invalid_body';
    return { rejected: { code, message: (error as Error).message, ...(type ? { type } : {}) } };
  }
}

/** Listens on `host`; a POST to `path` is answered with the status `receive` gives, anything else 404. */
async function listen(
  host: string,
  port: number,
  path: string,
  receive: (raw: Buffer, headers: IncomingHttpHeaders) => Promise<number>,
): Promise<{ server: Server; port: number }> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url?.split('?')[0] !== path) {
        response.writeHead(404).end();
        return;
      }
      void receive(Buffer.concat(chunks), request.headers).then((status) => response.writeHead(status).end());
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Why waitForEvent gave up: what did arrive, the first rejection, and a missing secret. */
function noEventMessage(receiver: WebhookReceiver, type: string, match: unknown, timeout: number): string {
  const got =
    Object.entries(receiver.counts())
      .map(([t, n]) => `${t} ×${n}`)
      .join(', ') || 'nothing';
  const { rejected } = receiver;
  const bad = rejected.length ? `; ${rejected.length} delivery(ies) rejected, the first: ${rejected[0]!.message}` : '';
  const hint = receiver.secret === undefined ? ' The receiver has no secret yet: call register() or set receiver.secret.' : '';
  return `waitForEvent: no ${type} event${describeMatch(match)} arrived within ${timeout} ms; received ${got}${bad}.${hint}`;
}

/** Starts a receiver on a loopback port. Close it when the tests are done. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/webhooks';
  const events: WebhookEvent[] = [];
  const rejected: RejectedDelivery[] = [];
  const deliveries: ReceivedDelivery[] = [];
  const seen = new Map<string, number>();
  const waiters = new Set<() => void>();
  let unverified = 0;

  const receive = async (raw: Buffer, headers: IncomingHttpHeaders): Promise<number> => {
    if (receiver.secret === undefined) {
      unverified++;
      return 204;
    }
    const verified = await verifyDelivery(raw, headers, receiver.secret, options.verify);
    if ('rejected' in verified) {
      rejected.push(verified.rejected);
      return 400;
    }
    const { event } = verified;
    const key = getHeader(headers, WEBHOOK_HEADERS.idempotencyKey) ?? event.id;
    const copy = (seen.get(key) ?? 0) + 1;
    seen.set(key, copy);
    if (copy === 1) events.push(event);
    deliveries.push({ eventId: event.id, type: event.type, idempotencyKey: key, copy, answered: receiver.answer });
    for (const wake of waiters) wake();
    return receiver.answer;
  };

  const { server, port } = await listen(host, options.port ?? 0, path, receive);
  const byType = (type?: string) => (type === undefined ? [...events] : events.filter((e) => e.type === type));

  const receiver: WebhookReceiver = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    secret: options.secret,
    answer: 204,
    events,
    deliveries,
    duplicates: () => deliveries.filter((d) => d.copy > 1).length,
    waitForDeliveries(count, wait = {}) {
      const timeout = wait.timeout ?? 5_000;
      return waitUntil(
        waiters,
        () => (deliveries.length >= count ? deliveries : undefined),
        timeout,
        () => `waitForDeliveries: ${deliveries.length} of ${count} deliveries arrived within ${timeout} ms.`,
      );
    },
    rejected,
    get unverified() {
      return unverified;
    },
    list: ((type?: WebhookEventType) => byType(type)) as WebhookReceiver['list'],
    count: (type) => byType(type).length,
    counts: () => Object.fromEntries([...new Set(events.map((e) => e.type))].sort().map((t) => [t, byType(t).length])),
    waitForEvent<T extends WebhookEventType>(type: T, match?: EventMatch<T>, wait: WaitOptions = {}): Promise<WebhookEventOf<T>> {
      const timeout = wait.timeout ?? 5_000;
      const test = (event: WebhookEvent): event is WebhookEventOf<T> =>
        event.type === type &&
        (match === undefined || (typeof match === 'function' ? match(event as WebhookEventOf<T>) : matches(event.data, match)));
      return waitUntil(
        waiters,
        () => events.find(test),
        timeout,
        () => noEventMessage(receiver, type, match, timeout),
      );
    },
    async register(client, registration = {}) {
      const created = await client.call.POST('/webhooks', {
        body: {
          url: receiver.url,
          events: (registration.events ?? ['*']) as never,
          ...(registration.description ? { description: registration.description } : {}),
        },
      });
      receiver.secret = created.data.secret;
      return created.data.code;
    },
    clear() {
      events.length = 0;
      deliveries.length = 0;
      rejected.length = 0;
      seen.clear();
      unverified = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
