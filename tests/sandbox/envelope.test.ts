// Every answer of the sandbox is in the API's envelope, with meta from the key and the clock: unknown path,
// wrong method, wrong content type, malformed JSON, too large a body, validation failures, auth, IP
// allow-list, rate limit, plan access, negative balance, not-yet-implemented operations.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_KEY_RULE } from '../../src/client/api-key.ts';
import { createPartnerClient } from '../../src/client/index.ts';
import { BODY_MAX_DEPTH, HEADER_LIMIT_BYTES, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/sandbox/core/bounds.ts';
import { operationsOf } from '../../src/sandbox/core/contract.ts';
import { nestsDeeperThan } from '../../src/sandbox/http/json-body.ts';
import { clientErrorAnswer } from '../../src/sandbox/http/unroutable.ts';
import {
  DOCUMENT,
  MODEL,
  connect,
  eventProblems,
  rawHttp,
  responseProblems,
  startReceiver,
  startTestSandbox,
  stateDigest,
  type TestSandbox,
} from './support.ts';

const CARD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const execFileAsync = promisify(execFile);
let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimit: true });
});
afterAll(() => sandbox.close());
afterEach(() => {
  expect(sandbox.problems).toEqual([]);
});

function expectEnvelope(body: any, code: string, mode = 'test') {
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.meta.request_id).toMatch(/^req_[0-9a-f]{16}$/);
  expect(body.meta.mode).toBe(mode);
  expect(body.meta.timestamp).toBe(sandbox.core.clock.iso());
}

describe('answers outside the operations', () => {
  it('unknown path: 404 RESOURCE_NOT_FOUND', async () => {
    const r = await sandbox.request('GET', '/v1/no-such-thing');
    expect(r.status).toBe(404);
    expectEnvelope(r.body, 'RESOURCE_NOT_FOUND');
  });

  it("wrong method: the contract's answer (x-refusals.wrong_method), with Allow, in the envelope; with a body too", async () => {
    const wrong = (DOCUMENT as any)['x-refusals'].wrong_method;
    const r = await sandbox.request('PUT', '/v1/cards', { key: 'sk_live_envelope' });
    expect(r.status).toBe(wrong.status);
    expect(wrong.allow_header).toBe(true);
    expect(r.headers.get('allow')).toBe('GET, POST');
    expectEnvelope(r.body, wrong.code, 'live');
    expect(Object.keys(r.body.error.details).sort()).toEqual([...wrong.details].sort());
    expect(r.body.error.details).toEqual({ method: 'PUT', allowed_methods: ['GET', 'POST'] });
    const withBody = await sandbox.request('DELETE', `/v1/cards/${CARD}`, { body: '{"a":1}' });
    expect(withBody.status).toBe(wrong.status);
  });

  it('wrong method on any path: Allow names exactly the methods the contract gives that path', async () => {
    const byPath = new Map<string, string[]>();
    for (const op of operationsOf(DOCUMENT)) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
    const wrong: string[] = [];
    for (const [path, methods] of byPath) {
      const method = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'].find((m) => !methods.includes(m))!;
      const concrete = path.replace(/\{[^}]+\}/g, CARD);
      const r = await sandbox.request(method, `${path.startsWith('/gift-cards') ? '/api/v1' : '/v1'}${concrete}`);
      const allow = r.headers.get('allow')?.split(', ').sort().join(', ');
      if (r.status !== (DOCUMENT as any)['x-refusals'].wrong_method.status || allow !== [...methods].sort().join(', '))
        wrong.push(`${method} ${path}: ${r.status} Allow ${allow}, expected ${[...methods].sort().join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('wrong content type: 415 VALIDATION_ERROR naming Content-Type', async () => {
    const r = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { body: 'amount=50', headers: { 'Content-Type': 'text/plain' } });
    expect(r.status).toBe(415);
    expectEnvelope(r.body, 'VALIDATION_ERROR');
    expect(r.body.error.details.fields).toEqual([{ field: 'Content-Type', message: 'must be application/json' }]);
  });

  it('malformed JSON: 422 VALIDATION_ERROR', async () => {
    const r = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { body: '{"amount": 5' });
    expect(r.status).toBe(422);
    expectEnvelope(r.body, 'VALIDATION_ERROR');
    expect(r.body.error.details.fields).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
  });

  it('too large a body: 413 in the envelope', async () => {
    const r = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, {
      body: JSON.stringify({ amount: 5, pad: 'x'.repeat(1_100_000) }),
    });
    expect(r.status).toBe(413);
    expectEnvelope(r.body, 'VALIDATION_ERROR');
  });

  it("too large a body sent by Node's fetch from another process: every 413 is answered and read, not a broken pipe", async () => {
    // Node's fetch (undici) writes the whole body before it reads the answer: answered while it still writes, it
    // reports EPIPE instead of the 413. The client runs in a process of its own, as a partner's would.
    const client = `
      const answers = [];
      for (const [path, megabytes] of ${JSON.stringify([...Array(8).fill(['/cards', 12]), ['/poa/3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f/document', 20]])}) {
        const body = JSON.stringify({ content: 'x'.repeat(megabytes * 1024 * 1024) });
        try {
          const res = await fetch(process.argv[1] + path, { method: 'POST', headers: { Authorization: 'Bearer sk_test_large', 'Content-Type': 'application/json' }, body });
          answers.push({ status: res.status, code: (await res.json()).error?.code });
        } catch (error) {
          answers.push({ error: String(error.cause?.code ?? error.message) });
        }
      }
      console.log(JSON.stringify(answers));`;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', client, sandbox.baseUrl], {
      maxBuffer: 1 << 20,
    });
    const answers = JSON.parse(stdout) as unknown[];
    expect(answers).toEqual(answers.map(() => ({ status: 413, code: 'VALIDATION_ERROR' })));
  }, 60_000);

  it('a missing required body: 422 naming body', async () => {
    const r = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`);
    expect(r.status).toBe(422);
    expect(r.body.error.details.fields).toEqual([{ field: 'body', message: 'is required (required)' }]);
  });
});

