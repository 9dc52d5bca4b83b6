// Deleted resources: a record made for the check and deleted (DELETE /payouts/beneficiaries/{code},
// DELETE /webhooks/{code}) is gone afterwards: every operation on its path and under it answers 404
// RESOURCE_NOT_FOUND, its list no longer shows it, and a request body that names it is refused with 404.
import type { Setup } from '../../../src/setup/setup.ts';
import { SETUP_GRAPH } from '../../../src/setup/graph.ts';
import { isObject } from '../../lib/pointer.ts';
import { label, resourceAt } from '../resources.ts';
import { record, type CheckContext } from './context.ts';
import { expectRefusal } from './refusal.ts';
import { requestOrSkip, send, validRequest } from './request.ts';

export const DELETED = 'deleted resource';
const NOT_FOUND = { status: 404, codes: ['RESOURCE_NOT_FOUND'] };

export async function checkDeleted(ctx: CheckContext, setup: Setup): Promise<void> {
  for (const op of ctx.operations.filter((o) => o.method === 'DELETE')) {
    const subject = `${op.method} ${op.path}`;
    const key = resourceAt(op.path);
    const param = op.path.match(/\{([^}]+)\}$/)?.[1];
    if (!key || !param) {
      record(ctx, {
        group: DELETED,
        name: subject,
        outcome: 'skipped',
        message: `${op.path} is not a resource of the set-up graph (src/setup/graph.ts), so the check cannot make one to delete`,
      });
      continue;
    }
    let code: string;
    try {
      code = await setup.fresh(key);
    } catch (error) {
      record(ctx, {
        group: DELETED,
        name: subject,
        outcome: 'skipped',
        message: `a ${label(key)} to delete could not be made: ${(error as Error).message}`,
      });
      continue;
    }
    const deletion = requestOrSkip(ctx, DELETED, op.method, op.path);
    if (!deletion) continue;
    deletion.params.set(param, code);
    const { reply, curl } = await send(ctx, deletion);
    if (reply.status < 200 || reply.status > 299) {
      record(ctx, {
        group: DELETED,
        name: `${subject} of a new ${label(key)}`,
        outcome: 'failed',
        message: `answered ${reply.status}, expected 2xx`,
        reproducer: curl,
      });
      continue;
    }
    // Every operation on the deleted resource's path and under it.
    for (const other of ctx.validator.operations().filter((o) => o.path === op.path || o.path.startsWith(`${op.path}/`))) {
      const request = requestOrSkip(ctx, DELETED, other.method, other.path, `${other.method} ${other.path} after ${subject}`);
      if (!request) continue;
      request.params.set(param, code);
      await expectRefusal(ctx, { group: DELETED, name: `${other.method} ${other.path} after ${subject}`, request, expect: NOT_FOUND });
    }
    // Its list.
    const list = SETUP_GRAPH.resources[key].list;
    if (list && ctx.validator.operation('GET', list.path)) {
      const { reply, curl } = await send(ctx, {
        method: 'GET',
        template: list.path,
        params: new Map(),
        query: new URLSearchParams(),
        headers: {},
        key: ctx.config.apiKey,
      });
      const shown = JSON.stringify(isObject(reply.body) ? reply.body.data : reply.body).includes(code);
      record(ctx, {
        group: DELETED,
        name: `GET ${list.path} after ${subject}`,
        outcome: shown ? 'failed' : 'passed',
        ...(shown ? { message: `the deleted ${label(key)} ${code} is still listed`, reproducer: curl } : {}),
      });
    }
    // Request bodies that name it.
    for (const other of ctx.validator.operations()) {
      const request = validRequest(ctx, other.method, other.path);
      if (typeof request === 'string' || request.body === undefined) continue;
      const body = JSON.parse(request.body) as Record<string, unknown>;
      const fields = Object.keys(body).filter((f) => SETUP_GRAPH.references[f] === key);
      if (!fields.length) continue;
      for (const field of fields) body[field] = code;
      request.body = JSON.stringify(body);
      await expectRefusal(ctx, {
        group: DELETED,
        name: `${other.method} ${other.path} naming it in ${fields.join(', ')} after ${subject}`,
        request,
        expect: NOT_FOUND,
      });
    }
  }
}
