// Webhook endpoints: the 2xx ping on create and on a url change, https only (loopback http allowed in the
// sandbox), 1 or 10 active endpoints by plan, disable and enable, secret rotation (the old secret is invalid
// at once), the test ping, and delivery with retries: exponential backoff until the attempts run out,
// the same idempotency key on every attempt, and the delivery history.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, retryDelay } from '../../src/sandbox/index.ts';
import type { WebhookEventType } from '../../src/webhooks/event-types.ts';
import { connect, failure, startReceiver, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario({ connect: false });
let sandbox: TestSandbox, receiver: Receiver;
beforeAll(() => ({ sandbox, receiver } = scenario));

/** Emits an event for an account, as a state change of the sandbox would (delivery reads only its type and body). */
function emit(key: string, type: WebhookEventType = 'balance.low_balance') {
  const account = sandbox.core.accounts.resolve(key);
  const data = { balance_type: 'cards_visa', balance: 42, lowBalanceThreshold: 100 } as never; // a balance.low_balance payload, whatever the type
  return sandbox.core.db.transaction(() => sandbox.core.outbox.emit(account, type, data));
}

describe('endpoint rules', () => {
  it('refuses a non-loopback http url (validation) and a url whose ping does not answer 2xx', async () => {
    const client = sandbox.client('sk_test_rules');
    const http = await failure(client.call.POST('/webhooks', { body: { url: 'http://hooks.example.test/x', events: ['*'] } }));
    expect(http).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(http.details.fields[0].field).toBe('url');
    receiver.pingStatus = 503;
    const refused = await failure(client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } }));
    expect(refused).toMatchObject({ status: 422, details: { reason: 'webhook_ping_failed', ping_status: 503 } });
    receiver.pingStatus = 200;
    const nobody = await failure(client.call.POST('/webhooks', { body: { url: 'http://127.0.0.1:1/closed', events: ['*'] } }));
    expect(nobody).toMatchObject({ status: 422, details: { reason: 'webhook_ping_failed', ping_status: null } });
    expect((await client.call.GET('/webhooks')).data).toEqual([]);
  });

  it('creates after a 2xx ping and returns the secret once', async () => {
    const pings = receiver.pings;
    const client = sandbox.client('sk_test_create');
    const created = (
      await client.call.POST('/webhooks', {
        body: { url: receiver.url, events: ['card.frozen', 'balance.low_balance'], description: 'ops' },
      })
    ).data;
    expect(receiver.pings).toBe(pings + 1);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    const listed = (await client.call.GET('/webhooks')).data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(listed[0]).toMatchObject({ code: created.code, is_active: true, consecutive_failures: 0, last_success_at: null });
  });

  it('Découverte: one active endpoint (403 PLAN_LIMIT_REACHED); disable frees the place, enable checks it again', async () => {
    const key = 'sk_test_webhook_plan';
    await sandbox.simulate('PATCH', '/account', { plan: 'decouverte' }, key);
    const client = sandbox.client(key);
    const first = (await client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } })).data;
    expect(await failure(client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } }))).toMatchObject({
      status: 403,
      code: 'PLAN_LIMIT_REACHED',
    });
    const disabled = (await client.call.POST('/webhooks/{code}/disable', { params: { path: { code: first.code } } })).data;
    expect(disabled.is_active).toBe(false);
    await client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } });
    expect(await failure(client.call.POST('/webhooks/{code}/enable', { params: { path: { code: first.code } } }))).toMatchObject({
      status: 403,
      code: 'PLAN_LIMIT_REACHED',
    });
    await sandbox.simulate('PATCH', '/account', { plan: 'business' }, key);
    expect((await client.call.POST('/webhooks/{code}/enable', { params: { path: { code: first.code } } })).data.is_active).toBe(true);
  });

  it('update: a changed url is pinged again and refused when the ping fails', async () => {
    const client = sandbox.client('sk_test_update');
    const other = await startReceiver();
    const created = (await client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } })).data;
    other.pingStatus = 500;
    expect(
      await failure(client.call.PATCH('/webhooks/{code}', { params: { path: { code: created.code } }, body: { url: other.url } })),
    ).toMatchObject({ details: { reason: 'webhook_ping_failed', ping_status: 500 } });
    other.pingStatus = 200;
    const updated = (
      await client.call.PATCH('/webhooks/{code}', {
        params: { path: { code: created.code } },
        body: { url: other.url, description: 'moved' },
      })
    ).data;
    expect(updated).toMatchObject({ url: other.url, description: 'moved' });
    expect(other.pings).toBe(2);
    const described = (
      await client.call.PATCH('/webhooks/{code}', { params: { path: { code: created.code } }, body: { description: 'again' } })
    ).data;
    expect(described.description).toBe('again');
    expect(other.pings).toBe(2);
    expect(
      await failure(
        client.call.PATCH('/webhooks/{code}', {
          params: { path: { code: '9b2d4f6a-1c3e-4a5b-8d7f-0e1a2b3c4d5e' } },
          body: { description: 'x' },
        }),
      ),
    ).toMatchObject({ status: 404 });
    await other.close();
  });

  it('test ping: the outcome, 2xx or not', async () => {
    const client = sandbox.client('sk_test_ping');
    const created = (await client.call.POST('/webhooks', { body: { url: receiver.url, events: ['*'] } })).data;
    const ok = (await client.call.POST('/webhooks/{code}/test', { params: { path: { code: created.code } } })).data;
    expect(ok).toMatchObject({ endpoint_code: created.code, success: true, response_code: 200, failure_reason: null });
    receiver.pingStatus = 418;
    const bad = (await client.call.POST('/webhooks/{code}/test', { params: { path: { code: created.code } } })).data;
    expect(bad).toMatchObject({ success: false, response_code: 418, failure_reason: 'HTTP 418' });
    receiver.pingStatus = 200;
  });
});

