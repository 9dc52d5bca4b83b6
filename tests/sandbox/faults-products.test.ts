// Simulated faults (POST/GET/DELETE /sandbox/faults) and per-account product access (PATCH /sandbox/account
// `products`): a faulted operation answers its documented 500 or 502 in the envelope and leaves no partial
// state; a product outside the account's list answers 402; bad input to both gets a 422 in the envelope.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkConfig } from '../../src/sandbox/core/sandbox.ts';
import { failure, ledgerOf, opsBalance, startTestSandbox, useScenario, type TestSandbox } from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, customer: string;
beforeAll(() => ({ sandbox, customer } = scenario));
afterEach(async () => {
  await sandbox.simulate('DELETE', '/faults');
});

const cardBody = () => JSON.stringify({ customer_code: customer, brand: 'VISA', category: 'virtual', amount: 50 });
const eventCount = () => sandbox.core.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events')!.n;
const cardCount = () => sandbox.core.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM cards')!.n;

describe('faults', () => {
  it('arms the next request of an operation to answer 502 OPERATION_FAILED, leaving no state, event or debit', async () => {
    const armed = await sandbox.simulate('POST', '/faults', { operation_id: 'createCard', status: 502 });
    expect(armed.status).toBe(200);
    expect(armed.body.data).toMatchObject({ operation_id: 'createCard', status: 502, code: 'OPERATION_FAILED', remaining: 1 });
    expect(armed.body.data.id).toMatch(/^flt_[0-9a-f]{24}$/);

    const [balanceBefore, ledgerBefore, eventsBefore, cardsBefore] = [
      await opsBalance(sandbox, 'cards_visa'),
      ledgerOf(sandbox, 'cards_visa').length,
      eventCount(),
      cardCount(),
    ];
    const idempotencyKey = 'fault-retry-1';
    const faulted = await sandbox.request('POST', '/v1/cards', { body: cardBody(), headers: { 'Idempotency-Key': idempotencyKey } });
    expect(faulted.status).toBe(502);
    expect(faulted.body).toMatchObject({ success: false, error: { code: 'OPERATION_FAILED', details: null }, meta: { mode: 'test' } });
    expect(faulted.body.meta.request_id).toMatch(/^req_/);

    // Nothing happened: no card, no debit, no balance transaction, no event.
    expect(cardCount()).toBe(cardsBefore);
    expect(await opsBalance(sandbox, 'cards_visa')).toBe(balanceBefore);
    expect(ledgerOf(sandbox, 'cards_visa')).toHaveLength(ledgerBefore);
    expect(eventCount()).toBe(eventsBefore);
    expect((await sandbox.simulate('GET', '/faults')).body.data).toEqual([]);

    // The 5xx was not kept: a retry with the same key runs the operation.
    const retried = await sandbox.request('POST', '/v1/cards', { body: cardBody(), headers: { 'Idempotency-Key': idempotencyKey } });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(cardCount()).toBe(cardsBefore + 1);
    expect(await opsBalance(sandbox, 'cards_visa')).toBe(balanceBefore - 56);
  });

  it('answers 500 INTERNAL_ERROR for `count` requests, oldest fault first, then the operation again', async () => {
    await sandbox.simulate('POST', '/faults', { operation_id: 'listCards', status: 500, count: 2, message: 'Planned outage.' });
    const first = await sandbox.request('GET', '/v1/cards');
    expect(first).toMatchObject({
      status: 500,
      body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'Planned outage.', details: null } },
    });
    const listed = await sandbox.simulate('GET', '/faults');
    expect(listed.body.data).toMatchObject([{ operation_id: 'listCards', status: 500, remaining: 1 }]);
    expect((await sandbox.request('GET', '/v1/cards')).status).toBe(500);
    expect((await sandbox.request('GET', '/v1/cards')).status).toBe(200);
  });

  it('is taken only by a request that reaches the operation: not by another key, another operation or an invalid request', async () => {
    await sandbox.simulate('POST', '/faults', { operation_id: 'createCard', status: 500 });
    expect((await sandbox.request('GET', '/v1/cards')).status).toBe(200);
    expect((await sandbox.request('GET', '/v1/cards', { key: 'sk_test_fault_other' })).status).toBe(200);
    const invalid = await sandbox.request('POST', '/v1/cards', { body: JSON.stringify({ brand: 'VISA' }) });
    expect(invalid.status).toBe(422);
    expect((await sandbox.simulate('GET', '/faults')).body.data).toMatchObject([{ operation_id: 'createCard', remaining: 1 }]);
    expect((await sandbox.request('POST', '/v1/cards', { body: cardBody() })).status).toBe(500);
  });

  it('DELETE /sandbox/faults disarms every fault of the key', async () => {
    await sandbox.simulate('POST', '/faults', { operation_id: 'listCards', status: 500, count: 5 });
    await sandbox.simulate('POST', '/faults', { operation_id: 'freezeCard', status: 502 });
    const cleared = await sandbox.simulate('DELETE', '/faults');
    expect(cleared).toMatchObject({ status: 200, body: { data: { cleared: 2 } } });
    expect((await sandbox.request('GET', '/v1/cards')).status).toBe(200);
  });

  it('refuses bad input with 422 in the envelope, naming the field', async () => {
    const unknown = await sandbox.simulate('POST', '/faults', { operation_id: 'mintMoney', status: 500 });
    expect(unknown).toMatchObject({
      status: 422,
      body: { success: false, error: { code: 'VALIDATION_ERROR', details: { fields: [{ field: 'operation_id' }] } } },
    });
    // listCards documents no 502.
    const undocumented = await sandbox.simulate('POST', '/faults', { operation_id: 'listCards', status: 502 });
    expect(undocumented).toMatchObject({
      status: 422,
      body: { error: { code: 'VALIDATION_ERROR', details: { fields: [{ field: 'status' }] } } },
    });
    expect(undocumented.body.error.message).toContain('does not document the status 502');
    for (const [body, field] of [
      [{ operation_id: 'listCards', status: 503 }, 'status'],
      [{ operation_id: 'listCards', status: 500, count: 0 }, 'count'],
      [{ operation_id: 'listCards' }, 'status'],
      [{ operation_id: 'listCards', status: 500, extra: true }, 'extra'],
    ] as const) {
      const r = await sandbox.simulate('POST', '/faults', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const noKey = await fetch(`${sandbox.simulationUrl}/faults`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ success: false, error: { code: 'AUTHENTICATION_REQUIRED' } });
    expect((await sandbox.simulate('GET', '/faults')).body.data).toEqual([]);
  });
});

