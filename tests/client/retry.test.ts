// GET retries on 429, 5xx and network errors, against a local server; the waits go through an
// injected sleep, so the test records them instead of waiting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPartnerClient, parseRetryAfter, PartnerApiError, withRetries, type RetryOptions } from '../../src/index.js';
import { errorBody, meta, recordingSleep, sendJson, startServer, TEST_KEY, withdrawalAnswer, type LocalServer } from './support.js';

/** What the server answers next, one entry per request; then 200. */
type Step = { status: number; headers?: Record<string, string> } | 'drop';
let script: Step[] = [];
let server: LocalServer;

const ok = { success: true, data: [], meta: meta(), pagination: { page: 1, limit: 20, total: 0, pages: 0 } };
/** The contract's example answer of a withdrawal, for the POSTs that succeed. */
const withdrawal = withdrawalAnswer();

beforeAll(async () => {
  server = await startServer((req, res, raw) => {
    const step = script.shift();
    if (step === 'drop') {
      raw.socket.destroy(); // a network error for the client
      return;
    }
    if (step) {
      const code = step.status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'INTERNAL_ERROR';
      return sendJson(res, step.status, errorBody(code, 'Try again later.'), step.headers);
    }
    sendJson(res, 200, req.method === 'POST' ? withdrawal : ok);
  });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.requests.length = 0;
  script = [];
});

function setup(retry: RetryOptions = {}, idempotencyKeys?: boolean) {
  const { delays, sleep } = recordingSleep();
  const client = createPartnerClient({
    apiKey: TEST_KEY,
    baseUrl: server.url,
    retry: { random: () => 0.5, sleep, ...retry },
    ...(idempotencyKeys === undefined ? {} : { idempotencyKeys }),
  });
  return { client, delays };
}

describe('GET retries', () => {
  it('retries a 429 without Retry-After after a full-jitter exponential backoff', async () => {
    script = [{ status: 429 }, { status: 429 }];
    const { client, delays } = setup({ baseDelayMs: 100, retries: 3 });
    const { data, response } = await client.GET('/payouts');
    expect(response.status).toBe(200);
    expect(data?.success).toBe(true);
    expect(server.requests).toHaveLength(3);
    // random() * min(maxDelayMs, 100 * 2^n) with random() = 0.5
    expect(delays).toEqual([50, 100]);
  });

  it('honours Retry-After in seconds', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '3' } }];
    const { client, delays } = setup();
    const { response } = await client.GET('/payouts');
    expect(response.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([3000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const now = Date.parse('2026-03-02T10:15:30Z');
    script = [{ status: 503, headers: { 'Retry-After': 'Mon, 02 Mar 2026 10:15:35 GMT' } }];
    const { client, delays } = setup({ now: () => now });
    const { response } = await client.GET('/payouts');
    expect(response.status).toBe(200);
    expect(delays).toEqual([5000]);
  });

  it('retries every 5xx and network errors', async () => {
    script = [{ status: 500 }, 'drop', { status: 502 }];
    const { client, delays } = setup({ retries: 3, baseDelayMs: 10 });
    const { response } = await client.GET('/payouts');
    expect(response.status).toBe(200);
    expect(server.requests.length).toBeGreaterThanOrEqual(3); // a dropped request may not be recorded
    expect(delays).toEqual([5, 10, 20]);
  });

  it('caps the backoff at maxDelayMs', async () => {
    script = [{ status: 500 }, { status: 500 }, { status: 500 }];
    const { client, delays } = setup({ retries: 3, baseDelayMs: 1000, maxDelayMs: 1500, random: () => 0.999 });
    await client.GET('/payouts');
    expect(delays).toEqual([999, 1498, 1498]);
  });

  it('gives up after `retries` and returns the last answer: call.GET throws its PartnerApiError', async () => {
    script = [{ status: 429 }, { status: 429 }, { status: 429 }, { status: 429 }];
    const { client, delays } = setup({ retries: 2 });
    const error = await client.call.GET('/payouts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', requestId: 'req_test_1' });
    expect(server.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('does not retry when Retry-After asks for longer than maxDelayMs', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '120' } }];
    const { client, delays } = setup({ maxDelayMs: 60_000 });
    const { error, response } = await client.GET('/payouts');
    expect(response.status).toBe(429);
    expect(error?.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry other 4xx', async () => {
    script = [{ status: 404 }];
    const { client, delays } = setup();
    const { response } = await client.GET('/payouts');
    expect(response.status).toBe(404);
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('retry: false and retries: 0 turn retries off', async () => {
    for (const retry of [false, { retries: 0 }] as const) {
      server.requests.length = 0;
      script = [{ status: 503 }];
      const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, retry });
      const { response } = await client.GET('/payouts');
      expect(response.status).toBe(503);
      expect(server.requests).toHaveLength(1);
    }
  });
});

