// List semantics, for every list operation of the contract (a GET whose 200 answer is the PaginatedEnvelope):
// - pagination: walked with a small `limit` so that it pages, `total` and `pages` agree with the items
//   (pages = ceil(total / limit), every page but the last full, the last one holding the rest, no item on two
//   pages, and the pages together holding `total` items); an answer well-shaped against the schema can still
//   lie in its counts, which only reading the items shows;
// - filters: every equality filter of the operation (its query parameters but the page, the limit and the date
//   range) returns only items whose field of the same name has the value, and finds the record the run set up
//   that has it. The value is read from that record, so a filter ignored by the server shows as others' items
//   or as the run's own record missing. Only records of the run's set-up are used, never another's; where a
//   list holds none of them, a filter naming a record of the set-up takes its code and only the matching is
//   checked.
import { SETUP_GRAPH, type ResourceKey } from '../../../src/setup/graph.ts';
import { isObject, type JsonObject } from '../../lib/pointer.ts';
import { operationOf } from '../contract.ts';
import { bodyText } from '../http.ts';
import { label } from '../resources.ts';
import { fillTemplate } from '../transaction.ts';
import { record, type CheckContext } from './context.ts';
import { copyRequest, parametersIn, send, validRequest, type RequestSpec } from './request.ts';

export const PAGINATION = 'pagination';
export const FILTERS = 'list filter';

/** At most this many pages are read of one list (the first ones and the last). */
const MAX_PAGES = 5;
/** The pages a list is cut into when it has enough items. */
const TARGET_PAGES = 3;
/** Query parameters that are not equality filters: paging, and the date range (checked by neither). */
const NOT_FILTERS = new Set(['page', 'limit', 'created_from', 'created_to']);

export interface Page {
  request: RequestSpec;
  status: number;
  body: unknown;
  curl: string;
  data: unknown[];
  pagination?: { page: number; limit: number; total: number; pages: number };
}

/** The list operations checked: a GET answering the PaginatedEnvelope, that takes `page` and `limit`. */
export function listOperations(ctx: CheckContext) {
  return ctx.operations.filter((op) => {
    if (op.method !== 'GET') return false;
    const names = parametersIn(ctx, op.method, op.path, 'query').map((p) => p.name);
    const ok = operationOf(ctx, op.method, op.path)?.response(200)?.node;
    return names.includes('page') && names.includes('limit') && JSON.stringify(ok ?? {}).includes('/PaginatedEnvelope"');
  });
}

/** The graph's resource listed at a path, if any. */
export const listedAt = (template: string): ResourceKey | undefined =>
  (Object.keys(SETUP_GRAPH.resources) as ResourceKey[]).find((k) => SETUP_GRAPH.resources[k].list?.path === template);

/** An item's identity: the list's id fields where the graph knows them, else the item itself. */
export function identity(template: string, item: unknown): string {
  const key = listedAt(template);
  const fields = key ? SETUP_GRAPH.resources[key].list!.id : ['code', 'id'];
  if (isObject(item)) for (const f of fields) if (typeof item[f] === 'string') return item[f] as string;
  return JSON.stringify(item);
}

/** True when the list operation is read a page at a time (`page` and `limit`), like those `listOperations` returns. */
export const isPaged = (ctx: CheckContext, template: string): boolean => listOperations(ctx).some((op) => op.path === template);

/** A page of the list (`page` and `limit` set when given; a list that is not paged is read as it is). */
export async function getPage(ctx: CheckContext, base: RequestSpec, page?: number, limit?: number): Promise<Page> {
  const request = copyRequest(base);
  if (page !== undefined) request.query.set('page', String(page));
  if (limit !== undefined) request.query.set('limit', String(limit));
  const { reply, curl } = await send(ctx, request);
  const body = reply.body;
  const data = isObject(body) && Array.isArray(body.data) ? body.data : [];
  const p = isObject(body) && isObject(body.pagination) ? body.pagination : undefined;
  const pagination =
    p && [p.page, p.limit, p.total, p.pages].every((n) => typeof n === 'number')
      ? { page: p.page as number, limit: p.limit as number, total: p.total as number, pages: p.pages as number }
      : undefined;
  return { request, status: reply.status, body, curl, data, pagination };
}

