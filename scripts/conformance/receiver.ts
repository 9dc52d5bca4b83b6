// The webhook receiver a conformance run hosts: it records every delivery (path, headers, raw body, time of
// arrival) and answers as the workflows need, then checks the events a workflow found in the event list: each
// arrived, signed with the endpoint's secret within the timestamp tolerance (the toolkit's verifyWebhook), with
// an X-Service-Idempotency-Key that is the same on every delivery of that event and differs from every other
// event's, and with a body valid against the event's schema in the contract.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { verifyWebhook } from '../../src/webhooks/index.ts';
import { bundleAjv } from '../lib/schema.ts';
import { webhookPing } from '../../src/contract/bundle.ts';
import type { JsonObject } from '../lib/pointer.ts';

/** Paths the receiver answers differently (appended to the base url the run gives the server). */
export const RECEIVER_PATHS = {
  /** Answers every request with 500, the registration ping included. */
  refuse: '/refuse',
  /** Answers the registration ping (the contract's `x-ping`) with 204 and every event with 500. */
  flaky: '/flaky',
} as const;

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Unix milliseconds of arrival. */
  receivedAt: number;
}

export interface Receiver {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  deliveries: ReceivedDelivery[];
  close(): Promise<void>;
}

function answer(path: string, body: string, pingType: string): number {
  if (path.endsWith(RECEIVER_PATHS.refuse)) return 500;
  if (path.endsWith(RECEIVER_PATHS.flaky)) {
    try {
      return (JSON.parse(body) as { type?: unknown }).type === pingType ? 204 : 500;
    } catch {
      return 500;
    }
  }
  return 204;
}

/** The ping's type in the contract the suite checks against (`x-ping`, see src/contract/bundle.ts). */
export const pingTypeOf = (document: JsonObject): string => webhookPing(document).type;

/** Starts a receiver on a free loopback port (or `port`); `pingType` is the contract's (pingTypeOf). */
export async function startReceiver(port: number, pingType: string): Promise<Receiver> {
  const deliveries: ReceivedDelivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://receiver').pathname;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      deliveries.push({ path, headers, body, receivedAt: Date.now() });
      res.writeHead(answer(path, body, pingType)).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One event a workflow found in the event list, and what its deliveries showed. */
export interface EventCheck {
  id: string;
  type: string;
  /** `passed` when it arrived and every delivery of it passed; the problems otherwise. */
  outcome: 'passed' | 'failed';
  problems: string[];
}

const EVENTS_ID = 'https://conformance.test/openapi.json';

/** Checks deliveries against the contract's event schemas (`components.schemas.<event type>` of the bundle). */
export class EventChecker {
  private readonly ajv;
  constructor(bundle: JsonObject) {
    this.ajv = bundleAjv(bundle, EVENTS_ID);
  }

  private schema(type: string): ValidateFunction | undefined {
    return this.ajv.getSchema(`${EVENTS_ID}#/components/schemas/${encodeURIComponent(type)}`);
  }

  /**
   * Checks each event against the deliveries received under `pathPrefix` (the run's own endpoints), with the
   * endpoint secrets known to the run. An event arrives at each endpoint subscribed to it; every delivery of it
   * must pass.
   */
  async check(
    events: { id: string; type: string }[],
    deliveries: readonly ReceivedDelivery[],
    secrets: readonly string[],
    pathPrefix: string,
  ): Promise<EventCheck[]> {
    const ours = deliveries.filter((d) => d.path.startsWith(pathPrefix)).map((d) => ({ d, id: eventId(d.body) }));
    const keys = new Map<string, Set<string>>();
    for (const { d, id } of ours)
      if (id) (keys.get(id) ?? keys.set(id, new Set()).get(id)!).add(d.headers['x-service-idempotency-key'] ?? '');
    const results: EventCheck[] = [];
    for (const event of events) {
      const problems: string[] = [];
      const received = ours.filter((o) => o.id === event.id).map((o) => o.d);
      if (received.length === 0) problems.push(`${event.type} ${event.id}: never arrived at the receiver`);
      for (const delivery of received) {
        try {
          // The tolerance is measured at the time of arrival, as a receiver verifying at once would.
          await verifyWebhook(delivery.body, delivery.headers, [...secrets], { now: () => Math.floor(delivery.receivedAt / 1000) });
        } catch (error) {
          problems.push(`${event.type} ${event.id}: delivery to ${delivery.path} not verified: ${(error as Error).message}`);
        }
        const body = JSON.parse(delivery.body) as { type?: string };
        if (body.type !== event.type) problems.push(`${event.type} ${event.id}: delivered with type ${String(body.type)}`);
        const validate = this.schema(event.type);
        if (!validate) problems.push(`${event.type}: no schema in the contract`);
        else if (!validate(body)) problems.push(`${event.type} ${event.id}: payload invalid: ${this.ajv.errorsText(validate.errors)}`);
      }
      const own = keys.get(event.id) ?? new Set<string>();
      if (own.has('')) problems.push(`${event.type} ${event.id}: a delivery without X-Service-Idempotency-Key`);
      if (own.size > 1) problems.push(`${event.type} ${event.id}: deliveries with different idempotency keys (${[...own].join(', ')})`);
      for (const key of own) {
        const shared = [...keys].filter(([id, set]) => id !== event.id && set.has(key)).map(([id]) => id);
        if (key && shared.length) problems.push(`${event.type} ${event.id}: idempotency key ${key} also used by ${shared.join(', ')}`);
      }
      results.push({ id: event.id, type: event.type, outcome: problems.length ? 'failed' : 'passed', problems });
    }
    return results;
  }
}

function eventId(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