describe('requests without an idempotency key are never retried', () => {
  it('sends a POST without a key (idempotencyKeys: false) once on 429, even with Retry-After', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '1' } }];
    const { client, delays } = setup({ retries: 5 }, false);
    const { error, response } = await client.POST('/cards/{code}/withdraw', {
      params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } },
      body: { amount: 20 },
    });
    expect(response.status).toBe(429);
    expect(error?.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(server.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('sends a POST without a key (idempotencyKeys: false) once on 5xx and on a network error', async () => {
    const { client, delays } = setup({ retries: 5 }, false);
    script = [{ status: 502 }];
    const init = { params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } }, body: { amount: 20 } };
    expect((await client.POST('/cards/{code}/withdraw', init)).response.status).toBe(502);
    script = ['drop'];
    await expect(client.POST('/cards/{code}/withdraw', init)).rejects.toThrow();
    expect(server.requests).toHaveLength(2);
    expect(server.requests.every((r) => r.method === 'POST' && r.body === '{"amount":20}')).toBe(true);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined]);
    expect(delays).toEqual([]);
  });

  it('sends DELETE once', async () => {
    script = [{ status: 503 }];
    const { client } = setup({ retries: 5 });
    const { response } = await client.DELETE('/payouts/beneficiaries/{code}', {
      params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } },
    });
    expect(response.status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });
});

describe('withRetries and parseRetryAfter', () => {
  it('sends the same GET (URL, headers, signal) on each attempt, as separate fetch calls', async () => {
    const seen: { url: string; auth: string | null; signal: AbortSignal }[] = [];
    let n = 0;
    const fetch = async (request: Request) => {
      seen.push({ url: request.url, auth: request.headers.get('authorization'), signal: request.signal });
      return new Response(null, { status: n++ < 2 ? 503 : 204 });
    };
    const original = new Request('http://127.0.0.1:1/cards?page=2', { headers: { Authorization: 'Bearer k' } });
    const response = await withRetries(fetch, { sleep: async () => {} })(original);
    expect(response.status).toBe(204);
    expect(seen).toHaveLength(3);
    for (const s of seen) expect(s).toEqual({ url: original.url, auth: 'Bearer k', signal: original.signal });
  });

  it('passes requests that are neither a GET nor a keyed POST through untouched, once', async () => {
    const seen: Request[] = [];
    const fetch = async (request: Request) => {
      seen.push(request);
      return new Response(null, { status: 503 });
    };
    const post = new Request('http://127.0.0.1:1/cards', { method: 'POST', body: '{}' });
    expect((await withRetries(fetch, { sleep: async () => {} })(post)).status).toBe(503);
    expect(seen).toEqual([post]);
  });

  it('reads seconds and HTTP dates, and ignores anything else', () => {
    const now = Date.parse('2026-03-02T10:15:30Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 30 ', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:16:30 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('refuses bad settings', () => {
    expect(() => withRetries(globalThis.fetch, { retries: -1 })).toThrow(/retry\.retries/);
    expect(() => withRetries(globalThis.fetch, { maxDelayMs: 1.5 })).toThrow(/retry\.maxDelayMs/);
  });
});
