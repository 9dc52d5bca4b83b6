// Records a list check makes of its own, through the set-up graph (each named with the run's id, noted for the
// clean-up), for the lists whose records cost nothing: a record whose creation may spend money (its create
// operation documents 400 INSUFFICIENT_BALANCE: cards, payouts, gift card orders, virtual accounts) is not made
// again, so that a run spends only what balances.ts brought into place. What the contract lets a partner remove
// is removed as soon as the check is done: a webhook endpoint counts against the plan's active endpoints.
import type { Setup } from '../../../src/setup/setup.ts';
import { SETUP_GRAPH, type ResourceKey } from '../../../src/setup/graph.ts';
import { label } from '../resources.ts';
import type { CheckContext } from './context.ts';
import { listedAt } from './lists.ts';
import { send } from './request.ts';

/** The resource a list holds that a check may make more of, or the reason it may not. */
export function makeable(ctx: CheckContext, template: string): { key: ResourceKey } | { reason: string } {
  const key = listedAt(template);
  if (!key) return { reason: `the set-up graph (src/setup/graph.ts) lists no resource at ${template}` };
  const create = SETUP_GRAPH.resources[key].create;
  if (!create || !ctx.validator.operation(create.method, create.path)) return { reason: `a ${label(key)} is not made by one operation` };
  if (ctx.validator.errorCodes(create.method, create.path, 400).includes('INSUFFICIENT_BALANCE'))
    return { reason: `making a ${label(key)} spends money (${create.method} ${create.path} documents 400 INSUFFICIENT_BALANCE)` };
  return { key };
}

/** `count` new records of `key`, one after the other; a refusal throws (its message names the answer). */
export async function makeRecords(setup: Setup, key: ResourceKey, count: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < count; i++) codes.push(await setup.fresh(key));
  return codes;
}

/** Removes the records made, where the contract has a DELETE on the record; a failure is left to the clean-up. */
export async function removeRecords(ctx: CheckContext, key: ResourceKey, codes: string[]): Promise<void> {
  const read = SETUP_GRAPH.resources[key].read;
  const param = read?.match(/\{([^}]+)\}$/)?.[1];
  if (!read || !param || !ctx.validator.operation('DELETE', read)) return;
  for (const code of codes) {
    await send(ctx, {
      method: 'DELETE',
      template: read,
      params: new Map([[param, code]]),
      query: new URLSearchParams(),
      headers: {},
      key: ctx.config.apiKey,
    }).catch(() => undefined);
  }
}
