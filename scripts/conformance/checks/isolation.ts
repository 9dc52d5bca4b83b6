// Isolation between accounts (--second-key): with another account's key, every operation on the suite's
// records (in the path, or named in the body) answers 404 RESOURCE_NOT_FOUND and changes nothing of them; a
// `customer_code` filter naming the suite's customer is 404; and no list or read of either account shows a
// code of the other's.
import { SETUP_GRAPH, type ResourceKey } from '../../../src/setup/graph.ts';
import { Setup } from '../../../src/setup/setup.ts';
import { isReferenceParam, parameters } from '../contract.ts';
import { label, resourceKey } from '../resources.ts';
import { setupDriver } from '../setup.ts';
import { record, type CheckContext } from './context.ts';
import { expectRefusal } from './refusal.ts';
import { copyRequest, requestOrSkip, send, type RequestSpec } from './request.ts';
import { readsFor } from './state.ts';

export const ISOLATION = 'isolation';
const NOT_FOUND = { status: 404, codes: ['RESOURCE_NOT_FOUND'] };
/** Not an account's own: the gift card catalogue is the service's, the same for every account. */
const SHARED = new Set<string>(['giftCardProduct', 'unheld balance type']);

export async function checkIsolation(ctx: CheckContext): Promise<void> {
  const other = ctx.secondKey!;
  const { apiKey } = ctx.config;
  // The other account's own records: an endpoint and a customer.
  const theirs = new Setup(SETUP_GRAPH, setupDriver(ctx.state, other));
  const theirCodes: string[] = [];
  for (const key of ['webhookEndpoint', 'customer'] as ResourceKey[]) {
    try {
      theirCodes.push(await theirs.ensure(key));
    } catch (error) {
      record(ctx, {
        group: ISOLATION,
        name: `a ${label(key)} of the second key`,
        outcome: 'skipped',
        message: `could not be made: ${(error as Error).message}`,
      });
    }
  }
  const ourCodes = [...ctx.state.resources].filter(([key]) => !SHARED.has(key)).map(([, code]) => code);

  for (const op of ctx.operations) {
    const subject = `${op.method} ${op.path}`;
    const valid = requestOrSkip(ctx, ISOLATION, op.method, op.path);
    if (!valid) continue;
    const named = [
      ...[...valid.params.keys()]
        .filter((p) => isReferenceParam(ctx, op.method, op.path, p) && !SHARED.has(resourceKey(op.path, p)))
        .map((p) => label(resourceKey(op.path, p))),
      ...Object.keys(valid.body ? (JSON.parse(valid.body) as object) : {})
        .filter((f) => SETUP_GRAPH.references[f] && !SHARED.has(SETUP_GRAPH.references[f]!))
        .map((f) => `${label(SETUP_GRAPH.references[f]!)} (${f})`),
    ];
    if (named.length) {
      const request = { ...copyRequest(valid), key: other };
      await expectRefusal(ctx, {
        group: ISOLATION,
        name: `${subject} with the second key, on the suite's ${named.join(', ')}`,
        request,
        expect: NOT_FOUND,
        reads: readsFor(ctx, valid),
      });
      continue;
    }
    if (op.method !== 'GET') continue;
    // A list or an account-wide read: nothing of the other account in it, either way.
    await expectNone(ctx, `${subject} with the second key`, { ...copyRequest(valid), key: other }, ourCodes);
    await expectNone(ctx, `${subject} with the suite's key`, { ...copyRequest(valid), key: apiKey }, theirCodes);
    const customer = ctx.state.resources.get('customer');
    if (customer && parameters(ctx, op.method, op.path).some((p) => p.in === 'query' && p.name === 'customer_code')) {
      const request = { ...copyRequest(valid), key: other };
      request.query.set('customer_code', customer);
      await expectRefusal(ctx, {
        group: ISOLATION,
        name: `${subject}?customer_code=<the suite's customer> with the second key`,
        request,
        expect: NOT_FOUND,
      });
    }
  }
}

/** A read whose answer must contain none of `codes`. */
async function expectNone(ctx: CheckContext, name: string, request: RequestSpec, codes: string[]): Promise<void> {
  const { reply, curl } = await send(ctx, request);
  const text = JSON.stringify(reply.body);
  const shown = codes.filter((c) => text.includes(c));
  const problem =
    reply.status !== 200
      ? `answered ${reply.status}, expected 200`
      : shown.length
        ? `shows the other account's ${shown.join(', ')}`
        : undefined;
  record(ctx, {
    group: ISOLATION,
    name,
    outcome: problem ? 'failed' : 'passed',
    ...(problem ? { message: problem, reproducer: curl } : {}),
  });
}
