// createPartnerClient: the key, its mode, the bearer header and the base addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, modeOfApiKey } from '../../src/index.js';
import { meta, sendJson, startServer, TEST_KEY, type LocalServer } from './support.js';

let server: LocalServer;
beforeAll(async () => {
  server = await startServer((_req, res) =>
    sendJson(res, 200, { success: true, data: [], meta: meta(), pagination: { page: 1, limit: 20, total: 0, pages: 0 } }),
  );
});
afterAll(async () => {
  await server?.close();
});

describe('API key', () => {
  it('gives the mode from the prefix', () => {
    expect(createPartnerClient({ apiKey: 'sk_test_abc123', baseUrl: 'https://api.example.com/v1' }).mode).toBe('test');
    expect(createPartnerClient({ apiKey: 'sk_live_abc123', baseUrl: 'https://api.example.com/v1' }).mode).toBe('live');
    // The rest of a key is any visible character (the sandbox accepts the same keys: src/client/api-key.ts).
    expect(createPartnerClient({ apiKey: 'sk_test_abc-def.1', baseUrl: 'https://api.example.com/v1' }).mode).toBe('test');
  });

  it.each([
    ['an empty key', '', /missing or empty/],
    ['a missing key', undefined, /missing or empty/],
    ['a key of another type', 'pk_test_abc123', /does not start with sk_test_ or sk_live_/],
    ['a prefix alone', 'sk_test_', /does not start with sk_test_ or sk_live_ followed by the key/],
    ['a prefix in the wrong case', 'SK_LIVE_abc', /does not start with sk_test_ or sk_live_/],
    ['a key with a trailing newline', 'sk_test_abc123\n', /whitespace/],
    ['a key with a space', 'sk_test_abc 123', /whitespace/],
    [
      'a key with a character outside visible ASCII',
      'sk_test_abcé',
      /does not start with sk_test_ or sk_live_ followed by the key \(visible characters, no spaces\)/,
    ],
    ['a key with its Bearer prefix', 'Bearer sk_test_abc123', /Bearer/],
    ['a webhook secret', 'whsec_abc123', /webhook signing secret/],
  ])('refuses %s at construction, with a clear message', (_what, apiKey, message) => {
    expect(() => createPartnerClient({ apiKey: apiKey as string, baseUrl: 'https://api.example.com/v1' })).toThrow(message);
    expect(() => modeOfApiKey(apiKey)).toThrow(TypeError);
  });

  it('never echoes the key in its messages', () => {
    const secret = 'sk_tset_SECRETVALUE123';
    try {
      createPartnerClient({ apiKey: secret, baseUrl: 'https://api.example.com/v1' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('SECRETVALUE');
    }
  });

  it('sends Authorization: Bearer <key> on every request, and extra headers', async () => {
    server.requests.length = 0;
    const client = createPartnerClient({
      apiKey: TEST_KEY,
      baseUrl: server.url,
      headers: { 'X-Partner-Trace': 'abc', Authorization: 'Bearer sk_live_overridden' },
    });
    await client.GET('/cards');
    await client.POST('/cards/{code}/freeze', { params: { path: { code: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } } });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${TEST_KEY}`, `Bearer ${TEST_KEY}`]);
    expect(server.requests[0]?.headers['x-partner-trace']).toBe('abc');
  });
});

describe('base addresses', () => {
  it('refuses a base URL that is not an absolute http(s) URL', () => {
    for (const baseUrl of ['', 'api.example.com/v1', '/v1', 'ftp://api.example.com/v1', undefined]) {
      expect(() => createPartnerClient({ apiKey: TEST_KEY, baseUrl: baseUrl as string })).toThrow(
        /baseUrl must be an absolute http\(s\) URL/,
      );
    }
    expect(() => createPartnerClient({ apiKey: TEST_KEY, baseUrl: 'https://api.example.com/v1', giftCardBaseUrl: 'api/v1' })).toThrow(
      /giftCardBaseUrl must be an absolute http\(s\) URL/,
    );
  });

  it('keeps the base path and drops a trailing slash', async () => {
    server.requests.length = 0;
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${server.url}/v1/` });
    expect(client.baseUrl).toBe(`${server.url}/v1`);
    await client.GET('/cards', { params: { query: { page: 2, limit: 5 } } });
    expect(server.requests[0]?.url).toBe('/v1/cards?page=2&limit=5');
  });
});