describe('product access', () => {
  const key = 'sk_test_products';
  it('an account without products answers 402 for every gated product, and the open areas stay reachable', async () => {
    const set = await sandbox.simulate('PATCH', '/account', { products: [] }, key);
    expect(set).toMatchObject({ status: 200, body: { data: { plan: 'starter', products: [] } } });
    for (const path of [
      '/v1/cards',
      '/v1/wallets',
      '/v1/virtual-accounts',
      '/v1/payouts',
      `/v1/kyc/${customer}/status`,
      `/v1/poa/${customer}/status`,
    ]) {
      const r = await sandbox.request('GET', path, { key });
      expect(r.status, path).toBe(402);
      expect(r.body).toMatchObject({ success: false, error: { code: 'PLAN_UPGRADE_REQUIRED', details: null } });
    }
    expect((await sandbox.request('GET', '/api/v1/gift-cards/products', { key })).status).toBe(402);
    for (const path of ['/v1/customers', '/v1/balance', '/v1/webhooks', '/v1/events'])
      expect((await sandbox.request('GET', path, { key })).status, path).toBe(200);
  });

  it('a list of products opens those only; null gives the plan back', async () => {
    await sandbox.simulate('PATCH', '/account', { products: ['cards', 'payouts'] }, key);
    expect((await sandbox.request('GET', '/v1/cards', { key })).status).toBe(200);
    expect((await sandbox.request('GET', '/v1/payouts', { key })).status).toBe(200);
    expect(await failure(sandbox.client(key).call.GET('/wallets', {}))).toMatchObject({ status: 402, code: 'PLAN_UPGRADE_REQUIRED' });
    const reset = await sandbox.simulate('PATCH', '/account', { products: null }, key);
    expect(reset.body.data.products).toBeNull();
    expect((await sandbox.request('GET', '/v1/wallets', { key })).status).toBe(200);
    // On Découverte, the plan decides again: no wallets.
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    expect((await sandbox.request('GET', '/v1/wallets', { key })).status).toBe(402);
  });

  it('an account with a list of products holds only their ops balances and `others`: another type answers 404', async () => {
    const holder = 'sk_test_products_balances';
    await sandbox.simulate('PATCH', '/account', { products: ['gift_cards'] }, holder);
    const listed = await sandbox.request('GET', '/v1/balance', { key: holder });
    expect(listed.body.data.map((b: { type: string }) => b.type).sort()).toEqual(['gift_cards', 'others']);
    for (const path of ['/v1/balance/cards_visa', '/v1/balance/payout_sepa/transactions']) {
      const r = await sandbox.request('GET', path, { key: holder });
      expect(r.status, path).toBe(404);
      expect(r.body).toMatchObject({ success: false, error: { code: 'RESOURCE_NOT_FOUND', details: null } });
    }
    expect((await sandbox.request('GET', '/v1/balance/gift_cards', { key: holder })).status).toBe(200);
    // The plan decides again: every balance, as it was.
    await sandbox.simulate('PATCH', '/account', { products: null }, holder);
    expect((await sandbox.request('GET', '/v1/balance/cards_visa', { key: holder })).body.data.balance).toBe(10_000);
  });

  it('refuses an unknown product (422) in the simulation API, and in a config', async () => {
    const r = await sandbox.simulate('PATCH', '/account', { products: ['crypto'] }, key);
    expect(r).toMatchObject({ status: 422, body: { success: false, error: { code: 'VALIDATION_ERROR' } } });
    expect(r.body.error.details.fields[0].field).toMatch(/^products/);
    expect(() => checkConfig({ accounts: { sk_test_x: { products: ['crypto'] } } })).toThrow(
      /accounts\.sk_test_x\.products: "crypto" is not one of cards/,
    );
    expect(() => checkConfig({ accounts: { sk_test_x: { rate_limit: 0 } } })).toThrow(/rate_limit: a positive integer/);
  });
});

describe('a key with a rate limit of 1 a minute (config)', () => {
  it('answers its second request of the minute 429 with Retry-After and X-RateLimit-*', async () => {
    const limited = await startTestSandbox({
      rateLimit: true,
      config: { accounts: { sk_test_one_a_minute: { rate_limit: 1, products: [] } } },
    });
    try {
      const first = await limited.request('GET', '/v1/balance', { key: 'sk_test_one_a_minute' });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('1');
      const second = await limited.request('GET', '/v1/cards', { key: 'sk_test_one_a_minute' });
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED' } });
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
      // The config's products apply too, once the window has passed.
      await limited.advance(60, 'sk_test_one_a_minute');
      expect((await limited.request('GET', '/v1/cards', { key: 'sk_test_one_a_minute' })).status).toBe(402);
      expect(limited.problems).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});
