// What the server knows of a request while it goes through the plugins: its operation (the route's config),
// the account of its key, its mode, and its idempotency slot. Set by the authentication plugin first.
import type { Account } from '../core/accounts.js';
import type { OperationInfo } from '../core/contract.js';

export interface RouteConfig {
  operation?: OperationInfo;
  /** The operation was called at the wrong base address (`/v1` for a gift card operation). */
  wrongHost?: boolean;
}

export interface RequestState {
  account?: Account;
  mode: 'test' | 'live';
  /** The route's config, read once: fastify builds `request.routeOptions` anew at each read. */
  route: RouteConfig;
  idempotency?: { key: string; fingerprint: string; end: () => void; replayed: boolean; kept?: boolean };
}

declare module 'fastify' {
  interface FastifyRequest {
    sandbox: RequestState;
  }
}

/** The state of a request no plugin has seen yet (one answered before routing: 404, a body too large). */
export const unroutedState = (): RequestState => ({ mode: 'test', route: {} });
