// What a refused request must leave as it was, read back before and after it (real mode): the resource the
// request names (or the list it would add to), the ops balances, and the events the operation emits (its
// `x-events` in the contract).
import { isObject, type JsonObject } from '../../lib/pointer.ts';
import { isReferenceParam } from '../contract.ts';
import { resourceAt } from '../resources.ts';
import { SETUP_GRAPH } from '../../../src/setup/graph.ts';
import type { CheckContext } from './context.ts';
import { read, type RequestSpec } from './request.ts';

export interface Read {
  /** What it reads, for the report: `GET /cards/{code}`. */
  label: string;
  template: string;
  params: Map<string, string>;
  query?: URLSearchParams;
  /** What of the answer must not change. */
  pick(data: unknown, body: unknown): unknown;
}

export type Snapshot = Map<string, string>;

const idOf = (item: unknown) => (isObject(item) ? (item.code ?? item.customer_code ?? item.id ?? item.product_id ?? null) : null);

/** A record as it is; a list as the codes of its first page and its total. */
const recordOrList = (data: unknown, body: unknown) =>
  Array.isArray(data)
    ? { codes: data.map(idOf), total: isObject(body) && isObject(body.pagination) ? body.pagination.total : data.length }
    : data;

/**
 * The reads that show whether a request to `req`'s operation changed anything: the nearest readable path at or
 * above it (`/cards/{code}` for a withdrawal, `/cards` for a new card), else the resource its last path
 * parameter names (`/customers/{customerCode}` for a KYC link); `GET /balance`; and the event list, filtered to
 * the events the operation emits. None for a GET.
 */
export function readsFor(ctx: CheckContext, req: RequestSpec): Read[] {
  if (req.method === 'GET') return [];
  const reads: Read[] = [];
  const segments = req.template.split('/');
  let resource: { template: string; params: Map<string, string> } | undefined;
  for (let n = segments.length; n > 1 && !resource; n--) {
    const template = segments.slice(0, n).join('/');
    if (ctx.validator.operation('GET', template)) resource = { template, params: paramsOf(template, req.params) };
  }
  const names = [...req.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const last = names.at(-1);
  if (!resource && last && isReferenceParam(ctx, req.method, req.template, last)) {
    const prefix = segments.slice(0, segments.indexOf(`{${last}}`) + 1).join('/');
    const key = resourceAt(prefix) ?? SETUP_GRAPH.references[last];
    const template = key ? SETUP_GRAPH.resources[key].read : undefined;
    const param = template?.match(/\{([^}]+)\}$/)?.[1];
    if (template && param && ctx.validator.operation('GET', template))
      resource = { template, params: new Map([[param, req.params.get(last)!]]) };
  }
  if (resource) reads.push({ label: `GET ${resource.template}`, ...resource, pick: recordOrList });
  if (ctx.validator.operation('GET', '/balance')) {
    reads.push({
      label: 'GET /balance',
      template: '/balance',
      params: new Map(),
      pick: (data) => (Array.isArray(data) ? data.map((b) => (isObject(b) ? [b.type, b.balance] : b)) : data),
    });
  }
  const emits = ctx.validator.operation(req.method, req.template)?.operation['x-events'];
  if (Array.isArray(emits) && emits.length && ctx.validator.operation('GET', '/events')) {
    const types = new Set(emits.map(String));
    reads.push({
      label: `GET /events (${[...types].join(', ')})`,
      template: '/events',
      params: new Map(),
      query: new URLSearchParams({ limit: '100' }),
      pick: (data) => (Array.isArray(data) ? data.filter((e) => isObject(e) && types.has(String(e.type))).map(idOf) : data),
    });
  }
  return reads;
}

/** The parameters of `template` among those of a longer path's. */
function paramsOf(template: string, params: Map<string, string>): Map<string, string> {
  return new Map([...template.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, params.get(m[1]!) ?? '']));
}

/** The reads' answers, with the key given (the suite's by default). */
export async function snapshot(ctx: CheckContext, reads: Read[], key = ctx.config.apiKey): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const r of reads) {
    const reply = await read(ctx, r.template, r.params, key, r.query);
    const body = reply.body as JsonObject | undefined;
    out.set(r.label, `${reply.status} ${JSON.stringify(r.pick(isObject(body) ? body.data : undefined, body))}`);
  }
  return out;
}

/** What differs between two snapshots: `GET /balance: [...] -> [...]`. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  const short = (s: string | undefined) => (s && s.length > 160 ? `${s.slice(0, 157)}...` : s);
  for (const [label, value] of after) if (before.get(label) !== value) out.push(`${label}: ${short(before.get(label))} -> ${short(value)}`);
  return out;
}
