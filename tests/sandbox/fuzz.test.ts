// Generated requests against every operation the sandbox implements, valid and invalid (the contract's request
// examples with fields replaced by arbitrary JSON, arbitrary bodies, known, unknown and malformed codes):
// no 5xx, and every answer conforms to the contract (a 4xx in the envelope with a code the operation
// documents for that status). SANDBOX_FUZZ_RUNS sets the runs per operation (default 60; the issue's
// target is 1,000).
// Then the HTTP edge, on raw sockets: generated request lines, paths, queries, headers (CR, LF, NUL, sizes) and
// bodies (depth, size, lone surrogates, bytes that are not UTF-8, types): every answer is in the envelope with a
// status the operation documents or one the sandbox answers outside the operations, within seconds, and a refused
// request changes no row. SANDBOX_EDGE_FUZZ_RUNS and SANDBOX_EDGE_FUZZ_SEED set its runs (default 500) and seed.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, BODY_MAX_DEPTH, HEADER_LIMIT_BYTES } from '../../src/sandbox/core/bounds.ts';
import { operationsOf } from '../../src/sandbox/core/contract.ts';
import { contractModel } from '../../src/contract/model.ts';
import { OUTSIDE_OPERATIONS, wrongMethodAnswer } from '../../src/sandbox/core/errors.ts';
import {
  DOCUMENT,
  connect,
  newCustomer,
  rawHttp,
  responseProblems,
  startReceiver,
  startTestSandbox,
  stateDigest,
  type RawAnswer,
  type Receiver,
  type TestSandbox,
} from './support.ts';

const RUNS = Number(process.env['SANDBOX_FUZZ_RUNS'] ?? 60);
const KEY = 'sk_test_fuzz';
let sandbox: TestSandbox;
let receiver: Receiver;
const codes: Record<string, string> = {};

