// What every handler and job of the sandbox can reach, and the types of the handlers (by operationId, typed
// from generated/openapi.d.ts).
import type { components, operations } from '../../../generated/openapi.js';
import type { Account, Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { Delivery } from './delivery.js';
import type { Faults } from './faults.js';
import type { Outbox } from './outbox.js';
import type { Ledger } from './ledger.js';
import type { ProductAccess } from './products.js';
import type { Scheduler } from './scheduler.js';
import type { Db } from './store.js';
import { validationError } from './errors.js';

// What a job runs with is the whole core (./scheduler.ts declares JobCore empty, so as not to import this module).
declare module './scheduler.js' {
  interface JobCore extends SandboxCore {}
}

export interface SandboxCore {
  db: Db;
  clock: Clock;
  scheduler: Scheduler;
  outbox: Outbox;
  delivery: Delivery;
  ledger: Ledger;
  accounts: Accounts;
  /** Explicit product lists of accounts (402 PLAN_UPGRADE_REQUIRED). */
  products: ProductAccess;
  /** Simulated 500/502 answers armed through the simulation API. */
  faults: Faults;
  /** Seconds of the clock an automatic (happy) outcome takes. */
  autoCompleteMs: number;
  /**
   * The address of links to pages the sandbox serves (the KYC page): the `publicUrl` option when given, else
   * `http://HOST:PORT` once the server listens.
   */
  url: string;
}

/**
 * One instance per sandbox core, made on first use: the state machines (card lifecycle, KYC, payouts ...)
 * that the handlers, the pages and the simulation API of one sandbox share.
 */
export function perCore<T>(make: (core: SandboxCore) => T): (core: SandboxCore) => T {
  const instances = new WeakMap<SandboxCore, T>();
  return (core) => {
    let instance = instances.get(core);
    if (instance === undefined) {
      instance = make(core);
      instances.set(core, instance);
    }
    return instance;
  };
}

export type OperationId = keyof operations;
type Op<Id extends keyof Ops, Ops = operations> = Ops[Id];
type PathOf<O> = O extends { parameters: { path: infer P } }
  ? [P] extends [never | undefined]
    ? Record<string, never>
    : P
  : Record<string, never>;
type QueryOf<O> = O extends { parameters: { query?: infer Q } }
  ? [Q] extends [never | undefined]
    ? Record<string, never>
    : NonNullable<Q>
  : Record<string, never>;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;
export type DataOf<Id extends keyof Ops, Ops = operations> =
  Op<Id, Ops> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

/** A call of an operation of `Ops` (the partner API's by default; the simulation API's too). */
export interface Call<Id extends keyof Ops, Ops = operations> {
  account: Account;
  /** The address the request comes from (what the IP allow-list is checked against). */
  ip: string;
  params: PathOf<Op<Id, Ops>>;
  query: QueryOf<Op<Id, Ops>>;
  body: BodyOf<Op<Id, Ops>>;
  core: SandboxCore;
}

export interface Result<Id extends keyof Ops, Ops = operations> {
  data: DataOf<Id, Ops>;
  pagination?: components['schemas']['Pagination'];
  headers?: Record<string, string>;
}

/**
 * An operation's handler. The partner API's routes call each handler inside one transaction that also keeps the
 * idempotent answer (src/sandbox/http/operation-routes.ts): a synchronous handler opens none of its own. An
 * asynchronous one is inside it only until its first await, so it opens one around each change it makes after.
 * The simulation API's routes open none: its handlers, and the rules they call, open their own.
 */
export type Handler<Id extends keyof Ops, Ops = operations> = (call: Call<Id, Ops>) => Result<Id, Ops> | Promise<Result<Id, Ops>>;
export type Handlers<Ops = operations> = { [Id in keyof Ops]?: Handler<Id, Ops> };

/** A page of a list: `{ data, pagination }` from a total and the rows of the page. */
export function page<T>(
  rows: T[],
  total: number,
  query: { page?: number; limit?: number },
): { data: T[]; pagination: components['schemas']['Pagination'] } {
  const limit = query.limit ?? 20;
  return { data: rows, pagination: { page: query.page ?? 1, limit, total, pages: Math.ceil(total / limit) } };
}

/** LIMIT and OFFSET of a page. */
export function pageWindow(query: { page?: number; limit?: number }): [number, number] {
  const limit = query.limit ?? 20;
  return [limit, ((query.page ?? 1) - 1) * limit];
}

/**
 * `created_from` (inclusive) and `created_to` (exclusive) of a list (Contract 1.1), as clock milliseconds;
 * the whole range when absent. A value that is not a date-time is refused with 422 naming it.
 */
export function createdRange(query: object): [number, number] {
  const q = query as { created_from?: unknown; created_to?: unknown };
  const read = (field: 'created_from' | 'created_to', fallback: number): number => {
    const value = q[field];
    if (value === undefined) return fallback;
    const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms))
      throw validationError(`${field} must be a date-time (ISO 8601).`, [{ field, message: 'must match format "date-time" (format)' }]);
    return ms;
  };
  return [read('created_from', 0), read('created_to', Number.MAX_SAFE_INTEGER)];
}
