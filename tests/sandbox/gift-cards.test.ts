// Gift cards end to end over HTTP (served at /api/v1): the catalogue, orders debiting `gift_cards`, delivery
// with redemption details on GET only, failure with a refund, refund of a delivered order; every documented
// error reached through real state, and every cent of `gift_cards` accounted for.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KEY,
  connect,
  failure,
  newCustomer,
  opsBalance,
  reconcile,
  startReceiver,
  until,
  restrictCustomer,
  useScenario,
  type Receiver,
  type TestSandbox,
} from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, customer: string;
beforeAll(() => ({ sandbox, receiver, customer } = scenario));

const api = (key = KEY) => sandbox.client(key);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const order = (body: { product_id: string; amount: number; quantity: number; customer_code?: string }, key = KEY) =>
  api(key).call.POST('/gift-cards/orders', { body: { customer_code: customer, ...body } });
const read = (code: string, key = KEY) => api(key).call.GET('/gift-cards/orders/{code}', { params: { path: { code } } });

describe('catalogue', () => {
  it('lists the products by name, filters by country, and reads one', async () => {
    const all = await api().call.GET('/gift-cards/products', {});
    const names = all.data.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(all.pagination.total).toBe(all.data.length);
    const gb = await api().call.GET('/gift-cards/products', { params: { query: { country: 'GB' } } });
    expect(gb.data.map((p) => p.country)).toEqual(['GB']);
    const paged = await api().call.GET('/gift-cards/products', { params: { query: { limit: 1, page: 2 } } });
    expect(paged.data).toEqual([all.data[1]]);
    const one = await api().call.GET('/gift-cards/products/{productId}', { params: { path: { productId: 'amazon_us_usd' } } });
    expect(one.data).toMatchObject({ denomination_type: 'fixed', denominations: [10, 25, 50, 100] });
    expect(
      await failure(api().call.GET('/gift-cards/products/{productId}', { params: { path: { productId: 'no_such_card' } } })),
    ).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' });
  });

  it('answers 421 wrong_api_host at /v1', async () => {
    const r = await sandbox.request('GET', '/v1/gift-cards/products');
    expect(r.status).toBe(421);
    expect(r.body.error.code).toBe('wrong_api_host');
  });
});

