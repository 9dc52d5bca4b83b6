// Timeouts through AbortSignal, against a local server that answers late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, PartnerTimeoutError } from '../../src/index.js';
import { errorBody, meta, sendJson, startServer, TEST_KEY, type LocalServer } from './support.js';

let server: LocalServer;
const ok = { success: true, data: [], meta: meta(), pagination: { page: 1, limit: 20, total: 0, pages: 0 } };

beforeAll(async () => {
  server = await startServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const delay = Number(url.searchParams.get('customer_code')?.slice(-4) ?? 0);
    if (url.pathname === '/rate-limited') {
      return sendJson(res, 429, errorBody('RATE_LIMIT_EXCEEDED', 'Slow down.'), { 'Retry-After': '5' });
    }
    if (url.pathname === '/slow-body') {
      // Headers at once, the body never completes: the timeout must cover reading the body too.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"success":true,');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (!res.destroyed) sendJson(res, 200, ok);
  });
});
afterAll(async () => {
  await server?.close();
});

// The delay the server waits, in ms, is carried by the last 4 digits of customer_code.
const delayed = (ms: number) => ({
  params: { query: { customer_code: `00000000-0000-4000-8000-00000000${String(ms).padStart(4, '0')}` } },
});

describe('timeoutMs', () => {
  it('throws PartnerTimeoutError naming the call and the limit', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 100, retry: false });
    // The server answers after 2 s: only a timeout turns the call into an error.
    const error = await client.GET('/cards', delayed(2000)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerTimeoutError);
    expect(error).toMatchObject({ name: 'PartnerTimeoutError', method: 'GET', path: '/cards', timeoutMs: 100 });
    expect(String((error as Error).message)).toMatch(/GET \/cards timed out after 100 ms/);
  });

  it('lets a call that answers in time through', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 30_000 });
    const { response } = await client.GET('/cards', delayed(20));
    expect(response.status).toBe(200);
  });

  it('covers reading the body', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 150, retry: false });
    await expect(client.GET('/slow-body' as '/cards')).rejects.toBeInstanceOf(PartnerTimeoutError);
  });

  it('covers the waits between retries (the whole call is bounded)', async () => {
    // Real sleep: Retry-After 5 s is longer than the 200 ms the call has. Unbounded, the retries would end in
    // the 429's own error, not a timeout.
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 200 });
    await expect(client.GET('/rate-limited' as '/cards')).rejects.toBeInstanceOf(PartnerTimeoutError);
  });

  it("a caller's AbortSignal still aborts, with the caller's reason, not a timeout", async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user went away')), 50);
    const error = await client.GET('/cards', { ...delayed(2000), signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(PartnerTimeoutError);
    expect(error).toMatchObject({ message: 'user went away' });
  });

  it('holds with a fetch of yours that ignores the signal (written for a Request alone)', async () => {
    const never = (_request: Request) => new Promise<Response>(() => {});
    const forwardsRequestOnly = (request: Request) => globalThis.fetch(request);
    for (const fetch of [never, forwardsRequestOnly]) {
      const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 100, retry: false, fetch });
      // One never answers and the other answers after 3 s: either way only the timeout ends the call in an error.
      await expect(client.GET('/cards', delayed(3000))).rejects.toBeInstanceOf(PartnerTimeoutError);
    }
  });

  it('passes the signal to fetch as init.signal, which aborts on timeout', async () => {
    let seen: AbortSignal | undefined;
    const fetch = (request: Request, init?: { signal?: AbortSignal }) => {
      seen = init?.signal;
      return globalThis.fetch(request, init);
    };
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 100, retry: false, fetch });
    await expect(client.GET('/cards', delayed(3000))).rejects.toBeInstanceOf(PartnerTimeoutError);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(PartnerTimeoutError);
  });

  it('timeoutMs: 0 turns the timeout off; a bad value is refused', async () => {
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 0 });
    expect((await client.GET('/cards', delayed(50))).response.status).toBe(200);
    expect(() => createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
    expect(() => createPartnerClient({ apiKey: TEST_KEY, baseUrl: server.url, timeoutMs: 2 ** 31 })).toThrow(/timeoutMs/);
  });
});
