// The event list, one event, and redelivery with the event's own idempotency key (GET /events,
// GET /events/{id}, POST /events/{id}/redeliver); the top-up read (GET /cards/{code}/topups/{topupId}).
import { beforeAll, describe, expect, it } from 'vitest';
import { isObject } from '../../src/contract/bundle.ts';
import { contractModel } from '../../src/contract/model.ts';
import { DOCUMENT, KEY, connect, failure, startReceiver, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario();
let sandbox: TestSandbox, receiver: Receiver, endpoint: string, customer: string;
beforeAll(() => ({ sandbox, receiver, endpoint, customer } = scenario));

const api = (key = KEY) => sandbox.client(key);
const UNKNOWN_EVENT = 'evt_00000000-0000-4000-8000-000000000000';

/** `error.details` of the named example of the redelivery's 422: the refusal as the contract shows it. */
function redeliveryRefusal(name: string): unknown {
  const examples = contractModel(DOCUMENT).byPath('POST', '/events/{id}/redeliver')?.response(422)?.json?.examples ?? [];
  const value = examples.find((e) => e.name === name)?.value;
  const error = isObject(value) ? value.error : undefined;
  if (!isObject(error)) throw new Error(`no example ${name} of the 422 of POST /events/{id}/redeliver`);
  return error.details;
}

async function giftCardOrder(amount = 25) {
  return (
    await api().call.POST('/gift-cards/orders', { body: { customer_code: customer, product_id: 'amazon_us_usd', amount, quantity: 1 } })
  ).data;
}

describe('events', () => {
  it('lists the events most recent first, by type and period, each as delivered', async () => {
    const first = await giftCardOrder();
    await sandbox.advance(2);
    await until(() => receiver.of('gift_card.delivered').some((e) => e.data.order_code === first.code));
    const listed = await api().call.GET('/events', { params: { query: { limit: 100 } } });
    const times = listed.data.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const delivered = receiver.of('gift_card.delivered').find((e) => e.data.order_code === first.code)!;
    const same = listed.data.find((e) => e.id === delivered.id)!;
    expect(same).toEqual({
      id: delivered.id,
      type: delivered.type,
      created_at: delivered.created_at,
      data: delivered.data,
      mode: delivered.mode,
    });

    const byType = await api().call.GET('/events', { params: { query: { type: 'balance.debited' } } });
    expect(byType.data.length).toBeGreaterThan(0);
    expect(new Set(byType.data.map((e) => e.type))).toEqual(new Set(['balance.debited']));
    const later = await api().call.GET('/events', { params: { query: { created_from: delivered.created_at } } });
    expect(later.data.map((e) => e.id)).toEqual([delivered.id]);

    const one = await api().call.GET('/events/{id}', { params: { path: { id: delivered.id } } });
    expect(one.data).toEqual(same);
    expect(await failure(api().call.GET('/events/{id}', { params: { path: { id: UNKNOWN_EVENT } } }))).toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
    });
    // Another key's events are not this key's.
    expect(await failure(api('sk_test_events_other').call.GET('/events/{id}', { params: { path: { id: delivered.id } } }))).toMatchObject({
      status: 404,
    });
  });

  it('redelivers with the original X-Service-Idempotency-Key, to every subscribed endpoint or to one', async () => {
    const order = await giftCardOrder(50);
    await until(() => receiver.of('balance.debited').some((e) => e.data.amount === 50));
    const original = receiver.of('balance.debited').find((e) => e.data.amount === 50)!;
    const count = () => receiver.events.filter((e) => e.id === original.id).length;
    expect(count()).toBe(1);

    const again = await api().call.POST('/events/{id}/redeliver', { params: { path: { id: original.id } } });
    expect(again.data).toHaveLength(1);
    expect(again.data[0]).toMatchObject({ endpoint_code: endpoint, event_id: original.id, idempotency_key: original.idempotencyKey });
    await until(() => count() === 2);
    const copies = receiver.events.filter((e) => e.id === original.id);
    expect(copies[1]!.idempotencyKey).toBe(copies[0]!.idempotencyKey);
    expect(copies[1]!.data).toEqual(copies[0]!.data);

    const targeted = await api().call.POST('/events/{id}/redeliver', {
      params: { path: { id: original.id } },
      body: { endpoint_code: endpoint },
    });
    expect(targeted.data.map((d) => d.endpoint_code)).toEqual([endpoint]);
    await until(() => count() === 3);
    const history = await api().call.GET('/webhooks/{code}/deliveries', { params: { path: { code: endpoint } } });
    expect(history.data.filter((d) => d.event_id === original.id)).toHaveLength(3);
    expect(order.status).toBe('pending');
  });

  it('refuses a disabled (webhook_endpoint_inactive), unsubscribed (webhook_endpoint_not_subscribed) or unknown endpoint', async () => {
    const key = 'sk_test_events_redeliver';
    const r = await startReceiver();
    const all = await connect(sandbox, r, key);
    const narrow = (await api(key).call.POST('/webhooks', { body: { url: r.url, events: ['card.activated'] } })).data.code;
    const event = sandbox.core.db.transaction(() =>
      sandbox.core.outbox.emit(sandbox.core.accounts.resolve(key), 'balance.low_balance', {
        balance_type: 'others',
        balance: 42,
        lowBalanceThreshold: 100,
      }),
    );
    await until(() => r.events.length === 1);

    expect(
      await failure(api(key).call.POST('/events/{id}/redeliver', { params: { path: { id: event.id } }, body: { endpoint_code: narrow } })),
    ).toMatchObject({
      status: 422,
      details: { reason: 'webhook_endpoint_not_subscribed' },
    });
    await api(key).call.POST('/webhooks/{code}/disable', { params: { path: { code: all } } });
    expect(
      await failure(api(key).call.POST('/events/{id}/redeliver', { params: { path: { id: event.id } }, body: { endpoint_code: all } })),
    ).toMatchObject({
      status: 422,
      details: redeliveryRefusal('webhook_endpoint_inactive'),
    });
    // No active endpoint subscribed to the type: nothing to send.
    expect((await api(key).call.POST('/events/{id}/redeliver', { params: { path: { id: event.id } } })).data).toEqual([]);
    expect(
      await failure(
        api(key).call.POST('/events/{id}/redeliver', {
          params: { path: { id: event.id } },
          body: { endpoint_code: '00000000-0000-4000-8000-000000000000' },
        }),
      ),
    ).toMatchObject({ status: 404 });
    expect(await failure(api(key).call.POST('/events/{id}/redeliver', { params: { path: { id: UNKNOWN_EVENT } } }))).toMatchObject({
      status: 404,
    });
    expect(r.problems).toEqual([]);
    await r.close();
  });

  it('events older than 30 days of the clock are neither listed, read nor redelivered', async () => {
    const key = 'sk_test_events_old';
    const event = sandbox.core.db.transaction(() =>
      sandbox.core.outbox.emit(sandbox.core.accounts.resolve(key), 'balance.low_balance', {
        balance_type: 'others',
        balance: 42,
        lowBalanceThreshold: 100,
      }),
    );
    expect((await api(key).call.GET('/events', {})).data.map((e) => e.id)).toEqual([event.id]);
    await sandbox.advance(30 * 86_400 - 1, key);
    expect((await api(key).call.GET('/events', {})).data.map((e) => e.id)).toEqual([event.id]);
    await sandbox.advance(2, key);
    expect((await api(key).call.GET('/events', {})).data).toEqual([]);
    expect(await failure(api(key).call.GET('/events/{id}', { params: { path: { id: event.id } } }))).toMatchObject({ status: 404 });
    expect(await failure(api(key).call.POST('/events/{id}/redeliver', { params: { path: { id: event.id } } }))).toMatchObject({
      status: 404,
    });
  });
});

