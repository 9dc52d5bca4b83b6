// A record just created is there at once: readable at its path (`GET /webhooks/{code}` right after
// `POST /webhooks` answered) and in its list (`GET /webhooks`, up to five pages of 100). The contract documents
// no delay between a create and its reads, so none is waited for: a server that shows a new record only later
// (eventually consistent reads) or never in its list fails. Checked on the lists whose records cost nothing to
// make (fresh.ts); the others' own records are found by the filters check.
import type { Setup } from '../../../src/setup/setup.ts';
import { SETUP_GRAPH, type ResourceKey } from '../../../src/setup/graph.ts';
import { isObject } from '../../lib/pointer.ts';
import { bodyText } from '../http.ts';
import { label } from '../resources.ts';
import { fillTemplate } from '../transaction.ts';
import { record, type CheckContext } from './context.ts';
import { makeRecords, makeable, removeRecords } from './fresh.ts';
import { fail, getPage, identity, isPaged, listRequest, unreadable } from './lists.ts';
import { orderedLists } from './order.ts';
import { send } from './request.ts';

export const CREATED = 'created record';

/** At most this many pages of 100 are read to find the new record. */
const MAX_PAGES = 5;

export async function checkCreated(ctx: CheckContext, setup: Setup): Promise<void> {
  for (const template of orderedLists(ctx)) {
    const makes = makeable(ctx, template);
    if (!('key' in makes)) continue;
    const { key } = makes;
    const name = `${SETUP_GRAPH.resources[key].create!.method} ${SETUP_GRAPH.resources[key].create!.path}`;
    let code: string;
    try {
      [code] = (await makeRecords(setup, key, 1)) as [string];
    } catch (error) {
      record(ctx, { group: CREATED, name, outcome: 'skipped', message: `a ${label(key)} could not be made: ${(error as Error).message}` });
      continue;
    }
    try {
      if (await readAtOnce(ctx, key, name, code)) await listedAtOnce(ctx, template, key, name, code);
    } finally {
      await removeRecords(ctx, key, [code]);
    }
  }
}

/** The new record at its path, read once; true when it answered 200 with the record (else a failure is recorded). */
async function readAtOnce(ctx: CheckContext, key: ResourceKey, name: string, code: string): Promise<boolean> {
  const read = SETUP_GRAPH.resources[key].read;
  const param = read?.match(/\{([^}]+)\}$/)?.[1];
  if (!read || !param || !ctx.validator.operation('GET', read)) return true;
  const params = new Map([[param, code]]);
  const { reply, curl } = await send(ctx, {
    method: 'GET',
    template: read,
    params,
    query: new URLSearchParams(),
    headers: {},
    key: ctx.config.apiKey,
  });
  const data = isObject(reply.body) ? reply.body.data : undefined;
  if (reply.status === 200 && identity(read.replace(/\/\{[^}]+\}$/, ''), data) === code) return true;
  record(ctx, {
    group: CREATED,
    name: `GET ${read} right after ${name}`,
    outcome: 'failed',
    message: `the ${label(key)} ${code} just created: GET ${fillTemplate(read, params)} answered ${reply.status} ${bodyText(reply.body, 300)}, expected 200 with the record (the contract documents no delay)`,
    reproducer: curl,
  });
  return false;
}

/** The new record in its list, at once; one result. */
async function listedAtOnce(ctx: CheckContext, template: string, key: ResourceKey, name: string, code: string): Promise<void> {
  const base = listRequest(ctx, CREATED, template);
  if (!base) return;
  const paged = isPaged(ctx, template);
  let last = paged ? await getPage(ctx, base, 1, 100) : await getPage(ctx, base);
  for (let n = 1; n <= MAX_PAGES; n++) {
    if (n > 1) last = await getPage(ctx, base, n, 100);
    const bad = unreadable(last, paged);
    if (bad) return fail(ctx, CREATED, `GET ${template} right after ${name}`, last, bad);
    if (last.data.some((item) => identity(template, item) === code)) {
      record(ctx, { group: CREATED, name, outcome: 'passed', message: `readable and listed (page ${n}) at once` });
      return;
    }
    if (!paged || n >= last.pagination!.pages) break;
  }
  fail(
    ctx,
    CREATED,
    `GET ${template} right after ${name}`,
    last,
    `the ${label(key)} ${code} just created is not listed (the contract documents no delay)`,
  );
}
