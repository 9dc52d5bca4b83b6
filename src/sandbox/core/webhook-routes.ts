// Webhook routes: an endpoint keeps the `https://` url the contract requires, and the sandbox delivers to a
// loopback `http://` receiver instead. `"webhook_routes": { "https://hooks.example.test": "http://127.0.0.1:8080" }`
// sends the ping and the events of `https://hooks.example.test/path` to `http://127.0.0.1:8080/path`.
import { LOOPBACK_HTTP_URL } from './contract.js';

export type WebhookRouteMap = Record<string, string>;

/** Checks a `webhook_routes` object; throws an Error naming the first problem. */
export function checkWebhookRoutes(routes: unknown): WebhookRouteMap {
  if (!routes || typeof routes !== 'object' || Array.isArray(routes))
    throw new Error('config webhook_routes: must be an object of "https://…": "http://127.0.0.1:…"');
  for (const [from, to] of Object.entries(routes)) {
    if (!/^https:\/\/[^/?#]+/.test(from)) throw new Error(`config webhook_routes: "${from}" is not an https:// url`);
    if (typeof to !== 'string' || !to.startsWith('http://') || !new RegExp(LOOPBACK_HTTP_URL).test(to)) {
      throw new Error(`config webhook_routes["${from}"]: must be a loopback http:// url (127.0.0.1, localhost or [::1])`);
    }
  }
  return routes as WebhookRouteMap;
}

/** The url the sandbox posts to for an endpoint's url: the route's target when a route's prefix matches. */
export function routeWebhookUrl(routes: WebhookRouteMap, url: string): string {
  for (const [from, to] of Object.entries(routes)) {
    const prefix = from.replace(/\/$/, '');
    if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`))
      return to.replace(/\/$/, '') + url.slice(prefix.length);
  }
  return url;
}