describe('hostile input at the edge: no 500, nothing outside the envelope, nothing changed', () => {
  /** A raw answer checked as the client's are: in the envelope, with a status the operation or the sandbox documents. */
  const checked = (method: string, path: string, answer: { status: number; body: unknown; headers: Record<string, string> }) => {
    expect(responseProblems(method, `http://sandbox${path}`, answer.status, answer.body, answer.headers)).toEqual([]);
    return answer.body as any;
  };

  it('a body nested 10,000 deep with an Idempotency-Key, to an operation without a body: 413, nothing kept', async () => {
    const key = 'sk_test_deep';
    const account = sandbox.core.accounts.resolve(key);
    const before = stateDigest(sandbox);
    const kept = () => sandbox.core.db.get<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?', account.id)!.n;
    for (const body of ['['.repeat(10_000) + ']'.repeat(10_000), `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`]) {
      const r = await sandbox.request('POST', `/v1/cards/${CARD}/freeze`, { key, body, headers: { 'Idempotency-Key': 'deep-1' } });
      expect(r.status).toBe(413);
      expectEnvelope(r.body, 'VALIDATION_ERROR');
      expect(r.body.error.details.fields).toEqual([{ field: 'body', message: `must be nested at most ${BODY_MAX_DEPTH} levels deep` }]);
    }
    expect(kept()).toBe(0);
    expect(stateDigest(sandbox)).toEqual(before);
    // The key is free for the request that follows.
    const next = await sandbox.request('POST', `/v1/cards/${CARD}/freeze`, { key, headers: { 'Idempotency-Key': 'deep-1' } });
    expect(next.status).toBe(404);
  });

  it(`nesting: ${BODY_MAX_DEPTH} levels pass to validation, one more is 413; brackets inside strings do not count`, async () => {
    const nested = (levels: number) => `{"external_reference":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const atBound = await sandbox.request('POST', '/v1/customers', { body: nested(BODY_MAX_DEPTH) });
    expect(atBound.status).toBe(422);
    expect(atBound.body.error.details.fields.map((f: { field: string }) => f.field)).toContain('external_reference');
    expect((await sandbox.request('POST', '/v1/customers', { body: nested(BODY_MAX_DEPTH + 1) })).status).toBe(413);
    expect(nestsDeeperThan(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`["\\\\",${'['.repeat(3)}]]]]`, 3)).toBe(true);
  });

  it('a query of 100 KB: 431 in the envelope', async () => {
    const r = await sandbox.request('GET', `/v1/cards?customer_code=${'a'.repeat(100_000)}`);
    expect(r.status).toBe(431);
    expectEnvelope(r.body, 'VALIDATION_ERROR');
    expect(r.body.error.details.fields).toEqual([
      { field: 'headers', message: `the request line and headers must be at most ${HEADER_LIMIT_BYTES} bytes` },
    ]);
  });

  it('a path code of 101 or 5,000 characters: 422 naming code, as any malformed code', async () => {
    for (const length of [101, 5_000]) {
      const r = await sandbox.request('GET', `/v1/cards/${'a'.repeat(length)}`);
      expect(r.status).toBe(422);
      expectEnvelope(r.body, 'VALIDATION_ERROR');
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['code', 'code']);
    }
  });

  it('CR, LF or NUL inside a header, a garbage request line, a broken chunked body: 400 in the envelope, on a raw socket', async () => {
    const auth = 'Authorization: Bearer sk_test_scenario\r\n';
    const requests = [
      `GET /v1/cards HTTP/1.1\r\nHost: x\r\nX-Note: a\rb\r\n${auth}\r\n`,
      `GET /v1/cards HTTP/1.1\r\nHost: x\r\nX-Note: a\nb\r\n${auth}\r\n`,
      `GET /v1/cards HTTP/1.1\r\nHost: x\r\nX-Note: a\u0000b\r\n${auth}\r\n`,
      'GARBAGE\r\n\r\n',
      `POST /v1/customers HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
    ];
    const before = stateDigest(sandbox);
    for (const request of requests) {
      const answer = await rawHttp(sandbox, request);
      expect(answer.status, request).toBe(400);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = checked('GET', '/v1/cards', answer);
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.details.fields[0].field).toBe('request');
      expect(body.meta.request_id).toMatch(/^req_[0-9a-f]{16}$/);
    }
    expect(stateDigest(sandbox)).toEqual(before);
  });

  it('headers over the bound on a raw socket: 431; a path that is not valid percent-encoding: 404; CONNECT: 404', async () => {
    const big = await rawHttp(sandbox, `GET /v1/cards HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(HEADER_LIMIT_BYTES)}\r\n\r\n`);
    expect(big.status).toBe(431);
    expect(checked('GET', '/v1/cards', big).error.code).toBe('VALIDATION_ERROR');
    for (const path of [`/v1/cards/%E0%A4%A`, '/v1/cards/%ED%A0%80']) {
      const answer = await rawHttp(
        sandbox,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_scenario\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status, path).toBe(404);
      expect(checked('GET', '/v1/cards/x', answer).error.code).toBe('RESOURCE_NOT_FOUND');
    }
    const connect = await rawHttp(sandbox, 'CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n');
    expect(connect.status).toBe(404);
    expect(checked('CONNECT', '/', connect).error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("a whole request followed by bytes Node's parser refuses gets its own answer, not the parser's 400", async () => {
    const body = '{"amount":10}';
    const answer = await rawHttp(
      sandbox,
      `POST /v1/cards/${CARD}/withdraw HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_scenario\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}GARBAGE\r\n\r\n`,
    );
    expect(answer.status).toBe(404); // the card is unknown to this key: the operation's answer
    expect(checked('POST', `/v1/cards/${CARD}/withdraw`, answer).error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("a message that quotes a long path is cut to the contract's 1,000 characters", async () => {
    for (const [method, path] of [
      ['GET', `/v1/${'u'.repeat(5_000)}`],
      ['PUT', `/v1/cards/${'c'.repeat(5_000)}`],
    ] as const) {
      const r = await sandbox.request(method, path);
      expect([404, 405]).toContain(r.status);
      expect(r.body.error.message).toHaveLength(1_000);
      expect(r.body.error.message.endsWith('…')).toBe(true);
    }
  });

  it('what Node would answer outside the envelope is served: no Host, an unknown Expect', async () => {
    const noHost = await rawHttp(sandbox, 'GET /v1/cards HTTP/1.1\r\nAuthorization: Bearer sk_test_scenario\r\nConnection: close\r\n\r\n');
    expect(noHost.status).toBe(200);
    const expectation = await rawHttp(
      sandbox,
      'GET /v1/cards HTTP/1.1\r\nHost: x\r\nExpect: something\r\nAuthorization: Bearer sk_test_scenario\r\nConnection: close\r\n\r\n',
    );
    expect(expectation.status).toBe(200);
  });

  it('a request that does not arrive in time: 408 in the envelope, within the bounds the server is given', () => {
    const answer = clientErrorAnswer(Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    expect([answer.status, answer.code]).toEqual([408, 'VALIDATION_ERROR']);
    const server = sandbox.server.server as typeof sandbox.server.server & { maxHeaderSize: number };
    expect([server.requestTimeout, server.headersTimeout, server.maxHeaderSize]).toEqual([
      REQUEST_TIMEOUT_MS,
      HEADERS_TIMEOUT_MS,
      HEADER_LIMIT_BYTES,
    ]);
  });

  it('a lone surrogate in a string is refused naming its field, never stored changed; a pair is kept as sent', async () => {
    const key = 'sk_test_surrogates';
    const customers = () => sandbox.core.db.get<{ n: number }>('SELECT count(*) AS n FROM customers')!.n;
    const count = customers();
    const customer = (firstName: string) =>
      `{"external_reference":"sur-${Math.random().toString(36).slice(2, 8)}","first_name":"${firstName}","last_name":"Lone","date_of_birth":"1990-01-01"}`;
    for (const [name, escaped] of [
      ['high', 'x\\ud800y'],
      ['low', 'x\\udc00'],
      ['reversed pair', '\\ude00\\ud83d'],
    ] as const) {
      const r = await sandbox.request('POST', '/v1/customers', { key, body: customer(escaped) });
      expect(r.status, name).toBe(422);
      expectEnvelope(r.body, 'VALIDATION_ERROR');
      expect(r.body.error.details.fields).toEqual([{ field: 'first_name', message: expect.stringContaining('lone surrogate') }]);
    }
    expect(customers()).toBe(count);
    const nested = await sandbox.request('PATCH', '/v1/customers/3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f', {
      key,
      body: '{"email":"a@b.test","external_reference":"\\udbff"}',
    });
    expect(nested.status).toBe(422);
    expect(nested.body.error.details.fields[0].field).toBe('external_reference');
    // Bytes that are not UTF-8 are not JSON: refused rather than read as U+FFFD.
    const bytes = Buffer.concat([
      Buffer.from('{"external_reference":"r","first_name":"x'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('","last_name":"L","date_of_birth":"1990-01-01"}'),
    ]);
    const notUtf8 = await fetch(`${sandbox.baseUrl}/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: bytes,
    });
    expect(notUtf8.status).toBe(422);
    expect(((await notUtf8.json()) as any).error.details.fields).toEqual([{ field: 'body', message: 'is not valid JSON (not UTF-8)' }]);
    expect(customers()).toBe(count);
    // A well-formed pair, escaped, is stored and read back as sent (a customer needs a webhook endpoint).
    const receiver = await startReceiver();
    await connect(sandbox, receiver, key);
    const made = await sandbox.request('POST', '/v1/customers', { key, body: customer('Zo\\ud83d\\ude00') });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data.first_name).toBe('Zo\u{1F600}');
    const read = await sandbox.request('GET', `/v1/customers/${made.body.data.customer_code}`, { key });
    expect(read.body.data.first_name).toBe('Zo\u{1F600}');
    await receiver.close();
  });

  it('an internal error is logged on stderr in one line with its request id; an armed fault is not', async () => {
    const key = 'sk_test_logged';
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const fail = vi.spyOn(sandbox.core.ledger, 'negativeSince').mockImplementation(() => {
      throw new RangeError('ledger unreadable\nsecond line');
    });
    try {
      const r = await sandbox.request('POST', `/v1/cards/${CARD}/freeze`, { key });
      expect(r.status).toBe(500);
      expectEnvelope(r.body, 'INTERNAL_ERROR');
      fail.mockRestore();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^partner-api-sandbox: 500 ${r.body.meta.request_id} POST /v1/cards/${CARD}/freeze: RangeError: ledger unreadable second line \\(at .+\\)\\n$`,
        ),
      );
      expect(lines[0]!.split('\n')).toHaveLength(2);
      expect((await sandbox.simulate('POST', '/faults', { operation_id: 'freezeCard', status: 500 }, key)).status).toBe(200);
      expect((await sandbox.request('POST', `/v1/cards/${CARD}/freeze`, { key })).status).toBe(500);
      expect(lines).toHaveLength(1);
    } finally {
      fail.mockRestore();
      write.mockRestore();
    }
  });
});

describe('request validation from the contract', () => {
  it('names each field and rule: a string amount is not coerced, an unknown field is not stripped', async () => {
    const r = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { body: '{"amount":"50","foo":1}' });
    expect(r.status).toBe(422);
    expectEnvelope(r.body, 'VALIDATION_ERROR');
    expect(r.body.error.details.fields).toEqual(
      expect.arrayContaining([
        { field: 'foo', message: 'is not a field of this request (additionalProperties)' },
        { field: 'amount', message: 'must be number (type)' },
      ]),
    );
  });

  it('minimum, required, enum and path formats', async () => {
    const low = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { body: '{"amount":4.99}' });
    expect(low.body.error.details.fields).toEqual([{ field: 'amount', message: 'must be >= 5 (minimum)' }]);
    const create = await sandbox.request('POST', '/v1/cards', { body: '{"brand":"AMEX","category":"virtual","amount":10}' });
    expect(create.status).toBe(422);
    const fields = create.body.error.details.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['customer_code', 'brand']));
    const path = await sandbox.request('GET', '/v1/cards/not-a-uuid');
    expect(path.status).toBe(422);
    expect(path.body.error.details.fields[0].field).toBe('code');
    const query = await sandbox.request('GET', '/v1/cards?limit=101');
    expect(query.status).toBe(422);
    expect(query.body.error.details.fields).toEqual([{ field: 'limit', message: 'must be <= 100 (maximum)' }]);
  });

  it('an amount with more than 2 decimal places: 422 naming amount (x-decimal-places, Contract 1.1)', async () => {
    for (const amount of ['5.001', '5e-324']) {
      const r = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { body: `{"amount":${amount}}`, key: 'sk_test_decimals' });
      if (amount === '5e-324')
        expect(r.status).toBe(422); // below the minimum of 5
      else expect(r.body.error.details.fields).toEqual([{ field: 'amount', message: 'has too many decimal places (x-decimal-places)' }]);
    }
  });

  it('a well-formed but unknown card: 404', async () => {
    const r = await sandbox.client().GET('/cards/{code}', { params: { path: { code: CARD } } });
    expect(r.response.status).toBe(404);
    expect(r.error?.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('keys, addresses, plans, limits', () => {
  it('missing key: 401 AUTHENTICATION_REQUIRED; malformed key: 401 AUTHENTICATION_FAILED', async () => {
    const none = await sandbox.request('GET', '/v1/cards', { key: null });
    expect(none.status).toBe(401);
    expectEnvelope(none.body, 'AUTHENTICATION_REQUIRED');
    const bad = await sandbox.request('GET', '/v1/cards', { key: 'pk_test_nope' });
    expect(bad.status).toBe(401);
    expectEnvelope(bad.body, 'AUTHENTICATION_FAILED');
  });

  it("one API key rule with the client: a prefix of the contract's security scheme, then any visible characters; a refusal names the rule", async () => {
    const scheme = String(MODEL.component('securitySchemes', 'bearerAuth')?.node.description);
    const prefixes = [...scheme.matchAll(/start with `(sk_[a-z]+_)`/g)].map((m) => m[1]!);
    expect(prefixes.length).toBeGreaterThan(0);
    const client = (apiKey: string) => createPartnerClient({ apiKey, baseUrl: sandbox.baseUrl });
    for (const prefix of prefixes) {
      const key = `${prefix}abc-def.1`;
      expect(client(key).mode).toBe(prefix.slice(3, -1));
      expect((await sandbox.request('GET', '/v1/balance', { key })).status).toBe(200);
    }
    for (const key of [`pk${prefixes[0]!.slice(2)}abc`, prefixes[0]!, `${prefixes[0]}abcé`]) {
      expect(() => client(key), key).toThrow(API_KEY_RULE);
      const refused = await sandbox.request('GET', '/v1/balance', { key });
      expect(refused.status, key).toBe(401);
      expectEnvelope(refused.body, 'AUTHENTICATION_FAILED');
      expect(refused.body.error.message).toContain(API_KEY_RULE);
    }
  });

  it('a revoked key: 401 AUTHENTICATION_FAILED (and the mode of the key)', async () => {
    const key = 'sk_live_revoked';
    expect((await sandbox.request('GET', '/v1/balance', { key })).status).toBe(200);
    expect((await sandbox.simulate('PATCH', '/account', { revoked: true }, key)).status).toBe(200);
    const r = await sandbox.request('GET', '/v1/balance', { key });
    expect(r.status).toBe(401);
    expectEnvelope(r.body, 'AUTHENTICATION_FAILED', 'live');
  });

  it('an address not in the allow-list: 403 IP_NOT_ALLOWED', async () => {
    const key = 'sk_test_elsewhere';
    await sandbox.simulate('PATCH', '/account', { allowed_ips: ['203.0.113.7'] }, key);
    const r = await sandbox.request('GET', '/v1/balance', { key });
    expect(r.status).toBe(403);
    expectEnvelope(r.body, 'IP_NOT_ALLOWED');
    // As the contract's example: the address is named in the message, and details carry no field of their own.
    expect((r.body as any).error.details).toBeNull();
    expect((r.body as any).error.message).toContain('127.0.0.1');
  });

  it('an address the allow-list refuses cannot lift it through the simulation API (403), nor change it; other settings stay open', async () => {
    const key = 'sk_test_lift';
    await sandbox.simulate('PATCH', '/account', { allowed_ips: ['203.0.113.7'] }, key);
    const lift = await sandbox.simulate('PATCH', '/account', { allowed_ips: ['127.0.0.1', '::1', '::ffff:127.0.0.1'] }, key);
    expect(lift.status).toBe(403);
    expectEnvelope(lift.body, 'IP_NOT_ALLOWED');
    // Nothing of the request is applied, the plan included.
    const mixed = await sandbox.simulate('PATCH', '/account', { plan: 'premium', allowed_ips: ['127.0.0.1'] }, key);
    expect(mixed.status).toBe(403);
    expect(sandbox.core.accounts.resolve(key)).toMatchObject({ allowedIps: ['203.0.113.7'], plan: 'starter' });
    expect((await sandbox.request('GET', '/v1/balance', { key })).status).toBe(403);
    // Settings that let no refused address through stay open to it.
    const plan = await sandbox.simulate('PATCH', '/account', { plan: 'business' }, key);
    expect(plan.status).toBe(200);
    expect(plan.body.data.allowed_ips).toEqual(['203.0.113.7']);
    // From an address it allows, the list changes (and may leave that address out).
    const allowed = 'sk_test_lift_allowed';
    await sandbox.simulate('PATCH', '/account', { allowed_ips: ['127.0.0.1', '::1', '::ffff:127.0.0.1', '203.0.113.7'] }, allowed);
    expect((await sandbox.simulate('PATCH', '/account', { allowed_ips: ['203.0.113.7'] }, allowed)).status).toBe(200);
  });

  it('30 requests per minute on Découverte, then 429 with Retry-After and X-RateLimit-*', async () => {
    const key = 'sk_test_ratelimited';
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestSandbox['request']>> | undefined;
    for (let i = 0; i < 31; i++) {
      last = await sandbox.request('GET', '/v1/balance', { key });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(last!.status).toBe(429);
    expectEnvelope(last!.body, 'RATE_LIMIT_EXCEEDED');
    expect(last!.headers.get('x-ratelimit-limit')).toBe('30');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(last!.headers.get('x-ratelimit-reset'));
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(reset * 1000 - sandbox.core.clock.now()).toBeGreaterThan(0);
    expect(retryAfter).toBe(Math.ceil((reset * 1000 - sandbox.core.clock.now()) / 1000));
    await sandbox.advance(60, key);
    const after = await sandbox.request('GET', '/v1/balance', { key });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('29');
  });

  it('with defaults.known_keys_only, a key the config does not list is unknown: 401 AUTHENTICATION_FAILED', async () => {
    const closed = await startTestSandbox({
      config: { defaults: { known_keys_only: true }, accounts: { sk_test_listed: { plan: 'business' } } },
    });
    expect((await closed.request('GET', '/v1/balance', { key: 'sk_test_listed' })).status).toBe(200);
    const unknown = await closed.request('GET', '/v1/balance', { key: 'sk_test_unlisted' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('AUTHENTICATION_FAILED');
    await closed.simulate('PATCH', '/account', { plan: 'starter' }, 'sk_test_unlisted');
    expect((await closed.request('GET', '/v1/balance', { key: 'sk_test_unlisted' })).status).toBe(200);
    expect(closed.problems).toEqual([]);
    await closed.close();
  });

  it('100 per minute on the other plans', async () => {
    const r = await sandbox.request('GET', '/v1/balance', { key: 'sk_test_starter' });
    expect(r.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('a product outside the plan: 402 PLAN_UPGRADE_REQUIRED', async () => {
    const key = 'sk_test_decouverte402';
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    const r = await sandbox.request('GET', '/v1/wallets', { key });
    expect(r.status).toBe(402);
    expectEnvelope(r.body, 'PLAN_UPGRADE_REQUIRED');
  });

  it('a negative ops balance refuses every non-GET with negative_balance_since; GET stays available', async () => {
    const key = 'sk_test_negative';
    const set = await sandbox.simulate('PUT', '/balances/gift_cards', { balance: -12.5 }, key);
    expect(set.body.data.negative_balance_since).toBe(sandbox.core.clock.iso());
    const post = await sandbox.request('POST', `/v1/cards/${CARD}/freeze`, { key });
    expect(post.status).toBe(403);
    expectEnvelope(post.body, 'ACCOUNT_SUSPENDED_NEGATIVE_BALANCE');
    expect(post.body.error.details).toEqual({ negative_balance_since: set.body.data.negative_balance_since });
    const get = await sandbox.request('GET', '/v1/balance/gift_cards', { key });
    expect(get.status).toBe(200);
    expect(get.body.data.balance).toBe(-12.5);
    await sandbox.simulate('PUT', '/balances/gift_cards', { balance: 10 }, key);
    expect((await sandbox.request('POST', `/v1/cards/${CARD}/freeze`, { key })).status).toBe(404);
  });

  it('an operation without a handler yet says so in the envelope (501); when none is left, every operation has one', async () => {
    const all = operationsOf(DOCUMENT);
    const op = all.find((o) => o.method === 'GET' && !o.altHost && !sandbox.implemented.includes(o.operationId));
    if (!op) {
      expect(all.map((o) => o.operationId).filter((id) => !sandbox.implemented.includes(id))).toEqual([]);
      return;
    }
    const r = await sandbox.request('GET', `/v1${op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')}`);
    expect(r.status).toBe(501);
    expectEnvelope(r.body, 'INTERNAL_ERROR');
    expect(r.body.error.message).toContain('not implemented in the sandbox yet');
  });

  it('gift card operations at /v1 answer 421 wrong_api_host; they are served at /api/v1', async () => {
    const wrong = await sandbox.request('GET', '/v1/gift-cards/orders');
    expect(wrong.status).toBe(421);
    expectEnvelope(wrong.body, 'wrong_api_host');
    const right = await sandbox.request('GET', '/api/v1/gift-cards/orders');
    expect(right.status).toBe(200);
    expect((await sandbox.request('GET', '/api/v1/cards')).status).toBe(404);
  });
});

describe('idempotency keys', () => {
  it('a retry with the same key replays the first answer with Idempotent-Replayed: true', async () => {
    const key = 'sk_test_idem';
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/unused', events: ['*'] });
    const first = await sandbox.request('POST', '/v1/webhooks', { key, body, headers: { 'Idempotency-Key': 'retry-1' } });
    const again = await sandbox.request('POST', '/v1/webhooks', { key, body, headers: { 'Idempotency-Key': 'retry-1' } });
    expect(first.status).toBe(422); // the ping got no answer
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  });

  it('the same key with another body: 422 idempotency_key_reused; a bad key: 422', async () => {
    const key = 'sk_test_idem2';
    await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { key, body: '{"amount":10}', headers: { 'Idempotency-Key': 'k-2' } });
    const reused = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, {
      key,
      body: '{"amount":11}',
      headers: { 'Idempotency-Key': 'k-2' },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error.details.reason).toBe('idempotency_key_reused');
    const bad = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, {
      key,
      body: '{"amount":10}',
      headers: { 'Idempotency-Key': 'has space' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].field).toBe('Idempotency-Key');
    // The rule the refusal names is the contract's pattern.
    const keyParameter = MODEL.component('parameters', 'IdempotencyKey')?.node;
    expect(bad.body.error.details.fields[0].message).toContain((MODEL.resolve(keyParameter?.schema).node as any).pattern);
  });

  it('keys are scoped to the API key and kept 24 hours', async () => {
    const body = '{"amount":10}';
    const a = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, {
      key: 'sk_test_scope_a',
      body,
      headers: { 'Idempotency-Key': 'shared' },
    });
    const b = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, {
      key: 'sk_test_scope_b',
      body: '{"amount":12}',
      headers: { 'Idempotency-Key': 'shared' },
    });
    expect(a.status).toBe(404);
    expect(b.status).toBe(404);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    await sandbox.advance(24 * 3600 + 1, 'sk_test_scope_a');
    const later = await sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, {
      key: 'sk_test_scope_a',
      body: '{"amount":13}',
      headers: { 'Idempotency-Key': 'shared' },
    });
    expect(later.status).toBe(404);
  });
});

describe('idempotency keys when the client gives up, and over time', () => {
  it('a client that gives up before the answer leaves its key free: the retry replays the answer its run kept', async () => {
    // A receiver that holds the webhook ping until the test releases it: the first client gives up meanwhile.
    let release!: () => void;
    let pinged!: () => void;
    const ping = new Promise<void>((resolve) => (pinged = resolve));
    const receiver = http.createServer((_req, res) => {
      release = () => res.writeHead(204).end();
      pinged();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const init = {
        method: 'POST',
        body: JSON.stringify({ url, events: ['*'] }),
        headers: { authorization: 'Bearer sk_test_gave_up', 'content-type': 'application/json', 'idempotency-key': 'gave-up-1' },
      };
      const giveUp = new AbortController();
      const first = fetch(`${sandbox.baseUrl}/webhooks`, { ...init, signal: giveUp.signal }).catch((error: Error) => error.name);
      await ping;
      giveUp.abort();
      expect(await first).toBe('AbortError');
      release();
      const retry = await fetch(`${sandbox.baseUrl}/webhooks`, { ...init, signal: AbortSignal.timeout(30_000) });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      const listed = await sandbox.request('GET', '/v1/webhooks', { key: 'sk_test_gave_up' });
      expect(listed.body.data.map((e: { url: string }) => e.url)).toEqual([url]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('kept answers past their 24 hours are deleted, not only when their key comes back', async () => {
    const key = 'sk_test_purge';
    const kept = () =>
      sandbox.core.db.get<{ n: number }>(
        'SELECT count(*) AS n FROM idempotency_keys WHERE account_id = ?',
        sandbox.core.accounts.resolve(key).id,
      )!.n;
    const send = (idem: string) =>
      sandbox.request('POST', `/v1/cards/${CARD}/withdraw`, { key, body: '{"amount":10}', headers: { 'Idempotency-Key': idem } });
    await send('purge-1');
    await send('purge-2');
    expect(kept()).toBe(2);
    await sandbox.advance(24 * 3600 + 1, key);
    await send('purge-3');
    expect(kept()).toBe(1);
  });
});

describe('the contract check of these tests', () => {
  it('finds a response that does not conform, and an error outside the envelope', () => {
    const url = `http://127.0.0.1/v1/cards/${CARD}`;
    expect(
      responseProblems(
        'GET',
        url,
        200,
        { success: true, data: { code: CARD }, meta: { request_id: 'r', mode: 'test', timestamp: '2026-01-01T00:00:00Z' } },
        {},
      ),
    ).not.toEqual([]);
    expect(responseProblems('GET', 'http://127.0.0.1/v1/nowhere', 404, { error: 'nope' }, {})).not.toEqual([]);
    expect(
      responseProblems('GET', url, 404, { success: false, error: { code: 'RESOURCE_NOT_FOUND', message: 'x', details: null } }, {}),
    ).toEqual([]);
  });

  it('finds an event that does not match its schema', () => {
    const event = {
      id: 'evt_0b6f2c1e-4d7a-4f3b-9c8e-1a2b3c4d5e6f',
      type: 'card.frozen',
      created_at: '2026-01-01T00:00:00Z',
      mode: 'test',
      data: { card_code: CARD },
    };
    expect(eventProblems(event)).not.toEqual([]);
    expect(eventProblems({ ...event, type: 'card.unknown' })).toEqual(['card.unknown: no schema in the contract']);
  });
});
