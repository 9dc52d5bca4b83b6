// Valid input generated from the contract: for each operation with a JSON request body or query parameters,
// a few requests whose body and query values are drawn from their schemas (generate.ts; each kept only when
// the contract's schema accepts it), not only the examples, must each be answered with a status the operation
// documents that is not a 5xx (a 2xx, or a documented 4xx such as a 404 for a code that names nothing, or a
// state refusal), with a body valid against that status's schema. Bounded and repeatable: at most
// VALID_PER_OPERATION requests per operation, drawn with the run's --seed.
// Re-runnable against a server that keeps state, and spending nothing: an operation that moves money (it
// documents 400 INSUFFICIENT_BALANCE, or emits `balance.debited`) is left out; the reference fields take the
// run's own records (the set-up's), the fields that name a record the run's id (resources.ts), and an
// operation on one record (PATCH /webhooks/{code}) is sent to a new one made for it where the record costs
// nothing to make (fresh.ts), so the set-up's records keep what later checks read.
import fc from 'fast-check';
import type { Setup } from '../../../src/setup/setup.ts';
import { SETUP_GRAPH } from '../../../src/setup/graph.ts';
import { isObject, type Json, type JsonObject } from '../../lib/pointer.ts';
import { contractModel } from '../../../src/contract/model.ts';
import { requestBodySchema } from '../contract.ts';
import { bodyText } from '../http.ts';
import { adjustBody, substituteBody } from '../resources.ts';
import { fillTemplate } from '../transaction.ts';
import { record, type CheckContext } from './context.ts';
import { makeRecords, makeable, removeRecords } from './fresh.ts';
import { validValues } from './generate.ts';
import { copyRequest, parametersIn, requestOrSkip, send, type RequestSpec } from './request.ts';
import { validatorsOf } from './violations.ts';

export const VALID = 'valid input';
/** The requests drawn per operation. */
export const VALID_PER_OPERATION = 4;

/** Why an operation is left out (it moves money), or undefined. */
function spendsMoney(ctx: CheckContext, method: string, template: string): string | undefined {
  if (ctx.validator.errorCodes(method, template, 400).includes('INSUFFICIENT_BALANCE')) return 'it documents 400 INSUFFICIENT_BALANCE';
  const events = ctx.validator.operation(method, template)?.operation['x-events'];
  if (Array.isArray(events) && events.includes('balance.debited')) return 'it emits balance.debited';
  return undefined;
}

/** The operations with something to generate: a JSON body, or query parameters. */
function candidates(ctx: CheckContext) {
  return ctx.operations.filter((op) => requestBodySchema(ctx, op.method, op.path) || parametersIn(ctx, op.method, op.path, 'query').length);
}

/** `count` requests: the valid request of the examples, with a body and query values drawn from their schemas. */
function drawn(ctx: CheckContext, base: RequestSpec, count: number): RequestSpec[] {
  const bundle = ctx.validator.bundle as JsonObject;
  const { refusesBody, refusesParam } = validatorsOf(bundle);
  const media = contractModel(bundle).byPath(base.method, base.template)?.requestBody?.json;
  const hasBody = base.body !== undefined && requestBodySchema(ctx, base.method, base.template) !== undefined;
  const bodyPointer = hasBody && media ? `${media.pointer}/schema` : undefined;
  const query = parametersIn(ctx, base.method, base.template, 'query').filter((p) => isObject(p.schema));
  const pointers = queryPointers(bundle, base.method, base.template);
  const model = fc.record({
    body: bodyPointer ? validValues(bundle, { $ref: `#${bodyPointer}` }) : fc.constant(undefined),
    query: fc.tuple(...query.map((p) => fc.option(validValues(bundle, p.schema as Json), { nil: undefined }))),
  });
  const out: RequestSpec[] = [];
  for (const sample of fc.sample(model, { seed: ctx.seed, numRuns: count * 10 })) {
    if (out.length >= count) break;
    const req = copyRequest(base);
    if (bodyPointer && isObject(sample.body)) {
      const body = sample.body as JsonObject;
      // The references of the run's own records, and its id in the fields that name a record.
      substituteBody(ctx.state, body);
      adjustBody(ctx.config, req.method, req.template, body);
      if (refusesBody(bodyPointer, body)) continue;
      req.body = JSON.stringify(body);
    }
    query.forEach((p, i) => {
      const name = String(p.name);
      const own = SETUP_GRAPH.references[name] && ctx.state.resources.get(SETUP_GRAPH.references[name]!);
      const value = sample.query[i];
      if (value === undefined || value === null) return;
      req.query.set(name, own ?? (typeof value === 'string' ? value : JSON.stringify(value)));
    });
    if ([...req.query.entries()].some(([name, value]) => pointers.has(name) && refusesParam(pointers.get(name)!, value))) continue;
    out.push(req);
  }
  return out;
}