beforeAll(async () => {
  sandbox = await startTestSandbox();
  receiver = await startReceiver();
  codes.webhook = await connect(sandbox, receiver, KEY);
  codes.customer = await newCustomer(sandbox, KEY);
  const card = await sandbox
    .client(KEY)
    .call.POST('/cards', { body: { customer_code: codes.customer, brand: 'VISA', category: 'virtual', amount: 500 } });
  codes.card = card.data.code;
  await sandbox.advance(2, KEY);
  // Money products and events (sandbox-money).
  const client = sandbox.client(KEY);
  sandbox.core.db.run("UPDATE customers SET verification_level = 'full' WHERE code = ?", codes.customer);
  codes.virtualAccount = (
    await client.call.POST('/virtual-accounts', { body: { customer_code: codes.customer, currency: 'EUR' } })
  ).data.code;
  codes.giftCardOrder = (
    await client.call.POST('/gift-cards/orders', {
      body: { customer_code: codes.customer, product_id: 'amazon_us_usd', amount: 25, quantity: 1 },
    })
  ).data.code;
  const beneficiary = (
    await client.call.POST('/payouts/beneficiaries', {
      body: {
        customer_code: codes.customer,
        rail: 'sepa',
        type: 'individual',
        name: 'Fuzz',
        bank_name: 'Bank',
        iban: 'FR7630006000011234567890189',
        address: { street: 's', city: 'c', postal_code: '1', country: 'FR' },
      },
    })
  ).data.code;
  codes.beneficiary = beneficiary;
  const quote = (await client.call.POST('/payouts/quotes', { body: { beneficiary_code: beneficiary, amount_usd: 10, reference: 'fuzz' } }))
    .data.code;
  codes.payout = (await client.call.POST('/payouts', { body: { quote_code: quote } })).data.code;
  codes.event = (await client.call.GET('/events', {})).data[0]!.id;
  codes.product = 'amazon_us_usd';
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

/** Operations with a handler (the others answer 501). */
const implemented = () => operationsOf(DOCUMENT).filter((op) => sandbox.implemented.includes(op.operationId));

function exampleBody(method: string, path: string): Record<string, unknown> | undefined {
  const first = contractModel(DOCUMENT).byPath(method, path)?.requestBody?.json?.examples[0]?.value;
  return first ? (structuredClone(first) as Record<string, unknown>) : undefined;
}

/** The known code of a path's resource (the others are generated). */
function knownCode(path: string): string | undefined {
  const byPrefix: [string, string | undefined][] = [
    ['/webhooks', codes.webhook],
    ['/customers', codes.customer],
    ['/kyc', codes.customer],
    ['/poa', codes.customer],
    ['/balance', 'cards_visa'],
    ['/virtual-accounts', codes.virtualAccount],
    ['/gift-cards/orders', codes.giftCardOrder],
    ['/gift-cards/products', codes.product],
    ['/payouts/beneficiaries', codes.beneficiary],
    ['/payouts', codes.payout],
    ['/events', codes.event],
    ['/cards', codes.card],
  ];
  return byPrefix.find(([prefix]) => path.startsWith(prefix))?.[1];
}

const param = (known: string | undefined) =>
  fc.oneof(fc.constant(known ?? '00000000-0000-4000-8000-000000000000'), fc.uuid(), fc.string({ maxLength: 40 }));

describe('fuzz', () => {
  it(`${RUNS} generated requests per implemented operation: no 5xx, every answer as the contract says`, async () => {
    const ops = implemented();
    expect(ops.length).toBeGreaterThanOrEqual(48);
    const ids = ops.map((o) => o.operationId);
    for (const id of [
      'createKycLink',
      'getKycStatus',
      'synchronizeKycIdentity',
      'uploadPoaDocument',
      'getPoaStatus',
      'updateCustomer',
      'deactivateCustomer',
    ])
      expect(ids).toContain(id);
    const seen = new Map<string, Set<number>>();
    for (const op of ops) {
      const example = exampleBody(op.method, op.path);
      const bodies = fc.oneof(
        fc.constant(example),
        example
          ? fc
              .record({ key: fc.constantFrom(...Object.keys(example), 'unknown_field'), value: fc.jsonValue({ maxDepth: 2 }) })
              .map(({ key, value }) => ({ ...example, [key]: value }))
          : fc.constant(undefined),
        fc.jsonValue({ maxDepth: 2 }),
        fc.constant(undefined),
      );
      const query = fc.dictionary(
        fc.constantFrom(
          'page',
          'limit',
          'customer_code',
          'status',
          'verification_level',
          'external_reference',
          'type',
          'country',
          'created_from',
          'x',
        ),
        fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 200 }).map(String)),
        { maxKeys: 3 },
      );
      await fc.assert(
        fc.asyncProperty(param(knownCode(op.path)), bodies, query, async (code, body, q) => {
          let payload = body;
          // Never ping a host outside the machine.
          if (payload && typeof payload === 'object' && !Array.isArray(payload) && 'url' in payload)
            payload = { ...payload, url: 'http://127.0.0.1:1/closed' };
          const url = `/${op.altHost ? 'api/v1' : 'v1'}${op.path.replace(/\{[^}]+\}/g, encodeURIComponent(code))}?${new URLSearchParams(q as Record<string, string>)}`;
          const r = await sandbox.server.inject({
            method: op.method as 'GET',
            url,
            headers: { authorization: `Bearer ${KEY}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
            ...(payload !== undefined && op.method !== 'GET' ? { payload: JSON.stringify(payload) } : {}),
          });
          const statuses = seen.get(op.operationId) ?? new Set<number>();
          statuses.add(r.statusCode);
          seen.set(op.operationId, statuses);
          expect(r.statusCode, `${op.method} ${url} ${r.body}`).toBeLessThan(500);
          const problems = responseProblems(op.method, `http://sandbox${url}`, r.statusCode, r.json(), r.headers as Record<string, string>);
          expect(problems, `${op.method} ${url} ${JSON.stringify(payload)}`).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    }
    // Both outcomes were reached: some generated requests succeed, some are refused.
    const all = [...seen.values()].flatMap((s) => [...s]);
    expect(all).toContain(200);
    expect(all).toContain(422);
  }, 600_000);
});

const EDGE_RUNS = Number(process.env['SANDBOX_EDGE_FUZZ_RUNS'] ?? 500);
const EDGE_SEED = Number(process.env['SANDBOX_EDGE_FUZZ_SEED'] ?? 20_261_128);
const OUTSIDE = new Set([...Object.keys(OUTSIDE_OPERATIONS).map(Number), wrongMethodAnswer().status]);

/** A generated request, as bytes on the wire, and what the check needs to know of it. */
interface RawRequest {
  method: string;
  path: string;
  bytes: Buffer;
  label: string;
}

/** UTF-8 bytes of any string (lone surrogates become U+FFFD), every byte percent-encoded or as it is. */
const percentEncoded = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Arrays and objects nested `depth` deep around a value. */
const nestedJson = (depth: number, objects: boolean, inner: string) =>
  objects ? '{"a":'.repeat(depth) + inner + '}'.repeat(depth) : '['.repeat(depth) + inner + ']'.repeat(depth);

function edgeRequests(ops: ReturnType<typeof operationsOf>): fc.Arbitrary<RawRequest> {
  const op = fc.constantFrom(...ops);
  const code = (known: string | undefined) =>
    fc.oneof(
      { weight: 4, arbitrary: param(known).map((c) => percentEncoded(c)) },
      { weight: 1, arbitrary: fc.integer({ min: 37, max: 20_000 }).map((n) => 'c'.repeat(n)) },
      {
        weight: 1,
        arbitrary: fc
          .uint8Array({ minLength: 1, maxLength: 12 })
          .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
      },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map((t) => percentEncoded(t)) },
    );
  const operationPath = op.chain((o) =>
    code(knownCode(o.path)).map((c) => ({ op: o, path: `/${o.altHost ? 'api/v1' : 'v1'}${o.path.replace(/\{[^}]+\}/g, c)}` })),
  );
  const otherPath = fc.oneof(
    fc.constantFrom('/', '/v1', '/v1/', '/v2/cards', '/api/v1/cards', '/v1/cards/', '*', 'v1/cards', '/v1/cards?x', '/v1//cards'),
    fc
      .array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 1, maxLength: 4 })
      .map((segments) => `/v1/${segments.map(percentEncoded).join('/')}`),
    fc.string({ unit: 'binary', maxLength: 30 }).map((t) => `/v1/${t}`), // raw: spaces, controls, non-ASCII in the request line
    fc.integer({ min: 900, max: 15_000 }).map((n) => `/v1/${'u'.repeat(n)}`), // quoted by the 404's message
  );
  const path = fc.oneof(
    { weight: 4, arbitrary: operationPath },
    { weight: 1, arbitrary: otherPath.map((p) => ({ op: undefined, path: p })) },
  );
  const method = (o: { method: string } | undefined) =>
    fc.oneof(
      { weight: 12, arbitrary: fc.constant(o?.method ?? 'GET') },
      { weight: 3, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND') },
      { weight: 1, arbitrary: fc.constantFrom('get', 'G T', 'GARBAGE', 'P\u0000ST', '') },
    );
  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc
        .dictionary(
          fc.constantFrom('page', 'limit', 'status', 'customer_code', 'created_from', 'x'),
          fc.string({ unit: 'binary', maxLength: 20 }),
          { maxKeys: 3 },
        )
        .map(
          (q) =>
            `?${Object.entries(q)
              .map(([k, v]) => `${k}=${percentEncoded(v)}`)
              .join('&')}`,
        ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 100_000 }).map((n) => `?customer_code=${'q'.repeat(n)}`) },
  );
  const headerValue = fc.oneof(
    { weight: 12, arbitrary: fc.string({ maxLength: 40 }) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.string({ maxLength: 10 }),
          fc.constantFrom('\r', '\n', '\u0000', '\r\n', '\u007f', '\u00e9'),
          fc.string({ maxLength: 10 }),
        )
        .map((parts) => parts.join('')),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: HEADER_LIMIT_BYTES + 4_000 }).map((n) => 'h'.repeat(n)) },
  );
  const headerName = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom('X-Note', 'Accept', 'User-Agent', 'Expect', 'Content-Encoding') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }) },
  );
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(`Bearer ${KEY}`, `Bearer ${SECOND_KEY}`) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, 'Bearer', 'Basic abc', `Bearer ${KEY} extra`) },
  );
  const idempotencyKey = fc.option(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('edge-1', 'edge-2') },
      { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,40}$/) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    ),
    { nil: undefined, freq: 2 },
  );
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', undefined, 'application/json; charset=latin1'),
    },
  );
  const jsonText = (o: { method: string; path: string } | undefined) => {
    const example = o ? exampleBody(o.method, o.path) : undefined;
    const field = example ? (Object.keys(example)[0] ?? 'external_reference') : 'external_reference';
    const withField = (raw: string) =>
      example ? JSON.stringify({ ...safeUrl(example), [field]: '\u0000' }).replace('"\\u0000"', raw) : `{"${field}":${raw}}`;
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(example ? JSON.stringify(safeUrl(example)) : '{}') },
      // Deep bodies most of all where nothing validates them: an operation that takes no body.
      {
        weight: example ? 3 : 12,
        arbitrary: fc
          .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean())
          .map(([depth, objects]) => withField(nestedJson(depth, objects, '1'))),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.integer({ min: BODY_MAX_DEPTH - 2, max: BODY_MAX_DEPTH + 1 }), fc.boolean())
          .map(([depth, objects]) => nestedJson(depth, objects, '{}')),
      },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((t) => withField(JSON.stringify(t))) },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(safeUrl(v))) },
      { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 1, max: BODY_LIMIT_BYTES + 100_000 }).map((n) => withField(JSON.stringify('b'.repeat(n)))),
      },
    );
  };
  const body = (o: { method: string; path: string } | undefined) =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constant(undefined) },
      { weight: 5, arbitrary: jsonText(o).map((t) => Buffer.from(t, 'utf8')) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(jsonText(o), fc.uint8Array({ minLength: 1, maxLength: 4 }))
          .map(([t, bytes]) => Buffer.concat([Buffer.from(t.slice(0, -1), 'utf8'), Buffer.from(bytes), Buffer.from(t.slice(-1), 'utf8')])),
      },
    );
  const framing = fc.constantFrom('length', 'length', 'length', 'chunked', 'short');
  return path.chain(({ op: o, path: p }) =>
    fc
      .record({
        method: method(o),
        query,
        authorization,
        idempotencyKey,
        contentType,
        body: body(o),
        framing,
        extra: fc.array(fc.tuple(headerName, headerValue), { maxLength: 2 }),
      })
      .map((r) => {
        const head = [`${r.method} ${p}${r.query} HTTP/1.1`, 'Host: sandbox.test', 'Connection: close'];
        if (r.authorization !== undefined) head.push(`Authorization: ${r.authorization}`);
        if (r.idempotencyKey !== undefined) head.push(`Idempotency-Key: ${r.idempotencyKey}`);
        if (r.contentType !== undefined) head.push(`Content-Type: ${r.contentType}`);
        for (const [name, value] of r.extra) head.push(`${name}: ${value}`);
        let payload = Buffer.alloc(0);
        if (r.body !== undefined) {
          if (r.framing === 'chunked') {
            head.push('Transfer-Encoding: chunked');
            payload = Buffer.concat([Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from('\r\n0\r\n\r\n')]);
          } else {
            // 'short': a Content-Length below the body's; the rest is read as the next request.
            head.push(`Content-Length: ${r.framing === 'short' ? Math.floor(r.body.length / 2) : r.body.length}`);
            payload = r.body;
          }
        }
        const bytes = Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
        const shown = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);
        return {
          method: r.method,
          path: `${p}${r.query}`,
          bytes,
          label: shown(JSON.stringify(`${head.join('\r\n')}\r\n\r\n${payload.subarray(0, 200).toString('latin1')}`)),
        };
      }),
  );
}

