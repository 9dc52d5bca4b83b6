// The mock answers like the API. Starts the mock (scripts/mock/server.ts: Prism behind a front) on a free
// port of 127.0.0.1 with generated/openapi.json (or MOCK_SPEC), and drives every check from the document:
// every operation, every response, every named example, at the documented addresses (/v1, and /api/v1 for
// the gift card operations).
//   - success: each named success example, selected with `Prefer: example=<name>`, and the first by default
//   - errors: each documented error status with `Prefer: code=<status>`, and each code of a status with
//     several with `Prefer: code=<status>, example=<CODE>`, in the failure envelope with that error.code
//   - invalid requests (a body of the wrong type, `limit` out of range, a parameter of the wrong type or
//     format, an `Idempotency-Key` outside its pattern or length) get the VALIDATION_ERROR envelope whose
//     details.fields names the field; a request without a bearer token gets the 401 envelope; a POST with a
//     valid `Idempotency-Key` is answered.
// The front's own cases (a body that is not JSON, unknown paths and methods, the prefixes, the real causes
// of a validation failure) are at the end.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOperations, type ExampleOperation, type Json, type JsonObject } from '../../scripts/lib/openapi-examples.ts';
import { findFreePort } from '../../scripts/lib/port-check.ts';
import { createResponseValidator } from '../../scripts/conformance/validate-response.ts';
import { startMock, type MockServer } from '../../scripts/mock/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SPEC = path.resolve(process.env.MOCK_SPEC ?? path.join(ROOT, 'generated', 'openapi.json'));
const doc = JSON.parse(fs.readFileSync(SPEC, 'utf8')) as JsonObject;
const operations = exampleOperations(doc);
const KEY = 'sk_test_mock_suite';

const validator = createResponseValidator(doc);

let mock: MockServer;

beforeAll(async () => {
  mock = await startMock({ spec: SPEC, port: await findFreePort(), host: '127.0.0.1', output: 'ignore' });
}, 120_000);

afterAll(async () => {
  await mock?.stop();
});

/** Where an operation is served: gift card operations at {alt_base_url}, the others at {base_url}. */
const baseOf = (op: ExampleOperation) => (op.path.startsWith('/gift-cards') ? mock.giftCardBaseUrl : mock.baseUrl);

interface CallOptions {
  prefer?: string;
  auth?: string | null;
  url?: string;
  body?: Json;
  headers?: Record<string, string>;
  /** A body sent as is (not serialised). */
  rawBody?: string;
  base?: string;
}