describe('GET /cards/{code}/topups/{topupId}', () => {
  it('reads a top-up pending, completed, and failed with its reason and refund', async () => {
    const card = (await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100 } }))
      .data;
    await sandbox.advance(2);
    const read = (topupId: string, code = card.code) =>
      api().call.GET('/cards/{code}/topups/{topupId}', { params: { path: { code, topupId } } });
    const t = (await api().call.POST('/cards/{code}/topup', { params: { path: { code: card.code } }, body: { amount: 50 } })).data;
    expect((await read(t.topup_id)).data).toEqual(t);
    await sandbox.advance(2);
    expect((await read(t.topup_id)).data).toMatchObject({ status: 'completed', failure_reason: null, refunded_amount: null });

    await sandbox.simulate('PATCH', '/account', { manual: true });
    const f = (await api().call.POST('/cards/{code}/topup', { params: { path: { code: card.code } }, body: { amount: 100 } })).data;
    await sandbox.simulate('POST', `/topups/${f.topup_id}/outcome`, { outcome: 'failed', reason: 'provider_error' });
    expect((await read(f.topup_id)).data).toMatchObject({
      status: 'failed',
      failure_reason: 'provider_error',
      refunded_amount: 102,
      total_debited: 102,
    });
    await sandbox.simulate('PATCH', '/account', { manual: false });

    const other = (await api().call.POST('/cards', { body: { customer_code: customer, brand: 'VISA', category: 'virtual', amount: 10 } }))
      .data;
    expect(await failure(read(t.topup_id, other.code))).toMatchObject({ status: 404 });
    expect(await failure(read('00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 404 });
  });
});