/** A body's `url` (webhook endpoints) pointed at a closed loopback port: the fuzz never pings a host. */
function safeUrl<T>(value: T): T {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'url' in value) return { ...value, url: 'http://127.0.0.1:1/closed' };
  return value;
}

const SECOND_KEY = 'sk_test_fuzz_second';

/** The contract's path template the router serves a path at: a parameter may be empty (`/cards/` is `/cards/{code}`). */
function routedTemplate(method: string, path: string): string | undefined {
  const candidates = Object.keys(DOCUMENT.paths as object).filter((template) => {
    if (!(DOCUMENT.paths as Record<string, Record<string, unknown>>)[template]![method.toLowerCase()]) return false;
    return new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    ).test(path);
  });
  // Literal segments win over parameters: /payouts/quotes before /payouts/{code}.
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/**
 * What Node's HTTP parser makes of a request, as a bare server with the sandbox's settings reads it: 'parsed' (it
 * reaches the application) or the code of the parser's error. The oracle that tells a request no operation could
 * see (answered outside the operations) from one that reaches the router.
 */
async function startParserOracle(): Promise<{ verdict(bytes: Buffer): Promise<string>; close(): Promise<void> }> {
  let settle: ((verdict: string) => void) | undefined;
  const decide = (verdict: string) => {
    settle?.(verdict);
    settle = undefined;
  };
  const server = http.createServer({ maxHeaderSize: HEADER_LIMIT_BYTES, requireHostHeader: false }, (_req, res) => {
    decide('parsed');
    res.end();
  });
  server.on('clientError', (error: Error & { code?: string }, socket) => {
    decide(error.code ?? 'error');
    socket.destroy();
  });
  server.on('connect', (_req, socket) => {
    decide('parsed');
    socket.destroy();
  });
  server.on('checkExpectation', (_req, res) => {
    decide('parsed');
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    verdict: (bytes) =>
      new Promise<string>((resolve) => {
        settle = resolve;
        const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
        socket.on('error', () => {});
        socket.on('close', () => decide('closed without a verdict'));
        socket.resume();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Problems of a raw answer: not the envelope, a 5xx, or a status that is not the one due: for a request Node's
 * parser refuses, the sandbox's answer outside the operations (431 for too large a head, 400 otherwise); for one it
 * reads, a status the operation at that path documents (as the server routes it, the gift card operations at /api/v1
 * only), or, where no operation is routed, 404 or an answer outside the operations.
 */
function edgeProblems(request: RawRequest, verdict: string, answer: RawAnswer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`a ${answer.status}`);
  if (answer.headers['content-type'] !== 'application/json; charset=utf-8') problems.push(`Content-Type ${answer.headers['content-type']}`);
  if (verdict !== 'parsed') {
    const due = verdict === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    if (answer.status !== due) problems.push(`Node's parser refuses it (${verdict}): ${due} expected, ${answer.status} answered`);
    problems.push(...responseProblems('GET', 'http://sandbox/nowhere', answer.status, answer.body, answer.headers));
    return problems;
  }
  const rawPath = request.path.split('?')[0]!;
  const prefix = rawPath.match(/^\/(api\/)?v1(?=\/)/)?.[0];
  const template = prefix ? routedTemplate(request.method, rawPath.slice(prefix.length)) : undefined;
  const op = template ? operationsOf(DOCUMENT).find((o) => o.path === template && o.method === request.method.toUpperCase()) : undefined;
  const routed = op && (prefix === '/v1' || op.altHost) ? op : undefined;
  if (routed) {
    // The answer checked against the operation's documented response (a placeholder code keeps the URL plain).
    problems.push(
      ...responseProblems(
        request.method,
        `http://sandbox/v1${routed.path.replace(/\{[^}]+\}/g, 'x')}`,
        answer.status,
        answer.body,
        answer.headers,
      ),
    );
  } else {
    problems.push(...responseProblems('GET', 'http://sandbox/nowhere', answer.status, answer.body, answer.headers));
    if (!OUTSIDE.has(answer.status) && answer.status !== 404)
      problems.push(`status ${answer.status} where no operation is routed (expected 404 or one of ${[...OUTSIDE].join(', ')})`);
  }
  return problems;
}

describe('fuzz of the HTTP edge, on raw sockets', () => {
  it(`${EDGE_RUNS} generated requests (seed ${EDGE_SEED}): every answer in the envelope with a documented status, no refusal changes state`, async () => {
    // Nothing moves but what the requests do: no timer runs, no delivery is in flight.
    sandbox.core.scheduler.stop();
    await sandbox.core.scheduler.settle();
    sandbox.core.accounts.resolve(SECOND_KEY);
    const kept = () => sandbox.core.db.get<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys')!.n;
    let digest = stateDigest(sandbox);
    const statuses = new Map<number, number>();
    const oracle = await startParserOracle();
    const started = Date.now();
    await fc
      .assert(
        fc.asyncProperty(edgeRequests(implemented()), async (request) => {
          const keptBefore = kept();
          const verdict = await oracle.verdict(request.bytes);
          const answer = await rawHttp(sandbox, request.bytes, 10_000);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          expect(edgeProblems(request, verdict, answer), `${request.label}\n-> ${answer.status} ${answer.text.slice(0, 300)}`).toEqual([]);
          const after = stateDigest(sandbox);
          if (answer.status >= 400) {
            expect(after, `a refused request changed state: ${request.label} -> ${answer.status}`).toEqual(digest);
            if (OUTSIDE.has(answer.status)) expect(kept(), `${request.label} -> ${answer.status} kept an answer`).toBe(keptBefore);
          }
          digest = after;
        }),
        { numRuns: EDGE_RUNS, seed: EDGE_SEED, endOnFailure: true },
      )
      .finally(() => oracle.close());
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `edge fuzz: ${EDGE_RUNS} runs (seed ${EDGE_SEED}) in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    // The edge's answers were all reached, and some requests got through to an operation.
    for (const status of [200, 400, 404, 413, 422, 431]) expect([...statuses.keys()], `status ${status} never answered`).toContain(status);
  }, 120_000);
});
