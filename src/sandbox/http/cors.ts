// Cross-origin requests from a browser page (the docs site's "Try it" console, a partner's own web app under
// development): the sandbox answers CORS for the origins it trusts and for no other.
// - Trusted by default: loopback pages, `http://127.0.0.1:<any port>`, `http://localhost:<any port>` and
//   `http://[::1]:<any port>` (the docs of `npm start` on 8080, a dev server on 5173). A page on the reader's
//   own machine can reach the sandbox anyway; a page of the internet cannot, unless the sandbox names it
//   (`corsOrigins`, `--cors-origin <origin>`): the sandbox holds a partner's test data and sends webhooks.
// - A trusted origin's request gets `Access-Control-Allow-Origin` (its origin, never `*`), `Vary: Origin`, and
//   `Access-Control-Expose-Headers` with every response header the two documents declare (Idempotent-Replayed,
//   X-RateLimit-*, Retry-After ...): read from the contract, not listed here.
// - A preflight (OPTIONS with Origin and Access-Control-Request-Method) from a trusted origin is answered here,
//   204 with the methods and headers it asks for, before authentication (a preflight carries no key) and before
//   the 404/405 answers. Any other OPTIONS, and a preflight from an untrusted origin, goes on as before: the
//   envelope's 404 or 405, without CORS headers, so the browser refuses the call.
// - Chrome's Private Network Access: a trusted origin that asks (`Access-Control-Request-Private-Network`) is
//   allowed, so a page named with `--cors-origin` can reach a sandbox on loopback.
// Written here rather than with @fastify/cors: that plugin adds a catch-all OPTIONS route and answers a
// malformed preflight with text/plain, which would replace the envelope's 404/405 for every OPTIONS request.
// Answers that never reach fastify (unroutable.ts: what Node's parser refuses) carry no CORS headers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { JsonObject } from '../../contract/json.js';
import { contractModel } from '../../contract/model.js';

export interface CorsOptions {
  /** Origins trusted besides loopback ones: `https://docs.example.test` (scheme, host and port; no path). */
  origins?: string[];
  /** The documents whose response headers a page may read (the partner API's and the simulation API's). */
  documents: JsonObject[];
}

/** `http://127.0.0.1:<port>`, `http://localhost:<port>`, `http://[::1]:<port>`, the port optional. */
const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

/** The methods a preflight may be granted: every method of an operation. */
const METHODS = 'GET, POST, PUT, PATCH, DELETE';

/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE_S = 600;

/** An origin as a browser sends it (`scheme://host[:port]`, lower case); throws on anything else. */
export function normaliseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`"${origin}" is not an origin: give scheme, host and port, as https://docs.example.test`);
  }
  if (!/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, '').toLowerCase() || url.pathname !== '/') {
    throw new Error(`"${origin}" is not an origin: give scheme, host and port only, as https://docs.example.test`);
  }
  return url.origin;
}

/** Whether a page of `origin` may call the sandbox: loopback, or one of `extra`. */
export function trustedOrigin(origin: string | undefined, extra: ReadonlySet<string>): origin is string {
  return typeof origin === 'string' && (LOOPBACK_ORIGIN.test(origin) || extra.has(origin));
}

/** Every response header name the documents declare, in their own spelling, once each. */
export function declaredResponseHeaders(documents: JsonObject[]): string[] {
  const names = new Map<string, string>();
  for (const doc of documents) {
    for (const operation of contractModel(doc).operations) {
      for (const response of operation.responses) {
        for (const name of response.headerNames) if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
      }
    }
  }
  return [...names.values()];
}

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && typeof request.headers['access-control-request-method'] === 'string';
}

export const cors = fp(
  async (app: FastifyInstance, options: CorsOptions) => {
    const extra = new Set((options.origins ?? []).map(normaliseOrigin));
    // Read at the first cross-origin answer, not at the start: walking both documents is a start's cost that the
    // sandboxes of most test suites, which no page calls, would pay for nothing.
    let exposed: string | undefined;
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
      const origin = request.headers.origin;
      // Whatever the origin, the answer depends on it: a cache must not give one origin's answer to another.
      reply.header('Vary', 'Origin');
      if (!trustedOrigin(origin, extra)) return done();
      reply.header('Access-Control-Allow-Origin', origin);
      if (!isPreflight(request)) {
        exposed ??= declaredResponseHeaders(options.documents).join(', ');
        reply.header('Access-Control-Expose-Headers', exposed);
        return done();
      }
      const asked = request.headers['access-control-request-headers'];
      reply.header('Access-Control-Allow-Methods', METHODS);
      if (typeof asked === 'string' && asked !== '') reply.header('Access-Control-Allow-Headers', asked);
      reply.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
      if (request.headers['access-control-request-private-network'] === 'true')
        reply.header('Access-Control-Allow-Private-Network', 'true');
      reply.code(204).send();
    });
  },
  { name: 'sandbox-cors' },
);