async function call(op: ExampleOperation, options: CallOptions = {}): Promise<{ status: number; body: any; text: string }> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? `Bearer ${KEY}` : options.auth;
  if (auth !== null) headers.Authorization = auth;
  if (options.prefer) headers.Prefer = options.prefer;
  const body = options.rawBody ?? ('body' in options ? options.body : op.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${options.base ?? baseOf(op)}${options.url ?? op.url}`, {
    method: op.method,
    headers,
    ...(body !== undefined ? { body: typeof body === 'string' && options.rawBody !== undefined ? body : JSON.stringify(body) } : {}),
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

/** The invalid variants of an operation's request: each must answer 422 VALIDATION_ERROR naming `field`. */
function invalidRequests(
  op: ExampleOperation,
): { what: string; field: string; url?: string; body?: Json; headers?: Record<string, string> }[] {
  const variants: { what: string; field: string; url?: string; body?: Json; headers?: Record<string, string> }[] = [];
  if (op.body !== undefined) variants.push({ what: 'a body that is an array, not an object', field: 'body', body: [] });
  const [firstRequired] = op.bodyRequiredFields;
  if (firstRequired !== undefined && op.body !== null && typeof op.body === 'object' && !Array.isArray(op.body)) {
    const { [firstRequired]: _dropped, ...rest } = op.body;
    variants.push({ what: `a body without the required field ${firstRequired}`, field: firstRequired, body: rest });
  }
  const [pathname, search = ''] = op.url.split('?');
  const withQuery = (name: string, value: string) => {
    const params = new URLSearchParams(search);
    params.set(name, value);
    return `${pathname}?${params.toString()}`;
  };
  for (const p of op.parameters) {
    if (p.in === 'query' && p.name === 'limit') {
      variants.push(
        { what: 'limit=0', field: 'limit', url: withQuery('limit', '0') },
        { what: 'limit=101', field: 'limit', url: withQuery('limit', '101') },
      );
    }
    if (p.in === 'query' && p.name === 'page')
      variants.push({ what: 'page=abc (wrong type)', field: 'page', url: withQuery('page', 'abc') });
    const constrained = ['format', 'enum', 'const', 'pattern', 'oneOf', 'anyOf'].some((k) => k in p.schema);
    if (p.in === 'path' && constrained) {
      const url = op.url.replace(encodeURIComponent(String(p.example)), 'not-a-valid-value');
      variants.push({ what: `path ${p.name}=not-a-valid-value`, field: p.name, url });
    }
    if (p.in === 'header' && p.name === 'Idempotency-Key') {
      variants.push(
        { what: 'an Idempotency-Key with a space', field: 'Idempotency-Key', headers: { 'Idempotency-Key': 'not a key' } },
        { what: 'an Idempotency-Key of 256 characters', field: 'Idempotency-Key', headers: { 'Idempotency-Key': 'k'.repeat(256) } },
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
  it.skipIf(invalid.length === 0)('answers invalid requests with the VALIDATION_ERROR envelope naming the field', async () => {
    const documented = op.responses.find((r) => r.status === '422');
    expect(documented, 'the operation documents 422').toBeDefined();
    for (const variant of invalid) {
      const res = await call(op, { url: variant.url, headers: variant.headers, ...('body' in variant ? { body: variant.body } : {}) });
      expect(res.status, `${variant.what}: ${res.text}`).toBe(422);
      expect(res.body, variant.what).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(validator.validate(op.method, op.path, 422, res.body), `${variant.what}: ${res.text}`).toEqual([]);
      const fields = res.body.error.details.fields.map((f: { field: string }) => f.field);
      expect(fields, `${variant.what}: ${res.text}`).toContain(variant.field);
      expect(res.body.error.message, variant.what).toContain(variant.field);
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

describe('the front of the mock: every answer in the envelope, at the API addresses', () => {
  const byId = (id: string) => {
    const op = operations.find((o) => o.operationId === id);
    if (!op) throw new Error(`no operation ${id} in ${SPEC}`);
    return op;
  };
  const listCards = () => byId('listCards');
  const withdraw = () => byId('withdrawFromCard');
  const expectEnvelope = (res: { body: any; text: string }, code: string) => {
    expect(res.body, res.text).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
    expect(res.body.meta).toMatchObject({ request_id: expect.stringMatching(/^req_/), mode: 'test', timestamp: expect.any(String) });
  };

  it('answers a body that is not JSON at once with 422 VALIDATION_ERROR naming the body', async () => {
    for (const rawBody of ['{amount:', 'amount=20', '{"amount": 20']) {
      // A mock that waited for the rest of the body would hang here until the test's timeout.
      const res = await call(withdraw(), { rawBody });
      expect(res.status, rawBody).toBe(422);
      expectEnvelope(res, 'VALIDATION_ERROR');
      expect(res.body.error.details.fields).toEqual([
        { field: 'body', message: expect.stringMatching(/^is not valid JSON: .+ \(json\)$/) },
      ]);
      expect(res.body.error.message).toMatch(/not valid JSON/);
    }
  });

  it('names the actual field and rule of each violation, not a canned example', async () => {
    const cases: { what: string; url?: string; body?: Json; fields: { field: string; message: RegExp }[] }[] = [
      { what: 'limit=500', url: '/cards?limit=500', fields: [{ field: 'limit', message: /^must be <= 100 \(maximum\)$/ }] },
      { what: 'a string amount', body: { amount: 'twenty' }, fields: [{ field: 'amount', message: /^must be number \(type\)$/ }] },
      { what: 'no amount', body: {}, fields: [{ field: 'amount', message: /required property 'amount' \(required\)$/ }] },
      {
        what: 'an extra field',
        body: { amount: 20, tip: 1 },
        fields: [{ field: 'tip', message: /additional properties; found 'tip' \(additionalProperties\)$/ }],
      },
      {
        what: 'a code that is not a uuid',
        url: '/cards/not-a-uuid/withdraw',
        fields: [{ field: 'code', message: /^must match format "uuid" \(format\)$/ }],
      },
    ];
    for (const c of cases) {
      const op = c.url?.startsWith('/cards?') ? listCards() : withdraw();
      const res = await call(op, { ...(c.url ? { url: c.url } : {}), ...('body' in c ? { body: c.body } : {}) });
      expect(res.status, `${c.what}: ${res.text}`).toBe(422);
      expect(validator.validate(op.method, op.path, 422, res.body), c.what).toEqual([]);
      const fields = res.body.error.details.fields as { field: string; message: string }[];
      for (const expected of c.fields) {
        expect(fields, c.what).toContainEqual({ field: expected.field, message: expect.stringMatching(expected.message) });
      }
      expect(res.body.error.message, c.what).toMatch(new RegExp(`^Validation failed: .*${c.fields[0]!.field}: `));
    }
  });

  it('keeps a 422 example chosen with Prefer: code=422 as it is', async () => {
    const documented = withdraw().responses.find((r) => r.status === '422')!;
    const res = await call(withdraw(), { prefer: 'code=422' });
    expect(res.body).toEqual(documented.examples[0]!.value);
  });

  it("answers a method the path does not have with the contract's wrong-method answer (x-refusals), Allow naming its methods", async () => {
    const wrong = (doc as any)['x-refusals'].wrong_method;
    for (const [method, url, allowed] of [
      ['PATCH', `${mock.baseUrl}/cards`, ['GET', 'POST']],
      ['GET', `${mock.baseUrl}/payouts/quotes`, ['POST']],
    ] as const) {
      const res = await fetch(url, { method, headers: { Authorization: `Bearer ${KEY}` } });
      const body = (await res.json()) as any;
      expect(res.status, `${method} ${url}`).toBe(wrong.status);
      expect(res.headers.get('allow')?.split(', ').sort()).toEqual([...allowed]);
      expectEnvelope({ body, text: JSON.stringify(body) }, wrong.code);
      expect(body.error.details).toEqual({ method, allowed_methods: allowed });
    }
  });

  it('answers an unknown path and a path outside /v1 with the 404 envelope', async () => {
    const root = mock.url;
    const attempts: [string, string][] = [
      ['GET', `${mock.baseUrl}/no-such-thing`],
      ['GET', `${root}/cards`],
      ['GET', `${root}/`],
      ['GET', `${mock.giftCardBaseUrl}/cards`],
    ];
    for (const [method, url] of attempts) {
      const res = await fetch(url, { method, headers: { Authorization: `Bearer ${KEY}` } });
      const body = (await res.json()) as any;
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expectEnvelope({ body, text: JSON.stringify(body) }, 'RESOURCE_NOT_FOUND');
      expect(body.error.details).toBeNull();
      expect(body.error.message, url).toMatch(/under \/v1/);
    }
  });

  it('gives a live key live mode in the answers it builds', async () => {
    const res = await fetch(`${mock.url}/nowhere`, { headers: { Authorization: 'Bearer sk_live_abc' } });
    expect(((await res.json()) as any).meta.mode).toBe('live');
  });

  it('serves the gift card operations under /api/v1, and refuses them under /v1 with 421 wrong_api_host', async () => {
    const op = byId('listGiftCardOrders');
    expect((await call(op)).status).toBe(200);
    const wrongHost = await call(op, { base: mock.baseUrl });
    expect(wrongHost.status, wrongHost.text).toBe(421);
    expect(wrongHost.body.error.code).toBe('wrong_api_host');
  });
});
