// The mock answers like the API. Starts Prism on a free port of 127.0.0.1 with generated/openapi.json (or
// MOCK_SPEC) and drives every check from the document: every operation, every response, every named example.
//   - success: each named success example, selected with `Prefer: example=<name>`, and the first by default
//   - errors: each documented error status with `Prefer: code=<status>`, and each code of a status with
//     several with `Prefer: code=<status>, example=<CODE>`, in the failure envelope with that error.code
//   - invalid requests (a body of the wrong type, `limit` out of range, a parameter of the wrong type or
//     format, an `Idempotency-Key` outside its pattern or length) get the VALIDATION_ERROR envelope; a request
//     without a bearer token gets the 401 envelope; a POST with a valid `Idempotency-Key` is answered.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOperations, type ExampleOperation, type Json, type JsonObject } from '../../scripts/lib/openapi-examples.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { startPrism, type PrismServer } from '../../scripts/mock/prism.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SPEC = path.resolve(process.env.MOCK_SPEC ?? path.join(ROOT, 'generated', 'openapi.json'));
const doc = JSON.parse(fs.readFileSync(SPEC, 'utf8')) as JsonObject;
const operations = exampleOperations(doc);
const KEY = 'sk_test_mock_suite';

let prism: PrismServer;

beforeAll(async () => {
  prism = await startPrism({ spec: SPEC, port: await findFreePort(), host: '127.0.0.1', output: 'ignore' });
}, 120_000);

afterAll(async () => {
  await prism?.stop();
});

interface CallOptions {
  prefer?: string;
  auth?: string | null;
  url?: string;
  body?: Json;
  headers?: Record<string, string>;
}

