// Gift card operations carry their own `servers` ({alt_base_url}, ending in /api/v1): the client sends
// them to giftCardBaseUrl, and everything else to baseUrl.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, isGiftCardPath } from '../../src/index.js';
import { meta, OPENAPI_JSON, sendJson, startServer, TEST_KEY, type LocalServer } from './support.js';
import { contractModel, type JsonObject } from '../../src/contract/model.ts';

const model = contractModel(JSON.parse(fs.readFileSync(OPENAPI_JSON, 'utf8')) as JsonObject);
const paths = [...new Set(model.operations.map((o) => o.path))];

/** Paths whose Path Item, or one of whose operations, declares its own `servers`. */
const ownServers = [...new Set(model.operations.filter((o) => o.item.node.servers || o.node.servers).map((o) => o.path))];

let main: LocalServer;
let gift: LocalServer;
const answer: Parameters<typeof startServer>[0] = (req, res) =>
  sendJson(res, 200, {
    success: true,
    data: req.method === 'GET' ? [] : {},
    meta: meta(),
    pagination: { page: 1, limit: 20, total: 0, pages: 0 },
  });

beforeAll(async () => {
  main = await startServer(answer);
  gift = await startServer(answer);
});
afterAll(async () => {
  await main?.close();
  await gift?.close();
});

/** A call to `path` (template) with its path parameters filled in. */
function callFor(client: ReturnType<typeof createPartnerClient>, path: string, method: string) {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const params = { path: Object.fromEntries(names.map((n) => [n, 'p1'])) };
  return client.request(method as 'get', path as never, { params } as never);
}

describe('gift card base address', () => {
  it('the contract gives {alt_base_url} to the gift card paths, and only to them', () => {
    expect(ownServers.length).toBeGreaterThan(0);
    for (const p of ownServers) {
      const item = model.operations.find((o) => o.path === p)!.item.node;
      const servers = (item.servers ?? []) as { url: string }[];
      expect(servers.map((s) => s.url)).toContain('{alt_base_url}');
    }
    expect(paths.filter(isGiftCardPath).sort()).toEqual([...ownServers].sort());
  });

  it('routes every operation of every path with its own servers to giftCardBaseUrl, the others to baseUrl', async () => {
    const client = createPartnerClient({
      apiKey: TEST_KEY,
      baseUrl: `${main.url}/v1`,
      giftCardBaseUrl: `${gift.url}/api/v1`,
      retry: false,
    });
    for (const p of paths) {
      for (const { method } of model.operations.filter((o) => o.path === p)) {
        main.requests.length = 0;
        gift.requests.length = 0;
        await callFor(client, p, method);
        const expected = p.replace(/\{[^}]+\}/g, 'p1');
        if (ownServers.includes(p)) {
          expect(
            gift.requests.map((r) => `${r.method} ${r.url}`),
            `${method} ${p}`,
          ).toEqual([`${method.toUpperCase()} /api/v1${expected}`]);
          expect(main.requests).toEqual([]);
          expect(gift.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
        } else {
          expect(
            main.requests.map((r) => `${r.method} ${r.url}`),
            `${method} ${p}`,
          ).toEqual([`${method.toUpperCase()} /v1${expected}`]);
          expect(gift.requests).toEqual([]);
        }
      }
    }
  });

  it('routes the data-or-throw calls and paginate too', async () => {
    gift.requests.length = 0;
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${main.url}/v1`, giftCardBaseUrl: `${gift.url}/api/v1` });
    await client.call.GET('/gift-cards/orders');
    for await (const _order of client.paginate('/gift-cards/orders')) {
      // empty list
    }
    expect(gift.requests.map((r) => r.url)).toEqual(['/api/v1/gift-cards/orders', '/api/v1/gift-cards/orders?page=1']);
  });

  it('without giftCardBaseUrl, a gift card call throws before sending anything', async () => {
    main.requests.length = 0;
    const client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${main.url}/v1` });
    expect(client.giftCardBaseUrl).toBeUndefined();
    await expect(
      client.POST('/gift-cards/orders', {
        body: { customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f', product_id: 'gcp_1', amount: 50, quantity: 1 },
      }),
    ).rejects.toThrow(/served at the gift card address \{alt_base_url\}.*Pass giftCardBaseUrl/);
    expect(main.requests).toEqual([]);
  });
});
