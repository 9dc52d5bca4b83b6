// The client against the mock API of the contract (generated/openapi.json), over real HTTP, with the
// documented base addresses: {base_url} ends in /v1, {alt_base_url} in /api/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, isPartnerApiError, PartnerApiError, type PartnerClient } from '../../src/index.js';
import type { MockServer } from '../../scripts/mock/server.ts';
import { startMock, TEST_KEY } from './support.js';

const CARD = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let prism: MockServer;
let client: PartnerClient;

beforeAll(async () => {
  prism = await startMock();
  client = createPartnerClient({ apiKey: TEST_KEY, baseUrl: prism.baseUrl, giftCardBaseUrl: prism.giftCardBaseUrl, retry: false });
});
afterAll(async () => {
  await prism?.stop();
});

describe('against the mock API', () => {
  it('returns the success envelope in data, with the raw openapi-fetch shape', async () => {
    const { data, error, response } = await client.GET('/cards', { params: { query: { limit: 20 } } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.success).toBe(true);
    expect(data?.meta.mode).toMatch(/^(test|live)$/);
    expect(data?.pagination.page).toBeGreaterThanOrEqual(1);
    expect(data?.data.length).toBeGreaterThan(0);
    for (const card of data?.data ?? []) expect(card.code).toMatch(UUID);
  });

  it('sends the bearer key: without it the mock answers 401', async () => {
    const anonymous = await fetch(`${prism.baseUrl}/cards`);
    expect(anonymous.status).toBe(401);
    const { response } = await client.GET('/cards');
    expect(response.status).toBe(200);
  });

  it('returns a typed error body via Prefer: code=404', async () => {
    const { data, error, response } = await client.GET('/cards/{code}', {
      params: { path: { code: CARD } },
      headers: { Prefer: 'code=404' },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.success).toBe(false);
    expect(error?.error.code).toBe('RESOURCE_NOT_FOUND');
    // (openapi-fetch's Readable<> drops properties typed `null` such as this `details`; the body has it.)
    expect(error?.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: null });
  });

  it('data-or-throw: call.* resolves to the body', async () => {
    const body = await client.call.POST('/cards/{code}/withdraw', {
      params: { path: { code: CARD } },
      body: { amount: 20 },
    });
    expect(body.success).toBe(true);
    expect(body.data.card_code).toMatch(UUID);
    expect(body.data.net_amount).toBe(body.data.amount - body.data.fee);
    expect(body.meta.request_id).toEqual(expect.any(String));
  });

  it('data-or-throw: call.* throws PartnerApiError with status, code, message, details and request id', async () => {
    const error = await client.call
      .POST('/cards/{code}/withdraw', {
        params: { path: { code: CARD } },
        body: { amount: 20 },
        headers: { Prefer: 'code=400' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(isPartnerApiError(error, 'POST', '/cards/{code}/withdraw')).toBe(true);
    expect(isPartnerApiError(error, 'GET', '/cards')).toBe(false);
    if (!isPartnerApiError(error, 'POST', '/cards/{code}/withdraw')) throw error;
    expect(error.status).toBe(400);
    expect(error.code).toBe('INSUFFICIENT_BALANCE');
    expect(error.message).toEqual(expect.any(String));
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.requestId).toMatch(/^req_/);
    expect(error.requestId).toBe(error.meta?.request_id);
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/cards/{code}/withdraw');
    if (error.code !== 'INSUFFICIENT_BALANCE') throw error;
    expect(typeof error.details.required).toBe('number');
    expect(typeof error.details.available).toBe('number');
    expect(error.details.balance_type).toEqual(expect.any(String));
    expect(error.response.status).toBe(400);
  });

  it('unwrap() turns a raw result into data or a PartnerApiError', async () => {
    const ok = client.unwrap(
      await client.GET('/poa/{customerCode}/status', {
        params: { path: { customerCode: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f' } },
      }),
    );
    expect(ok.data.customer_code).toMatch(UUID);

    const failed = await client.GET('/poa/{customerCode}/status', {
      params: { path: { customerCode: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f' } },
      headers: { Prefer: 'code=404' },
    });
    expect(() => client.unwrap(failed)).toThrow(PartnerApiError);
    try {
      client.unwrap(failed);
    } catch (error) {
      expect(isPartnerApiError(error, 'GET', '/poa/{customerCode}/status')).toBe(true);
      expect(error).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND', details: null });
    }
  });

  it('a request the contract rejects comes back as its documented VALIDATION_ERROR', async () => {
    const error = await client.call.GET('/cards', { params: { query: { limit: 1000 } } }).catch((e: unknown) => e);
    expect(isPartnerApiError(error, 'GET', '/cards')).toBe(true);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
  });

  it('reaches the gift card operations at giftCardBaseUrl', async () => {
    const order = await client.call.POST('/gift-cards/orders', {
      body: { customer_code: '3f1c2a9e-8b7d-4c5e-9f10-2a3b4c5d6e7f', product_id: 'gcp_000123', amount: 50, quantity: 2 },
    });
    expect(order.data.quantity).toBe(2);
  });

  it('paginate() reads a real list endpoint to its last page', async () => {
    const cards = [];
    for await (const card of client.paginate('/cards', { params: { query: { limit: 100 } } })) cards.push(card);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards[0]?.code).toMatch(UUID);
  });
});

describe('the client against the mock, when something is wrong', () => {
  it('a baseUrl without /v1 gets the 404 envelope, which names the prefixes', async () => {
    const wrong = createPartnerClient({ apiKey: TEST_KEY, baseUrl: prism.url, retry: false });
    const error = await wrong.call.GET('/cards').catch((e: unknown) => e);
    expect(isPartnerApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
    expect((error as Error).message).toContain('under /v1');
  });

  it('a gift card call at {base_url} gets 421 wrong_api_host', async () => {
    const wrong = createPartnerClient({ apiKey: TEST_KEY, baseUrl: prism.baseUrl, giftCardBaseUrl: prism.baseUrl, retry: false });
    const error = await wrong.call.GET('/gift-cards/orders').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 421, code: 'wrong_api_host' });
  });

  it('a validation failure names the field and the rule', async () => {
    const error = await client.call
      .POST('/cards/{code}/withdraw', { params: { path: { code: CARD } }, body: { amount: 'twenty' as unknown as number } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'amount', message: 'must be number (type)' }] },
    });
  });
});