async function call(op: ExampleOperation, options: CallOptions = {}): Promise<{ status: number; body: any; text: string }> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? `Bearer ${KEY}` : options.auth;
  if (auth !== null) headers.Authorization = auth;
  if (options.prefer) headers.Prefer = options.prefer;
  const body = 'body' in options ? options.body : op.body;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${prism.url}${options.url ?? op.url}`, {
    method: op.method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

const label = (op: ExampleOperation) => `${op.method} ${op.path} (${op.operationId})`;
const isError = (status: string) => /^[45]\d\d$/.test(status);

/** The invalid variants of an operation's request: each must answer 422 VALIDATION_ERROR. */
function invalidRequests(op: ExampleOperation): { what: string; url?: string; body?: Json; headers?: Record<string, string> }[] {
  const variants: { what: string; url?: string; body?: Json; headers?: Record<string, string> }[] = [];
  if (op.body !== undefined) variants.push({ what: 'a body that is an array, not an object', body: [] });
  const [firstRequired] = op.bodyRequiredFields;
  if (firstRequired !== undefined && op.body !== null && typeof op.body === 'object' && !Array.isArray(op.body)) {
    const { [firstRequired]: _dropped, ...rest } = op.body;
    variants.push({ what: `a body without the required field ${firstRequired}`, body: rest });
  }
  const [pathname, search = ''] = op.url.split('?');
  const withQuery = (name: string, value: string) => {
    const params = new URLSearchParams(search);
    params.set(name, value);
    return `${pathname}?${params.toString()}`;
  };
  for (const p of op.parameters) {
    if (p.in === 'query' && p.name === 'limit') {
      variants.push({ what: 'limit=0', url: withQuery('limit', '0') }, { what: 'limit=101', url: withQuery('limit', '101') });
    }
    if (p.in === 'query' && p.name === 'page') variants.push({ what: 'page=abc (wrong type)', url: withQuery('page', 'abc') });
    const constrained = ['format', 'enum', 'const', 'pattern', 'oneOf', 'anyOf'].some((k) => k in p.schema);
    if (p.in === 'path' && constrained) {
      const url = op.url.replace(encodeURIComponent(String(p.example)), 'not-a-valid-value');
      variants.push({ what: `path ${p.name}=not-a-valid-value`, url });
    }
    if (p.in === 'header' && p.name === 'Idempotency-Key') {
      variants.push(
        { what: 'an Idempotency-Key with a space', headers: { 'Idempotency-Key': 'not a key' } },
        { what: 'an Idempotency-Key of 256 characters', headers: { 'Idempotency-Key': 'k'.repeat(256) } },
      );
    }
  }
  return variants;
}

describe('the mock serves the document', () => {
  it('has operations and every one has a 200 with named examples', () => {
    expect(operations.length).toBeGreaterThan(30);
    const without = operations.filter((op) => !op.responses.some((r) => r.status === '200' && r.examples.length > 0));
    expect(without.map(label)).toEqual([]);
  });
});

describe.each(operations.map((op) => [label(op), op] as const))('%s', (_, op) => {
  const successes = op.responses.filter((r) => /^2\d\d$/.test(r.status));
  const errors = op.responses.filter((r) => isError(r.status));

  it('answers its first success example by default, in the success envelope', async () => {
    const first = successes[0]?.examples[0];
    expect(first).toBeDefined();
    const res = await call(op);
    expect(res.status, res.text).toBe(Number(successes[0]!.status));
    expect(res.body).toEqual(first!.value);
    expect(res.body.success).toBe(true);
    expect(res.body).toHaveProperty('data');
    expect(res.body.meta).toMatchObject({ request_id: expect.any(String), mode: expect.stringMatching(/^(test|live)$/) });
  });

  it('answers each named success example with Prefer: example=<name>', async () => {
    for (const response of successes) {
      for (const example of response.examples) {
        const res = await call(op, { prefer: `code=${response.status}, example=${example.name}` });
        expect(res.status, `${example.name}: ${res.text}`).toBe(Number(response.status));
        expect(res.body, example.name).toEqual(example.value);
      }
    }
  });

  it('answers every documented error with Prefer: code=<status>, each code with example=<CODE>', async () => {
    expect(errors.length).toBeGreaterThan(0);
    for (const response of errors) {
      expect(response.examples.length, `${response.status} has named examples`).toBeGreaterThan(0);
      const codes = new Set(response.examples.map((e) => (e.value as any)?.error?.code));
      const byStatus = await call(op, { prefer: `code=${response.status}` });
      expect(byStatus.status, byStatus.text).toBe(Number(response.status));
      expect(byStatus.body).toEqual(response.examples[0]!.value);
      for (const example of response.examples) {
        const res = await call(op, { prefer: `code=${response.status}, example=${example.name}` });
        expect(res.status, res.text).toBe(Number(response.status));
        expect(res.body).toEqual(example.value);
        expect(res.body.success).toBe(false);
        expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        expect(res.body.error).toHaveProperty('details');
        // When a status carries several codes, the example names are the codes: `example=<CODE>` selects one.
        // (Several examples of one code, such as the scenarios of a 422, may have other names.)
        if (codes.size > 1) expect(res.body.error.code, `example ${example.name}`).toBe(example.name);
      }
    }
  });

  it('answers a request without a bearer token with the 401 AUTHENTICATION_REQUIRED envelope', async () => {
    for (const auth of [null, 'Basic dXNlcjpwYXNz']) {
      const res = await call(op, { auth });
      expect(res.status, `${auth}: ${res.text}`).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_REQUIRED' } });
    }
  });

  const keyed = op.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  it.skipIf(!keyed)('accepts a UUID Idempotency-Key and answers its first success example', async () => {
    const res = await call(op, { headers: { 'Idempotency-Key': crypto.randomUUID() } });
    expect(res.status, res.text).toBe(Number(successes[0]!.status));
    expect(res.body).toEqual(successes[0]!.examples[0]!.value);
  });

  const invalid = invalidRequests(op);
  it.skipIf(invalid.length === 0)('answers invalid requests with the VALIDATION_ERROR envelope', async () => {
    const documented = op.responses.find((r) => r.status === '422');
    expect(documented, 'the operation documents 422').toBeDefined();
    for (const variant of invalid) {
      const res = await call(op, { url: variant.url, headers: variant.headers, ...('body' in variant ? { body: variant.body } : {}) });
      expect(res.status, `${variant.what}: ${res.text}`).toBe(422);
      expect(res.body, variant.what).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(res.body).toEqual(documented!.examples[0]!.value);
    }
  });
});

// Money amounts carry `x-decimal-places`, not `multipleOf`, so Prism (which does not know the extension)
// accepts every valid amount, and the closed request bodies still refuse unknown fields.
describe('amounts and closed request bodies (Prism)', () => {
  const byId = (id: string) => operations.find((o) => o.operationId === id)!;

  it('accepts amounts with two decimal places: withdraw 19.99, top-up 0.07', async () => {
    const withdraw = await call(byId('withdrawFromCard'), { body: { amount: 19.99 } });
    expect(withdraw.status, withdraw.text).toBe(200);
    const topUp = await call(byId('topUpCard'), { body: { amount: 0.07 } });
    expect(topUp.status, topUp.text).toBe(200);
  });

  it('refuses an unknown field in a request body with the VALIDATION_ERROR envelope', async () => {
    const res = await call(byId('withdrawFromCard'), { body: { amount: 19.99, amout: 19.99 } });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });
});