/** The failure of a page: what was asked, what came, and the curl that replays it. */
export function fail(ctx: CheckContext, group: string, name: string, page: Page, problem: string): void {
  record(ctx, {
    group,
    name,
    outcome: 'failed',
    message: `${problem}; GET ${fillTemplate(page.request.template, page.request.params)}?${page.request.query} answered ${page.status} ${bodyText(page.body, 400)}`,
    reproducer: page.curl,
  });
}

/** A page that is not a 200 with a pagination object is a failure; the reason, or undefined. */
export function unreadable(page: Page, paged = true): string | undefined {
  if (page.status !== 200) return `answered ${page.status}, expected 200`;
  if (!isObject(page.body) || !Array.isArray(page.body.data)) return 'the answer has no data array';
  if (paged && !page.pagination) return 'the answer has no pagination { page, limit, total, pages }';
  return undefined;
}

/** The request of a list operation, or undefined (a skipped result says why). */
export function listRequest(ctx: CheckContext, group: string, template: string): RequestSpec | undefined {
  const request = validRequest(ctx, 'GET', template);
  if (typeof request !== 'string') return request;
  record(ctx, { group, name: `GET ${template}`, outcome: 'skipped', message: request });
  return undefined;
}

/** The problem of one walk of a list's pages, with the page that shows it, or undefined when they agree. */
async function walk(ctx: CheckContext, base: RequestSpec): Promise<{ page: Page; problem: string } | undefined> {
  const first = await getPage(ctx, base, 1, 1);
  const bad = unreadable(first);
  if (bad) return { page: first, problem: bad };
  const total = first.pagination!.total;
  const limit = Math.min(100, Math.max(1, Math.ceil(total / TARGET_PAGES)));
  const pages = Math.ceil(total / limit);
  const numbers = pages <= MAX_PAGES ? [...Array(pages).keys()].map((i) => i + 1) : [1, 2, 3, 4, pages];
  // The page after the last is empty (and still says how many there are).
  numbers.push(pages + 1);
  const seen = new Map<string, number>();
  for (const n of numbers) {
    const page = n === 1 && limit === 1 ? first : await getPage(ctx, base, n, limit);
    const unread = unreadable(page);
    if (unread) return { page, problem: unread };
    const p = page.pagination!;
    if (p.total !== total) return { page, problem: `total ${p.total} on page ${n}, ${total} on page 1` };
    if (p.limit !== limit || p.page !== n)
      return { page, problem: `pagination.page ${p.page}, limit ${p.limit}: expected ${n} and ${limit}, as asked` };
    if (p.pages !== pages)
      return { page, problem: `pages ${p.pages} with total ${total} and limit ${limit}: expected ceil(total / limit) = ${pages}` };
    const expected = n < pages ? limit : n === pages ? total - (pages - 1) * limit : 0;
    if (page.data.length !== expected)
      return {
        page,
        problem: `page ${n} of ${pages} holds ${page.data.length} items, expected ${expected} (total ${total}, limit ${limit})`,
      };
    for (const item of page.data) {
      const id = identity(base.template, item);
      if (seen.has(id)) return { page, problem: `item ${id} is on page ${seen.get(id)} and page ${n}` };
      seen.set(id, n);
    }
  }
  if (pages <= MAX_PAGES && seen.size !== total)
    return { page: first, problem: `the pages hold ${seen.size} items together, total says ${total}` };
  return undefined;
}