describe('delivery', () => {
  it('signs with the current secret: after a rotation the old secret no longer verifies', async () => {
    const key = 'sk_test_rotate';
    const own = await startReceiver();
    const code = await connect(sandbox, own, key);
    emit(key);
    await until(() => own.events.length === 1);
    const rotated = (await sandbox.client(key).call.POST('/webhooks/{code}/rotate-secret', { params: { path: { code } } })).data;
    expect(rotated.secret).not.toBe(own.secret);
    emit(key);
    await until(() => own.problems.length === 1);
    expect(own.problems[0]).toMatch(/signature/i);
    own.secret = rotated.secret;
    own.problems.length = 0;
    emit(key);
    await until(() => own.events.length === 2);
    expect(own.problems).toEqual([]);
    await own.close();
  });

  it('only to active endpoints subscribed to the type', async () => {
    const key = 'sk_test_subscriptions';
    const own = await startReceiver();
    const created = (await sandbox.client(key).call.POST('/webhooks', { body: { url: own.url, events: ['card.frozen'] } })).data;
    own.secret = created.secret;
    emit(key, 'balance.low_balance');
    const frozen = emit(key, 'card.frozen');
    await until(() => own.events.length === 1);
    expect(own.events[0]!.id).toBe(frozen.id);
    await sandbox.client(key).call.POST('/webhooks/{code}/disable', { params: { path: { code: created.code } } });
    emit(key, 'card.frozen');
    await sandbox.advance(1, key);
    expect(own.events).toHaveLength(1);
    await own.close();
  });

  it('retries a non-2xx answer with exponential backoff and the same idempotency key, then fails', async () => {
    const key = 'sk_test_retries';
    const own = await startReceiver();
    const code = await connect(sandbox, own, key);
    own.status = 500;
    const event = emit(key);
    await until(() => own.events.length === 1);
    const client = sandbox.client(key);
    const first = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data[0]!;
    expect(first).toMatchObject({
      event_id: event.id,
      event_type: 'balance.low_balance',
      status: 'pending',
      attempt: 1,
      response_code: 500,
    });
    const delivery = first.code;
    const schedule = DEFAULT_RETRY_SCHEDULE;
    let expectedAt = Date.parse(first.last_attempt_at) + retryDelay(schedule, delivery, 1);
    expect(Date.parse(first.next_retry_at!)).toBe(expectedAt);
    // One second before the retry is due, nothing is sent; at its time, it is.
    await sandbox.simulate('POST', '/clock/advance', { to: new Date(expectedAt - 1000).toISOString() }, key);
    expect(own.events).toHaveLength(1);
    for (let attempt = 2; attempt <= schedule.maxAttempts; attempt++) {
      await sandbox.simulate('POST', '/clock/advance', { to: new Date(expectedAt).toISOString() }, key);
      expect(own.events).toHaveLength(attempt);
      const row = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data[0]!;
      expect(row.attempt).toBe(attempt);
      expect(Date.parse(row.last_attempt_at)).toBe(expectedAt);
      if (attempt < schedule.maxAttempts) {
        expect(retryDelay(schedule, delivery, attempt)).toBeGreaterThan(retryDelay(schedule, delivery, attempt - 1));
        expectedAt += retryDelay(schedule, delivery, attempt);
        expect(Date.parse(row.next_retry_at!)).toBe(expectedAt);
      } else {
        expect(row).toMatchObject({ status: 'failed', next_retry_at: null, response_code: 500 });
      }
    }
    await sandbox.advance(24 * 3600, key);
    expect(own.events).toHaveLength(schedule.maxAttempts);
    expect(new Set(own.events.map((e) => e.idempotencyKey)).size).toBe(1);
    expect(new Set(own.events.map((e) => e.id))).toEqual(new Set([event.id]));
    const endpoint = (await client.call.GET('/webhooks')).data[0]!;
    expect(endpoint.consecutive_failures).toBe(schedule.maxAttempts);
    own.status = 200;
    emit(key);
    await until(() => own.events.length === schedule.maxAttempts + 1);
    await until(
      () => sandbox.core.db.get<{ n: number }>('SELECT consecutive_failures AS n FROM webhook_endpoints WHERE code = ?', code)!.n === 0,
    );
    const history = (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data;
    expect(history.map((d) => d.status)).toEqual(['delivered', 'failed']);
    expect(history[0]!.idempotency_key).not.toBe(history[1]!.idempotency_key);
    await own.close();
  });

  it('the history shows an attempt in flight as the latest, with no answer, no duration and no retry time', async () => {
    // A receiver that holds each delivery until the test answers it (pings are answered at once).
    const held: http.ServerResponse[] = [];
    const slow = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => {
          if ((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type === 'webhook.ping') res.writeHead(200).end();
          else held.push(res);
        });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const key = 'sk_test_in_flight';
    const client = sandbox.client(key);
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks`;
    const code = (await client.call.POST('/webhooks', { body: { url, events: ['*'] } })).data.code;
    const latest = async () => (await client.call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data[0]!;
    const inFlight = { status: 'pending', response_code: null, duration_ms: null, next_retry_at: null };

    emit(key);
    await until(() => held.length === 1);
    expect(await latest()).toMatchObject({ ...inFlight, attempt: 1 });
    held[0]!.writeHead(500).end();
    await until(
      () => sandbox.core.db.get<{ n: number }>('SELECT response_code AS n FROM deliveries WHERE endpoint_code = ?', code)!.n === 500,
    );
    const failed = await latest();
    expect(failed).toMatchObject({ status: 'pending', attempt: 1, response_code: 500 });
    expect(Date.parse(failed.next_retry_at!)).toBeGreaterThan(Date.parse(failed.last_attempt_at)); // a retry is due later

    // The retry: the clock is advanced to it, and the test looks while the receiver holds it.
    const advanced = sandbox.simulate('POST', '/clock/advance', { to: failed.next_retry_at }, key);
    await until(() => held.length === 2);
    expect(await latest()).toMatchObject({ ...inFlight, attempt: 2, last_attempt_at: failed.next_retry_at });
    held[1]!.writeHead(204).end();
    await advanced;
    expect(await latest()).toMatchObject({ status: 'delivered', attempt: 2, response_code: 204, next_retry_at: null });
    await new Promise<void>((resolve) => slow.close(() => resolve()));
  });

  it('the backoff is exponential, jittered within 10 %, and the same for the same seed', () => {
    for (let attempt = 1; attempt < 8; attempt++) {
      const d = retryDelay(DEFAULT_RETRY_SCHEDULE, 'c4e8a2f6-0b1d-4e3f-9a5c-7d9e1f3a5b7c', attempt);
      const base = 60_000 * 2 ** (attempt - 1);
      expect(d).toBeGreaterThanOrEqual(base * 0.9);
      expect(d).toBeLessThan(base * 1.1);
      expect(retryDelay(DEFAULT_RETRY_SCHEDULE, 'c4e8a2f6-0b1d-4e3f-9a5c-7d9e1f3a5b7c', attempt)).toBe(d);
    }
    const other = retryDelay({ ...DEFAULT_RETRY_SCHEDULE, seed: 2 }, 'c4e8a2f6-0b1d-4e3f-9a5c-7d9e1f3a5b7c', 3);
    expect(other).not.toBe(retryDelay(DEFAULT_RETRY_SCHEDULE, 'c4e8a2f6-0b1d-4e3f-9a5c-7d9e1f3a5b7c', 3));
  });
});

it('customers need an active webhook endpoint (422 webhook_endpoint_required)', async () => {
  const client = sandbox.client('sk_test_no_endpoint');
  const refused = await failure(
    client.call.POST('/customers', { body: { external_reference: 'c-1', first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' } }),
  );
  expect(refused).toMatchObject({ status: 422, details: { reason: 'webhook_endpoint_required' } });
});

describe('read and delete one endpoint', () => {
  it('reads one endpoint without its secret; a deleted one is gone, gets nothing more, and customers need a new one', async () => {
    const key = 'sk_test_wh_delete';
    const r = await startReceiver();
    const code = await connect(sandbox, r, key);
    const api = sandbox.client(key);
    const one = (await api.call.GET('/webhooks/{code}', { params: { path: { code } } })).data;
    expect(one).toMatchObject({ code, url: r.url, is_active: true, consecutive_failures: 0 });
    expect(one).not.toHaveProperty('secret');

    r.status = 500;
    emit(key);
    await until(() => r.events.length === 1);
    const [pending] = (await api.call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data;
    expect(pending).toMatchObject({ status: 'pending', attempt: 1 });

    expect((await api.call.DELETE('/webhooks/{code}', { params: { path: { code } } })).data).toEqual({ code, deleted: true });
    expect(sandbox.core.db.get<{ status: string }>('SELECT status FROM deliveries WHERE code = ?', pending!.code)!.status).toBe('failed');
    await sandbox.advance(3 * 3600, key);
    expect(r.events).toHaveLength(1);
    expect(await failure(api.call.GET('/webhooks/{code}', { params: { path: { code } } }))).toMatchObject({
      status: 404,
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await failure(api.call.DELETE('/webhooks/{code}', { params: { path: { code } } }))).toMatchObject({ status: 404 });
    expect((await api.call.GET('/webhooks', {})).data).toEqual([]);
    expect(
      await failure(
        api.call.POST('/customers', {
          body: { external_reference: 'after-delete', first_name: 'A', last_name: 'B', date_of_birth: '1990-01-01' },
        }),
      ),
    ).toMatchObject({
      status: 422,
      details: { reason: 'webhook_endpoint_required' },
    });
    expect(r.problems).toEqual([]);
    await r.close();
  });
});