/** Each query parameter's schema, as a pointer into the bundle (path item and operation level). */
function queryPointers(bundle: JsonObject, method: string, template: string): Map<string, string> {
  const query =
    contractModel(bundle)
      .byPath(method, template)
      ?.parameters.filter((p) => p.in === 'query') ?? [];
  return new Map(query.map((p) => [p.name, `${p.pointer}/schema`]));
}

export async function checkValid(ctx: CheckContext, setup: Setup): Promise<void> {
  for (const op of candidates(ctx)) {
    if (spendsMoney(ctx, op.method, op.path)) continue;
    const base = requestOrSkip(ctx, VALID, op.method, op.path);
    if (!base) continue;
    // A write on one record goes to a new one where one costs nothing to make, so that the set-up's records
    // keep what later checks and Dredd read.
    const param = op.method !== 'GET' ? op.path.match(/\{([^}]+)\}$/)?.[1] : undefined;
    const makes = param ? makeable(ctx, op.path.replace(/\/\{[^}]+\}$/, '')) : undefined;
    const key = makes && 'key' in makes ? makes.key : undefined;
    const fresh = key ? (await makeRecords(setup, key, 1).catch(() => []))[0] : undefined;
    if (fresh) base.params.set(param!, fresh);
    try {
      for (const req of drawn(ctx, base, VALID_PER_OPERATION)) await expectDocumented(ctx, `${op.method} ${op.path}`, req);
    } finally {
      if (key && fresh) await removeRecords(ctx, key, [fresh]);
    }
  }
}

/** One request: a documented status below 500, with a body valid against it. */
async function expectDocumented(ctx: CheckContext, name: string, req: RequestSpec): Promise<void> {
  const { reply, curl } = await send(ctx, req);
  const q = req.query.toString();
  const subject = `${name}${q ? `?${q}` : ''}${req.body ? ` ${req.body}` : ''}`;
  const documented = ctx.validator.responseKey(req.method, req.template, reply.status) !== undefined;
  const errors =
    documented && reply.status < 500
      ? ctx.validator.validate(req.method, req.template, reply.status, reply.body, reply.headers.get('content-type') ?? undefined)
      : [];
  const problem =
    reply.status >= 500
      ? `answered ${reply.status} to a valid request, expected a documented 2xx or 4xx`
      : !documented
        ? `answered ${reply.status}, which ${req.method} ${req.template} does not document`
        : errors.length
          ? `answered ${reply.status} with a body its schema refuses: ${errors.map((e) => `${e.pointer || '/'}: ${e.message}`).join('; ')}`
          : undefined;
  record(ctx, {
    group: VALID,
    name: subject,
    outcome: problem ? 'failed' : 'passed',
    ...(problem
      ? {
          message: `${problem}; ${req.method} ${fillTemplate(req.template, req.params)}${q ? `?${q}` : ''} answered ${reply.status} ${bodyText(reply.body, 400)}`,
          reproducer: curl,
        }
      : {}),
  });
}