export async function checkPagination(ctx: CheckContext): Promise<void> {
  for (const op of listOperations(ctx)) {
    const name = `GET ${op.path}`;
    const base = listRequest(ctx, PAGINATION, op.path);
    if (!base) continue;
    // Records the server makes meanwhile (events set off by the set-up) may move the counts: a walk that
    // disagrees is tried again once before it is reported.
    const found = (await walk(ctx, base)) && (await walk(ctx, base));
    if (found) fail(ctx, PAGINATION, name, found.page, found.problem);
    else record(ctx, { group: PAGINATION, name, outcome: 'passed' });
  }
}

/** The run's own record of a list, read at the resource's read path; undefined with the reason when there is none. */
async function ownRecord(ctx: CheckContext, template: string): Promise<{ code: string; item: JsonObject } | string> {
  const key = listedAt(template);
  if (!key) return `the set-up graph (src/setup/graph.ts) lists no resource at ${template}`;
  const code = ctx.state.resources.get(key);
  if (!code) return `needs a ${label(key)}: ${ctx.state.missing.get(key) ?? 'not set up'}`;
  const read = SETUP_GRAPH.resources[key].read;
  const param = read?.match(/\{([^}]+)\}$/)?.[1];
  if (!read || !param || !ctx.validator.operation('GET', read)) return `a ${label(key)} has no read operation`;
  const request = validRequest(ctx, 'GET', read);
  if (typeof request === 'string') return request;
  request.params.set(param, code);
  const { reply } = await send(ctx, request);
  const data = isObject(reply.body) ? reply.body.data : undefined;
  if (reply.status !== 200 || !isObject(data)) return `GET ${read} of the run's ${label(key)} answered ${reply.status}`;
  return { code, item: data };
}

export async function checkFilters(ctx: CheckContext): Promise<void> {
  for (const op of listOperations(ctx)) {
    const filters = parametersIn(ctx, 'GET', op.path, 'query').filter((p) => typeof p.name === 'string' && !NOT_FILTERS.has(p.name));
    if (!filters.length) continue;
    const own = await ownRecord(ctx, op.path);
    for (const filter of filters) {
      const field = filter.name as string;
      const name = `GET ${op.path} ${field}`;
      // The value: the run's own record's; where the list holds none of the run's (the set-up makes no wallet),
      // a filter naming a record of the set-up (`customer_code`) still takes the run's, and only the matching
      // of what comes is checked.
      const referenced = SETUP_GRAPH.references[field];
      const value = typeof own === 'string' ? referenced && ctx.state.resources.get(referenced) : own.item[field];
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        const why = typeof own === 'string' ? own : `the run's record has no value in ${field} to filter by`;
        record(ctx, { group: FILTERS, name, outcome: 'skipped', message: why });
        continue;
      }
      const ownCode = typeof own === 'string' ? undefined : own.code;
      const base = listRequest(ctx, FILTERS, op.path);
      if (!base) continue;
      base.query.set(field, String(value));
      const subject = `${name}=${value}`;
      let problem: string | undefined;
      let shown: Page | undefined;
      let found = false;
      for (let n = 1; n <= MAX_PAGES && !problem; n++) {
        const page = await getPage(ctx, base, n, 100);
        shown = page;
        problem = unreadable(page);
        if (problem) break;
        const other = page.data.find((item) => !isObject(item) || item[field] !== value);
        if (other !== undefined) {
          problem = `item ${identity(op.path, other)} has ${field} ${JSON.stringify(isObject(other) ? other[field] : other)}, filtered by ${value}`;
          break;
        }
        found ||= page.data.some((item) => identity(op.path, item) === ownCode);
        if (n >= page.pagination!.pages) {
          if (ownCode && !found) problem = `the run's own record ${ownCode}, whose ${field} is ${value}, is not listed`;
          break;
        }
      }
      if (problem) fail(ctx, FILTERS, subject, shown!, problem);
      else
        record(ctx, {
          group: FILTERS,
          name: subject,
          outcome: 'passed',
          ...(ownCode ? {} : { message: `only what came was checked: ${typeof own === 'string' ? own : ''}, so none to find` }),
        });
    }
  }
}
