// Idempotency keys on POST, against a local server: a fresh key per call, the same key on every retry, the
// caller's own key kept, and a keyed POST retried like a GET (429 with Retry-After, 5xx, network errors,
// a timed-out attempt) with its body intact.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPartnerClient, PartnerTimeoutError, type PartnerClientOptions } from '../../src/index.js';
import { errorBody, recordingSleep, sendJson, startServer, TEST_KEY, withdrawalAnswer, type LocalServer } from './support.js';

type Step = { status: number; headers?: Record<string, string> } | 'drop' | { hangMs: number };
let script: Step[] = [];
let server: LocalServer;

const CODE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const withdraw = { params: { path: { code: CODE } }, body: { amount: 20 } } as const;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The contract's example answer of a withdrawal, which the server gives once its script is played. */
const ok = withdrawalAnswer();

beforeAll(async () => {
  server = await startServer(async (_req, res, raw) => {
    const step = script.shift();
    if (step === 'drop') return void raw.socket.destroy();
    if (step && 'hangMs' in step) await new Promise((resolve) => setTimeout(resolve, step.hangMs));
    if (res.destroyed) return;
    if (step && 'status' in step) {
      const code = step.status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'INTERNAL_ERROR';
      return sendJson(res, step.status, errorBody(code, 'Try again later.'), step.headers);
    }
    sendJson(res, 200, ok);
  });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.requests.length = 0;
  script = [];
});

function client({ retry, ...options }: Partial<PartnerClientOptions> = {}) {
  const { delays, sleep } = recordingSleep();
  return {
    delays,
    client: createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, retry: { sleep, random: () => 0.5, ...retry }, ...options }),
  };
}
const keys = () => server.requests.map((r) => r.headers['idempotency-key']);

describe('Idempotency-Key on POST', () => {
  it('sends a fresh UUID v4 key with every POST', async () => {
    const { client: c } = client();
    await c.POST('/cards/{code}/withdraw', withdraw);
    await c.call.POST('/cards/{code}/withdraw', withdraw);
    const [first, second] = keys();
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(first).not.toBe(second);
  });

  it('sends none with GET, PUT, PATCH or DELETE', async () => {
    const { client: c } = client();
    await c.GET('/payouts');
    await c.DELETE('/payouts/beneficiaries/{code}', { params: { path: { code: CODE } } });
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'DELETE']);
    expect(keys()).toEqual([undefined, undefined]);
  });

  it('sends the same key and body on every retry of a POST: 429 with Retry-After, 5xx, a network error', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '2' } }, { status: 503 }, 'drop'];
    const { client: c, delays } = client({ retry: { retries: 3, baseDelayMs: 100 } });
    const { response, data } = await c.POST('/cards/{code}/withdraw', withdraw);
    expect(response.status).toBe(200);
    expect(data?.data.withdrawal_id).toBe(ok.data.withdrawal_id);
    // The dropped attempt may or may not be recorded by the server before its socket is destroyed.
    expect(server.requests.length).toBeGreaterThanOrEqual(3);
    const [key] = keys();
    expect(key).toMatch(UUID_V4);
    expect(keys().every((k) => k === key)).toBe(true);
    expect(server.requests.every((r) => r.method === 'POST' && r.body === '{"amount":20}')).toBe(true);
    expect(delays).toEqual([2000, 100, 200]);
  });

  it('retries a keyed POST answered 408 or 504 (a timeout on the way)', async () => {
    script = [{ status: 408 }, { status: 504 }];
    const { client: c } = client();
    const { response } = await c.POST('/cards/{code}/withdraw', withdraw);
    expect(response.status).toBe(200);
    expect(keys()).toHaveLength(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it('keeps the key you give, as a header of the call, and reuses it on retries', async () => {
    script = [{ status: 500 }];
    const { client: c } = client();
    await c.POST('/cards/{code}/withdraw', { ...withdraw, headers: { 'Idempotency-Key': 'order-42-withdraw' } });
    await c.POST('/cards/{code}/withdraw', {
      ...withdraw,
      params: { ...withdraw.params, header: { 'idempotency-key': 'order-43-withdraw' } },
    } as typeof withdraw);
    expect(keys()).toEqual(['order-42-withdraw', 'order-42-withdraw', 'order-43-withdraw']);
  });

  it('a POST that runs out of timeoutMs throws PartnerTimeoutError after sending its key', async () => {
    script = [{ hangMs: 2000 }];
    const { client: c } = client({ timeoutMs: 150 });
    await expect(c.POST('/cards/{code}/withdraw', withdraw)).rejects.toBeInstanceOf(PartnerTimeoutError);
    expect(keys()).toHaveLength(1);
    expect(keys()[0]).toMatch(UUID_V4);
  });

  it('idempotencyKeys: false sends no key, and never retries a POST without one', async () => {
    script = [{ status: 503 }];
    const { client: c, delays } = client({ idempotencyKeys: false });
    const { response } = await c.POST('/cards/{code}/withdraw', withdraw);
    expect(response.status).toBe(503);
    expect(keys()).toEqual([undefined]);
    expect(delays).toEqual([]);
  });

  it('idempotencyKeys: false still sends and retries with a key you give', async () => {
    script = [{ status: 503 }];
    const { client: c } = client({ idempotencyKeys: false });
    const { response } = await c.POST('/cards/{code}/withdraw', { ...withdraw, headers: { 'Idempotency-Key': 'mine-1' } });
    expect(response.status).toBe(200);
    expect(keys()).toEqual(['mine-1', 'mine-1']);
  });
});

describe('a key added by a middleware', () => {
  it('makes the POST retryable with idempotencyKeys: false', async () => {
    script = [{ status: 503 }];
    const { client: c } = client({ idempotencyKeys: false });
    c.use({ onRequest: ({ request }) => void request.headers.set('Idempotency-Key', 'from-middleware') });
    const { response } = await c.POST('/cards/{code}/withdraw', withdraw);
    expect(response.status).toBe(200);
    expect(keys()).toEqual(['from-middleware', 'from-middleware']);
  });
});
