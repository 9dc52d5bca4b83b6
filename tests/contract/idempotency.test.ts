// Every POST under `paths` takes the shared `Idempotency-Key` header, declares `Idempotent-Replayed` on its 200
// and documents the refusal of a reused key (422 VALIDATION_ERROR, details.reason idempotency_key_reused) with
// an example. No other method, and no webhook, takes the key.
import { describe, expect, it } from 'vitest';
import { operations } from './checklist.ts';
import { get, isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { contractModel, type Operation } from '../../src/contract/model.ts';
import { built, expectNoProblems } from './helpers.ts';

const KEY_REF = '#/components/parameters/IdempotencyKey';
const REPLAYED_REF = '#/components/headers/IdempotentReplayed';

const reasonOf = (value: Json): unknown =>
  isObject(value) && isObject(value['error']) && isObject(value['error']['details']) ? value['error']['details']['reason'] : undefined;

/** What a POST lacks: the Idempotency-Key parameter, Idempotent-Replayed on its 200, the reused-key example. */
function postProblems(openapi: JsonObject): string[] {
  const problems: string[] = [];
  for (const op of contractModel(openapi).operations.filter((o) => o.method === 'post')) {
    const label = `POST ${op.path}`;
    // The shared component itself, not a copy of it: its pointer is the one the $ref names.
    if (!op.parameters.some((p) => `#${p.pointer}` === KEY_REF)) problems.push(`${label}: no $ref to ${KEY_REF}`);
    const replayed = op.response(200)?.headers.find((h) => h.name === 'Idempotent-Replayed');
    if (replayed === undefined || `#${replayed.pointer}` !== REPLAYED_REF) {
      problems.push(`${label}: its 200 does not declare Idempotent-Replayed (${REPLAYED_REF})`);
    }
    const values = (op.response(422)?.json?.examples ?? []).map((e) => e.value);
    const refusals = values.filter((v) => reasonOf(v) === 'idempotency_key_reused');
    if (refusals.length === 0) problems.push(`${label}: no 422 example with details.reason idempotency_key_reused`);
    for (const v of refusals) {
      if (!isObject(v) || !isObject(v['error']) || v['error']['code'] !== 'VALIDATION_ERROR')
        problems.push(`${label}: the reused-key example is not VALIDATION_ERROR`);
    }
  }
  return problems;
}

describe('Idempotency-Key', () => {
  const { openapi } = built();
  const all = operations(openapi);
  const posts = all.filter((o) => o.method === 'post');

  it('the shared parameter is an optional header bounded to 255 characters', () => {
    const param = contractModel(openapi).component('parameters', 'IdempotencyKey')?.node as JsonObject;
    expect(`#${contractModel(openapi).component('parameters', 'IdempotencyKey')?.pointer}`).toBe(KEY_REF);
    expect(param).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, 'x-provisional': true });
    expect(param['schema']).toMatchObject({ type: 'string', minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_.:-]{1,255}$' });
  });

  it('every POST takes it, declares Idempotent-Replayed on its 200 and shows the reused-key refusal', () => {
    expect(posts.length).toBeGreaterThan(20);
    expectNoProblems(postProblems(openapi));
  });

  it('the check names a POST without the key, without the header or without the refusal example', () => {
    const broken = structuredClone(openapi);
    const [first] = operations(broken).filter((o) => o.method === 'post');
    const op = first!.op;
    op['parameters'] = ((op['parameters'] ?? []) as JsonObject[]).filter((p) => get(p, '/$ref') !== KEY_REF);
    (op['responses'] as JsonObject)['200'] = { description: 'no headers', content: {} };
    (op['responses'] as JsonObject)['422'] = { $ref: '#/components/responses/ValidationError' };
    const problems = postProblems(broken).filter((p) => p.startsWith(`POST ${first!.path}:`));
    expect(problems).toHaveLength(3);
  });

  it('no other method and no webhook takes it', () => {
    const model = contractModel(openapi);
    const takesKey = (op: Operation) => op.parameters.some((p) => p.name === 'Idempotency-Key');
    const others = model.operations.filter((o) => o.method !== 'post' && takesKey(o)).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const hooks = model.webhooks.filter(takesKey).map((w) => `webhook ${w.path}`);
    expectNoProblems([...others, ...hooks]);
  });
});
