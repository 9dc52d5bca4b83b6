// Authentication and the rate limit: the bearer key of a request, checked against the client's key rule
// (src/client/api-key.ts), its account (known, not revoked), the account's IP allow-list, and the per-key
// rate limit with its `X-RateLimit-*` headers. The simulation API reads its key with `presentedKey` too.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_RULE, apiKeyMode } from '../../client/api-key.js';
import { planRateLimit } from '../core/accounts.js';
import type { SandboxCore } from '../core/context.js';
import { apiError } from '../core/errors.js';
import { RateLimiter } from '../core/ratelimit.js';
import type { RouteConfig } from './request-state.js';

/** The API key of `Authorization: Bearer <key>`, or undefined. */
function bearerToken(header: string | undefined): string | undefined {
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
}

/**
 * The well-formed API key a request presents, and its mode; throws AUTHENTICATION_REQUIRED (with `askFor`,
 * the message) without one, and AUTHENTICATION_FAILED for a key that breaks the key rule.
 */
export function presentedKey(request: FastifyRequest, askFor: string): { token: string; mode: 'test' | 'live' } {
  const header = request.headers.authorization;
  if (header === undefined || header === '') throw apiError('AUTHENTICATION_REQUIRED', askFor, null);
  const token = bearerToken(header);
  const mode = token === undefined ? undefined : apiKeyMode(token);
  if (!token || mode === undefined) {
    throw apiError(
      'AUTHENTICATION_FAILED',
      `The API key is invalid: send \`Authorization: Bearer <API_KEY>\` with a key that is ${API_KEY_RULE}.`,
      null,
    );
  }
  return { token, mode };
}

export interface AuthOptions {
  core: SandboxCore;
  rateLimit: boolean;
}

/**
 * Requests the sandbox makes to itself through `server.inject` (the steps of a fixture) carry this header with this
 * process's random value, and are not counted by the rate limit: that is the partner's budget, and a fixture of a
 * hundred customers would spend it. No client can send it: the value is never given out.
 */
export const INTERNAL_REQUEST = { header: 'x-sandbox-internal', value: randomBytes(16).toString('hex') } as const;

/**
 * Sets `request.sandbox` on every request, then checks the key of each operation of the partner API.
 * The hook takes `done` rather than returning a promise: a request then goes through it without a promise and
 * a microtask. A throw is answered by the error handler either way.
 */
export const authentication = fp<AuthOptions>(
  async (app: FastifyInstance, { core, rateLimit }) => {
    const limiter = new RateLimiter();
    app.addHook('onRequest', (request, reply, done) => {
      const route = request.routeOptions.config as RouteConfig;
      const token = bearerToken(request.headers.authorization);
      request.sandbox = { mode: (token === undefined ? undefined : apiKeyMode(token)) ?? 'test', route };
      if (!route.operation) return done(); // not an operation of the API (404, the simulation API)
      const key = presentedKey(request, 'Send your API key as `Authorization: Bearer <API_KEY>`.');
      const account = core.accounts.known(key.token);
      if (!account)
        throw apiError('AUTHENTICATION_FAILED', 'This API key is not known to the sandbox (it accepts only the keys of its config).', null);
      request.sandbox.account = account;
      if (account.revoked) throw apiError('AUTHENTICATION_FAILED', 'This API key has been revoked.', null);
      if (!account.allowedIps.includes(request.ip)) {
        throw apiError('IP_NOT_ALLOWED', `Requests from ${request.ip} are not allowed for this key.`, null);
      }
      if (rateLimit && request.headers[INTERNAL_REQUEST.header] !== INTERNAL_REQUEST.value) {
        const state = limiter.hit(account.apiKey, account.rateLimit ?? planRateLimit(account.plan), core.clock.of(account.id).now());
        reply.header('X-RateLimit-Limit', String(state.limit));
        reply.header('X-RateLimit-Remaining', String(state.remaining));
        reply.header('X-RateLimit-Reset', String(state.reset));
        if (state.exceeded) {
          throw apiError('RATE_LIMIT_EXCEEDED', `Rate limit of ${state.limit} requests per minute reached for this key.`, null, {
            headers: { 'Retry-After': String(state.retryAfter) },
          });
        }
      }
      done();
    });
  },
  { name: 'sandbox-authentication' },
);
