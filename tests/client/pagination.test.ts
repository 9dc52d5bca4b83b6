// paginate() against a local server that really pages: 7 cards, 3 per page, 3 pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, PartnerApiError } from '../../src/index.js';
import { cardExample, errorBody, meta, sendJson, startServer, TEST_KEY, type LocalServer } from './support.js';

const TOTAL = 7;
const card = (i: number) => ({
  ...cardExample(),
  code: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  balance: i,
});
const CARDS = Array.from({ length: TOTAL }, (_, i) => card(i + 1));

let server: LocalServer;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/v1/wallets/withdrawals') return sendJson(res, 200, { success: true, data: [], meta: meta() });
    if (url.pathname === '/v1/payouts') {
      return sendJson(res, 200, { success: true, data: [], meta: meta(), pagination: { page: 1, limit: 20, total: 0, pages: 0 } });
    }
    const page = Number(url.searchParams.get('page'));
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const pages = Math.ceil(TOTAL / limit);
    if (url.searchParams.get('customer_code') === 'fail' && page === 2) {
      return sendJson(res, 500, errorBody('INTERNAL_ERROR', 'Something broke.', null, page));
    }
    // A client that does not stop at pagination.pages gets an error here, and its test fails.
    if (page > pages) return sendJson(res, 422, errorBody('VALIDATION_ERROR', `page ${page} is past the last page`));
    sendJson(res, 200, {
      success: true,
      data: CARDS.slice((page - 1) * limit, page * limit),
      meta: meta(page),
      pagination: { page, limit, total: TOTAL, pages },
    });
  });
});
afterAll(async () => {
  await server?.close();
});

const client = () => createPartnerClient({ apiKey: TEST_KEY, baseUrl: `${server.url}/v1`, retry: false });
const requested = () => server.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('page'));

describe('paginate', () => {
  it('yields every item in order, requests page=1..3 and stops at pagination.pages', async () => {
    server.requests.length = 0;
    const codes: string[] = [];
    for await (const item of client().paginate('/cards', { params: { query: { limit: 3 } } })) codes.push(item.code);
    expect(codes).toEqual(CARDS.map((c) => c.code));
    expect(requested()).toEqual(['1', '2', '3']);
    for (const r of server.requests) {
      expect(new URL(r.url, 'http://x').searchParams.get('limit')).toBe('3');
      expect(r.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    }
  });

  it('keeps the other query parameters and starts at the page given', async () => {
    server.requests.length = 0;
    const items = [];
    const query = { limit: 3, page: 2, customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f' };
    for await (const item of client().paginate('/cards', { params: { query } })) items.push(item);
    expect(items.map((c) => c.balance)).toEqual([4, 5, 6, 7]);
    expect(requested()).toEqual(['2', '3']);
    expect(server.requests.every((r) => r.url.includes('customer_code=3f1c2a9e'))).toBe(true);
  });

  it('is lazy: breaking out early requests no further page', async () => {
    server.requests.length = 0;
    for await (const item of client().paginate('/cards', { params: { query: { limit: 3 } } })) {
      if (item.balance === 2) break;
    }
    expect(requested()).toEqual(['1']);
  });

  it('stops after one request when the list is empty (pages: 0)', async () => {
    server.requests.length = 0;
    const items = [];
    for await (const item of client().paginate('/payouts')) items.push(item);
    expect(items).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a list answer without pagination instead of guessing', async () => {
    const run = async () => {
      for await (const _ of client().paginate('/wallets/withdrawals')) {
        // nothing
      }
    };
    await expect(run()).rejects.toThrow(/GET \/wallets\/withdrawals page 1 has no data array or no pagination\.pages/);
  });

  it('throws the PartnerApiError of a failing page, after yielding the pages before it', async () => {
    const seen: number[] = [];
    const run = async () => {
      const query = { limit: 3, customer_code: 'fail' };
      for await (const item of client().paginate('/cards', { params: { query } })) seen.push(item.balance);
    };
    await expect(run()).rejects.toMatchObject({ name: 'PartnerApiError', code: 'INTERNAL_ERROR', status: 500, requestId: 'req_test_2' });
    await expect(run()).rejects.toBeInstanceOf(PartnerApiError);
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
  });
});
