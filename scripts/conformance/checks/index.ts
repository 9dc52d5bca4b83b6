// The negative, security and isolation checks, run against the server before Dredd (so that what Dredd's
// transactions set off later cannot be taken for a change a refused request made): the suite's records set up
// as for Dredd, then the deleted-resource checks (which make and delete records of their own), the list checks
// (pagination, filters, order, created records: they read the records set up, and make a few of their own), invalid input, authentication, wrong methods and, with
// --second-key, isolation. Against a mock, which keeps no state, only
// the answers are checked. The run sets up once for the checks and Dredd (run.ts passes its set-up); on their
// own the checks set up for themselves.
import type { Setup } from '../../../src/setup/setup.ts';
import type { JsonObject } from '../../lib/pointer.ts';
import { setUp } from '../setup.ts';
import type { ConformanceConfig, HookState, ReportSection } from '../types.ts';
import { checkAuth } from './auth.ts';
import { createContext, record, type CheckOptions } from './context.ts';
import { checkDeleted } from './deleted.ts';
import { checkInput } from './input.ts';
import { checkIsolation, ISOLATION } from './isolation.ts';
import { checkFilters, checkPagination } from './lists.ts';
import { checkOrder } from './order.ts';
import { checkCreated } from './created.ts';
import { checkValid, VALID_PER_OPERATION } from './valid.ts';
import { checkMethods } from './methods.ts';

export const CHECKS = ['input', 'auth', 'methods', 'isolation', 'deleted', 'pagination', 'filters', 'order', 'created', 'valid'] as const;
export type CheckName = (typeof CHECKS)[number];
// The list checks read the counts and the records of a server that keeps them: a mock's examples have neither.
const STATEFUL: CheckName[] = ['isolation', 'deleted', 'pagination', 'filters', 'order', 'created', 'valid'];

export const TITLE = 'Negative, security and isolation checks (per check)';

export async function runChecks(
  config: ConformanceConfig,
  bundle: JsonObject,
  selected: JsonObject,
  chosen: CheckName[],
  options: CheckOptions,
  prepared?: { state: HookState; setup: Setup },
): Promise<ReportSection> {
  const ctx = createContext(config, bundle, selected, options, prepared?.state);
  const notes: string[] = [];
  const real = config.mode === 'real';
  const run = (name: CheckName) => chosen.includes(name) && (real || !STATEFUL.includes(name));
  if (!real) {
    const skipped = chosen.filter((c) => STATEFUL.includes(c));
    notes.push(
      `A mock keeps no state: its answers are checked, not what a refused request changed${skipped.length ? `; not applicable: ${skipped.join(', ')}` : ''}.`,
    );
  }
  if (real) {
    const setup = prepared?.setup ?? (await setUp(ctx.state, () => undefined));
    if (run('deleted')) await checkDeleted(ctx, setup);
    if (run('pagination')) await checkPagination(ctx);
    if (run('filters')) await checkFilters(ctx);
    if (run('order')) await checkOrder(ctx, setup);
    if (run('created')) await checkCreated(ctx, setup);
    if (run('valid')) {
      await checkValid(ctx, setup);
      notes.push(
        `Valid input: at most ${VALID_PER_OPERATION} requests per operation drawn from its schemas with seed ${ctx.seed} (--seed); the operations that move money are left out.`,
      );
    }
  }
  if (run('input')) {
    await checkInput(ctx);
    notes.push(
      `Invalid input: at most ${ctx.perOperation} requests per operation, drawn with seed ${ctx.seed} (--seed, --checks-per-operation).`,
    );
  }
  if (run('auth')) await checkAuth(ctx);
  if (run('methods')) await checkMethods(ctx);
  if (run('isolation')) {
    if (ctx.secondKey) await checkIsolation(ctx);
    else
      record(ctx, {
        group: ISOLATION,
        name: 'every operation',
        outcome: 'skipped',
        message: 'needs a key of a second account: pass --second-key <key>',
      });
  }
  return { title: TITLE, results: ctx.results, notes };
}
