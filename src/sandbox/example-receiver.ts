// The receiver of the contract's example webhook urls, for a sandbox seeded with the examples (`--seed examples`).
// The examples of `POST /webhooks` and `PATCH /webhooks/{code}` use `https://hooks.acme-partner.test/…`, a
// reserved `.test` domain that nothing answers, so their ping would fail. A seeded sandbox routes the origins
// of those example urls (a webhook route, as `webhook_routes` does) to this loopback receiver, which answers
// every ping and delivery with 204: the examples then work as they are.
import { http } from '../node-http.js';
import type { AddressInfo } from 'node:net';
import type { WebhookRouteMap } from './core/webhook-routes.js';
import { requestExamples } from './request-examples.js';

export interface ExampleReceiver {
  /** Each example origin (`https://hooks.acme-partner.test`) -> the receiver's loopback url. */
  routes: WebhookRouteMap;
  close(): Promise<void>;
}

/** The origins of the webhook urls in the request examples of the operations that ping (create, update). */
export function exampleWebhookOrigins(): string[] {
  const urls = [...requestExamples('POST', '/webhooks'), ...requestExamples('PATCH', '/webhooks/{code}')].map((example) => example.url);
  return [...new Set(urls.filter((url): url is string => typeof url === 'string').map((url) => new URL(url).origin))].sort();
}

/** Starts the receiver on a free port of 127.0.0.1, with a route from each example origin to it. */
export async function startExampleReceiver(): Promise<ExampleReceiver> {
  const server = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    routes: Object.fromEntries(exampleWebhookOrigins().map((origin) => [origin, target])),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
