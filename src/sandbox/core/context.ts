// What every handler and job of the sandbox can reach, and the types of the handlers (by operationId, typed
// from generated/openapi.d.ts).
import type { components, operations } from '../../../generated/openapi.js';
import type { Account, Accounts } from './accounts.js';
import type { Clock } from './clock.js';
import type { Delivery } from './delivery.js';
import type { Outbox } from './events.js';
import type { Ledger } from './ledger.js';
import type { Scheduler } from './scheduler.js';
import type { Db } from './store.js';

export interface SandboxCore {
  db: Db;
  clock: Clock;
  scheduler: Scheduler;
  outbox: Outbox;
  delivery: Delivery;
  ledger: Ledger;
  accounts: Accounts;
  /** Seconds of the clock an automatic (happy) outcome takes. */
  autoCompleteMs: number;
}

export type OperationId = keyof operations;
type Op<Id extends OperationId> = operations[Id];
type PathOf<O> = O extends { parameters: { path: infer P } } ? ([P] extends [never | undefined] ? Record<string, never> : P) : Record<string, never>;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [never | undefined] ? Record<string, never> : NonNullable<Q>) : Record<string, never>;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;
export type DataOf<Id extends OperationId> = Op<Id> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;

export interface Call<Id extends OperationId> {
  account: Account;
  params: PathOf<Op<Id>>;
  query: QueryOf<Op<Id>>;
  body: BodyOf<Op<Id>>;
  core: SandboxCore;
}

export interface Result<Id extends OperationId> {
  data: DataOf<Id>;
  pagination?: components['schemas']['Pagination'];
  headers?: Record<string, string>;
}

export type Handler<Id extends OperationId> = (call: Call<Id>) => Result<Id> | Promise<Result<Id>>;
export type Handlers = { [Id in OperationId]?: Handler<Id> };

/** A page of a list: `{ data, pagination }` from a total and the rows of the page. */
export function page<T>(rows: T[], total: number, query: { page?: number; limit?: number }): { data: T[]; pagination: components['schemas']['Pagination'] } {
  const limit = query.limit ?? 20;
  return { data: rows, pagination: { page: query.page ?? 1, limit, total, pages: Math.ceil(total / limit) } };
}

/** LIMIT and OFFSET of a page. */
export function pageWindow(query: { page?: number; limit?: number }): [number, number] {
  const limit = query.limit ?? 20;
  return [limit, ((query.page ?? 1) - 1) * limit];
}
