// The documented order of every list: each list operation's description states it (`**Order: most recent
// first** (`created_at` descending, then `code` descending ...)`, read by contract.ts's `listOrder`), and the
// first page (and where there is one, the first item of the second) must follow it, item after item. Where the
// list's records cost nothing to make (fresh.ts), two are made first, one after the other, so that the page
// holds at least two records whose order is known; other lists are read as they are, with the records the
// set-up and others made.
import type { ResourceKey } from '../../../src/setup/graph.ts';
import type { Setup } from '../../../src/setup/setup.ts';
import { isObject } from '../../lib/pointer.ts';
import { listOrder, type OrderKey } from '../contract.ts';
import { record, type CheckContext } from './context.ts';
import { makeRecords, makeable, removeRecords } from './fresh.ts';
import { fail, getPage, identity, isPaged, listOperations, listRequest, unreadable } from './lists.ts';
import type { RequestSpec } from './request.ts';

export const ORDER = 'list order';

/** A date-time the contract's timestamps use (RFC 3339): compared as instants, not as text. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** -1, 0 or 1: `a` before, with or after `b` by one field's values (instants, numbers, or text by UTF-16 code units). */
function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string' && DATE_TIME.test(a) && DATE_TIME.test(b)) {
    return Math.sign(Date.parse(a) - Date.parse(b));
  }
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Why `next` may not follow `previous` in the stated order, or undefined when it may. */
function outOfOrder(previous: unknown, next: unknown, keys: OrderKey[]): string | undefined {
  if (!isObject(previous) || !isObject(next)) return 'an item is not an object';
  for (const { field, direction } of keys) {
    if (!(field in previous) || !(field in next)) return `an item has no ${field}, which the order reads`;
    const c = compareValues(previous[field], next[field]);
    if (c === 0) continue;
    return (direction === 'descending' ? c > 0 : c < 0)
      ? undefined
      : `${field} ${JSON.stringify(next[field])} after ${JSON.stringify(previous[field])}`;
  }
  return undefined;
}

const stated = (keys: OrderKey[]) => keys.map((k) => `${k.field} ${k.direction}`).join(', then ');

/** The first pair of items out of order, as the problem to report, or undefined. */
function firstDisorder(template: string, items: unknown[], keys: OrderKey[], offset = 0): string | undefined {
  for (let i = 1; i < items.length; i++) {
    const why = outOfOrder(items[i - 1], items[i], keys);
    if (why)
      return `item ${offset + i + 1} (${identity(template, items[i])}) comes after item ${offset + i} (${identity(template, items[i - 1])}) with ${why}: the contract's order is ${stated(keys)}`;
  }
  return undefined;
}

/** The lists: the paged ones, and every other GET whose description states an order (`GET /webhooks`). */
export function orderedLists(ctx: CheckContext): string[] {
  const paged = listOperations(ctx).map((op) => op.path);
  const stating = ctx.operations.filter((op) => op.method === 'GET' && listOrder(ctx, 'GET', op.path).length).map((op) => op.path);
  return [...new Set([...paged, ...stating])];
}

export async function checkOrder(ctx: CheckContext, setup: Setup): Promise<void> {
  for (const template of orderedLists(ctx)) {
    const name = `GET ${template}`;
    const keys = listOrder(ctx, 'GET', template);
    if (!keys.length) {
      record(ctx, {
        group: ORDER,
        name,
        outcome: 'skipped',
        message: `the contract states no order for ${name} (its description has no **Order:**)`,
      });
      continue;
    }
    const base = listRequest(ctx, ORDER, template);
    if (!base) continue;
    const makes = makeable(ctx, template);
    const key: ResourceKey | undefined = 'key' in makes ? makes.key : undefined;
    let made: string[] = [];
    if (key) {
      try {
        made = await makeRecords(setup, key, 2);
      } catch (error) {
        record(ctx, {
          group: ORDER,
          name,
          outcome: 'skipped',
          message: `two records to order could not be made: ${(error as Error).message}`,
        });
        continue;
      }
    }
    try {
      await checkPages(ctx, template, base, keys, made);
    } finally {
      if (key) await removeRecords(ctx, key, made);
    }
  }
}

/** The first page in order, and the first item of the second after its last; one result. */
async function checkPages(ctx: CheckContext, template: string, base: RequestSpec, keys: OrderKey[], made: string[]): Promise<void> {
  const name = `GET ${template}`;
  const paged = isPaged(ctx, template);
  const first = paged ? await getPage(ctx, base, 1, 100) : await getPage(ctx, base);
  const bad = unreadable(first, paged) ?? firstDisorder(template, first.data, keys);
  if (bad) return fail(ctx, ORDER, name, first, bad);
  // Across the pages: the last item of the first page and the first of the second.
  if (paged && first.pagination!.pages > 1) {
    const second = await getPage(ctx, base, 2, 100);
    const across = unreadable(second) ?? firstDisorder(template, [first.data.at(-1), ...second.data.slice(0, 1)], keys, 99);
    if (across) return fail(ctx, ORDER, `${name} page 2`, second, across);
  }
  const note =
    first.data.length < 2
      ? `${first.data.length} item listed: nothing to order`
      : made.length
        ? `${first.data.length} items, 2 of them made for the check (${made.join(', ')})`
        : `${first.data.length} items`;
  record(ctx, { group: ORDER, name, outcome: 'passed', message: `${stated(keys)}: ${note}` });
}
