// Every POST under `paths` takes the shared `Idempotency-Key` header, declares `Idempotent-Replayed` on its 200
// and documents the refusal of a reused key (422 VALIDATION_ERROR, details.reason idempotency_key_reused) with
// an example. No other method, and no webhook, takes the key.
import { describe, expect, it } from 'vitest';
import { operations } from './checklist.ts';
import { deref, isObject, type Json, type JsonObject } from '../../scripts/lib/pointer.ts';
import { built, expectNoProblems } from './helpers.ts';

const KEY_REF = '#/components/parameters/IdempotencyKey';
const REPLAYED_REF = '#/components/headers/IdempotentReplayed';

function exampleValues(doc: JsonObject, response: Json | undefined): Json[] {
  const resolved = deref(doc, response);
  const media = isObject(resolved) && isObject(resolved['content']) ? resolved['content']['application/json'] : undefined;
  if (!isObject(media) || !isObject(media['examples'])) return [];
  return Object.values(media['examples']).map((e) => {
    const example = deref(doc, e);
    return isObject(example) ? (example['value'] ?? null) : null;
  });
}

const reasonOf = (value: Json): unknown =>
  isObject(value) && isObject(value['error']) && isObject(value['error']['details']) ? value['error']['details']['reason'] : undefined;

/** What a POST lacks: the Idempotency-Key parameter, Idempotent-Replayed on its 200, the reused-key example. */
function postProblems(openapi: JsonObject): string[] {
  const problems: string[] = [];
  for (const { path, op } of operations(openapi).filter((o) => o.method === 'post')) {
    const label = `POST ${path}`;
    const params = Array.isArray(op['parameters']) ? op['parameters'] : [];
    if (!params.some((p) => isObject(p) && p['$ref'] === KEY_REF)) problems.push(`${label}: no $ref to ${KEY_REF}`);
    const responses = op['responses'] as JsonObject;
    const ok = deref(openapi, responses['200']);
    const headers = isObject(ok) && isObject(ok['headers']) ? ok['headers'] : {};
    if (!isObject(headers['Idempotent-Replayed']) || headers['Idempotent-Replayed']['$ref'] !== REPLAYED_REF) {
      problems.push(`${label}: its 200 does not declare Idempotent-Replayed (${REPLAYED_REF})`);
    }
    const refusals = exampleValues(openapi, responses['422']).filter((v) => reasonOf(v) === 'idempotency_key_reused');
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
    const param = deref(openapi, { $ref: KEY_REF }) as JsonObject;
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
    op['parameters'] = ((op['parameters'] ?? []) as JsonObject[]).filter((p) => p['$ref'] !== KEY_REF);
    (op['responses'] as JsonObject)['200'] = { description: 'no headers', content: {} };
    (op['responses'] as JsonObject)['422'] = { $ref: '#/components/responses/ValidationError' };
    const problems = postProblems(broken).filter((p) => p.startsWith(`POST ${first!.path}:`));
    expect(problems).toHaveLength(3);
  });

  it('no other method and no webhook takes it', () => {
    const takesKey = (op: JsonObject) =>
      (Array.isArray(op['parameters']) ? op['parameters'] : []).some((p) => {
        const resolved = deref(openapi, p);
        return isObject(resolved) && resolved['name'] === 'Idempotency-Key';
      });
    const others = all.filter((o) => o.method !== 'post' && takesKey(o.op)).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const hooks = Object.entries(openapi['webhooks'] as JsonObject)
      .filter(([, item]) => isObject(item) && isObject(item['post']) && takesKey(item['post']))
      .map(([name]) => `webhook ${name}`);
    expectNoProblems([...others, ...hooks]);
  });
});