describe('orders', () => {
  it('debits amount x quantity, is pending, then delivered by itself with redemption details on GET only', async () => {
    const before = await opsBalance(sandbox, 'gift_cards');
    const created = (await order({ product_id: 'amazon_us_usd', amount: 25, quantity: 3 })).data;
    expect(created).toMatchObject({ status: 'pending', amount: 25, quantity: 3, product_id: 'amazon_us_usd', redemptions: null });
    expect(await opsBalance(sandbox, 'gift_cards')).toBe(before - 75);
    await until(() => receiver.of('balance.debited').some((e) => e.data.reason === 'gift_card_order' && e.data.amount === 75));
    expect((await read(created.code)).data.redemptions).toBeNull();

    await sandbox.advance(2);
    await until(() => receiver.of('gift_card.delivered').some((e) => e.data.order_code === created.code));
    const delivered = receiver.of('gift_card.delivered').find((e) => e.data.order_code === created.code)!;
    expect(delivered.data).toMatchObject({ customer_code: customer, product_id: 'amazon_us_usd', amount: 25, quantity: 3 });
    expect(JSON.stringify(delivered.data)).not.toContain('redemption');

    const r = await sandbox.request('GET', `/api/v1/gift-cards/orders/${created.code}`);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body.data.status).toBe('delivered');
    expect(r.body.data.redemptions).toHaveLength(3);
    for (const redemption of r.body.data.redemptions) expect(redemption.redemption_url).toMatch(/^https:\/\//);
    const listed = await api().call.GET('/gift-cards/orders', { params: { query: { customer_code: customer } } });
    expect(listed.data.find((o) => o.code === created.code)).toMatchObject({ status: 'delivered', redemptions: null });
  });

  it('refuses an amount outside the product, an unknown product or customer, a restricted customer', async () => {
    expect(await failure(order({ product_id: 'amazon_us_usd', amount: 30, quantity: 1 }))).toMatchObject({
      status: 422,
      details: { fields: [{ field: 'amount' }] },
    });
    expect(await failure(order({ product_id: 'apple_us_usd', amount: 500.01, quantity: 1 }))).toMatchObject({ status: 422 });
    expect((await order({ product_id: 'apple_us_usd', amount: 500, quantity: 1 })).data.status).toBe('pending');
    expect(await failure(order({ product_id: 'no_such_card', amount: 25, quantity: 1 }))).toMatchObject({ status: 404 });
    expect(await failure(order({ product_id: 'amazon_us_usd', amount: 25, quantity: 1, customer_code: UNKNOWN }))).toMatchObject({
      status: 404,
    });
    expect(await failure(api().call.GET('/gift-cards/orders', { params: { query: { customer_code: UNKNOWN } } }))).toMatchObject({
      status: 404,
    });
    expect(await failure(read(UNKNOWN))).toMatchObject({ status: 404 });
    const restricted = await newCustomer(sandbox);
    await restrictCustomer(sandbox, restricted);
    expect(await failure(order({ product_id: 'amazon_us_usd', amount: 25, quantity: 1, customer_code: restricted }))).toMatchObject({
      status: 403,
      code: 'ACCOUNT_RESTRICTED',
    });
  });

  it('failure refunds (gift_card.failed), a delivered order can be refunded (gift_card.refunded); every cent accounted for', async () => {
    const key = 'sk_test_gift_manual';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    await sandbox.simulate('PATCH', '/account', { manual: true }, key);
    const buyer = await newCustomer(sandbox, key);
    const a = (await order({ product_id: 'google_play_us_usd', amount: 50, quantity: 2, customer_code: buyer }, key)).data;
    const b = (await order({ product_id: 'steam_gb_usd', amount: 12.34, quantity: 1, customer_code: buyer }, key)).data;
    const c = (await order({ product_id: 'amazon_us_usd', amount: 10, quantity: 1, customer_code: buyer }, key)).data;
    await sandbox.advance(60, key);
    expect((await read(a.code, key)).data.status).toBe('pending');

    const failed = await sandbox.simulate(
      'POST',
      `/gift-card-orders/${a.code}/outcome`,
      { outcome: 'failed', reason: 'vendor_out_of_stock' },
      key,
    );
    expect(failed.body.data).toMatchObject({ status: 'failed', redemptions: null });
    expect((await sandbox.simulate('POST', `/gift-card-orders/${b.code}/outcome`, { outcome: 'refunded' }, key)).status).toBe(422);
    const delivered = await sandbox.simulate('POST', `/gift-card-orders/${b.code}/outcome`, { outcome: 'delivered' }, key);
    expect(delivered.body.data.redemptions).toHaveLength(1);
    const refunded = await sandbox.simulate('POST', `/gift-card-orders/${b.code}/outcome`, { outcome: 'refunded' }, key);
    expect(refunded.body.data).toMatchObject({ status: 'refunded', redemptions: null });
    expect((await read(b.code, key)).data.redemptions).toBeNull();
    const again = await sandbox.simulate('POST', `/gift-card-orders/${a.code}/outcome`, { outcome: 'delivered' }, key);
    expect(again.status).toBe(422);
    expect(again.body.error.details.current_status).toBe('failed');

    await until(() => r.of('gift_card.refunded').length === 1 && r.of('gift_card.failed').length === 1);
    expect(r.of('gift_card.failed')[0]!.data).toMatchObject({ order_code: a.code, reason: 'vendor_out_of_stock', amount: 50, quantity: 2 });
    expect(r.of('gift_card.refunded')[0]!.data).toMatchObject({ order_code: b.code, refunded_amount: 12.34, balance_type: 'gift_cards' });

    // 10,000.00 - 100.00 - 12.34 - 10.00 + 100.00 + 12.34 = 9,990.00: only the pending order c is still debited.
    expect(await opsBalance(sandbox, 'gift_cards', key)).toBe(9990);
    expect(reconcile(sandbox, 'gift_cards', key)).toEqual({
      gift_card_order: -12_234,
      gift_card_order_refund: 10_000,
      gift_card_refund: 1_234,
    });
    expect((await read(c.code, key)).data.status).toBe('pending');
    expect(r.problems).toEqual([]);
    await r.close();
  });

  it('too little on gift_cards: 400 INSUFFICIENT_BALANCE ops_balance_too_low, nothing debited', async () => {
    const key = 'sk_test_gift_short';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const buyer = await newCustomer(sandbox, key);
    await sandbox.simulate('PUT', '/balances/gift_cards', { balance: 49.99 }, key);
    expect(await failure(order({ product_id: 'amazon_us_usd', amount: 25, quantity: 2, customer_code: buyer }, key))).toMatchObject({
      status: 400,
      code: 'INSUFFICIENT_BALANCE',
      details: { reason: 'ops_balance_too_low', balance_type: 'gift_cards', required: 50, available: 49.99 },
    });
    expect(await opsBalance(sandbox, 'gift_cards', key)).toBe(49.99);
    expect((await api(key).call.GET('/gift-cards/orders', {})).data).toEqual([]);
    await r.close();
  });

  it('50 parallel orders on one balance: exactly what it covers succeeds, never below zero, every cent accounted for', async () => {
    const key = 'sk_test_gift_parallel';
    const r = await startReceiver();
    await connect(sandbox, r, key);
    const buyer = await newCustomer(sandbox, key);
    await sandbox.simulate('PUT', '/balances/gift_cards', { balance: 1000 }, key);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => order({ product_id: 'amazon_us_usd', amount: 25, quantity: 1, customer_code: buyer }, key)),
    );
    const ok = results.filter((x) => x.status === 'fulfilled').length;
    expect(ok).toBe(40);
    for (const x of results)
      if (x.status === 'rejected') expect((await failure(Promise.reject(x.reason))).details.reason).toBe('ops_balance_too_low');
    expect(await opsBalance(sandbox, 'gift_cards', key)).toBe(0);
    expect(reconcile(sandbox, 'gift_cards', key)).toEqual({ sandbox_adjustment: -900_000, gift_card_order: -100_000 });
    expect((await api(key).call.GET('/gift-cards/orders', { params: { query: { limit: 100 } } })).pagination.total).toBe(40);
    await r.close();
  });
});
