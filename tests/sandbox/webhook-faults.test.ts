// Webhook delivery faults (`/sandbox/webhook-faults`): duplicates arrive twice with the same idempotency key,
// a reorder window releases events in another order than created, a delay waits for the clock, a failure share
// leads to retries shown in the delivery history; a seed repeats exactly, a plan is per account, and bad input
// is a 422 that arms nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { FAULT_FAILURE } from '../../src/sandbox/core/delivery.ts';
import { createSimulationClient, startWebhookReceiver } from '../../src/testing/index.ts';
import { clockOf, connect, startReceiver, until, useScenario, type Receiver, type TestSandbox } from './support.ts';

const scenario = useScenario({ connect: false });
let sandbox: TestSandbox;
beforeAll(() => ({ sandbox } = scenario));

/** Emits an event for an account, as a state change of the sandbox would (delivery reads only its type and body). */
function emit(key: string) {
  const account = sandbox.core.accounts.resolve(key);
  const data = { balance_type: 'cards_visa', balance: 42, lowBalanceThreshold: 100 } as never;
  return sandbox.core.db.transaction(() => sandbox.core.outbox.emit(account, 'balance.low_balance', data));
}

/** The timers of a key's account, on its clock. */
const pendingOf = (key: string) => sandbox.core.scheduler.pending(sandbox.core.accounts.resolve(key).id);

async function plan(key: string, body: unknown) {
  const answer = await sandbox.simulate('PUT', '/webhook-faults', body, key);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function history(key: string, code: string) {
  return (await sandbox.client(key).call.GET('/webhooks/{code}/deliveries', { params: { path: { code } } })).data;
}

/** A receiver connected as the only endpoint of the key's account. */
async function endpoint(key: string): Promise<{ own: Receiver; code: string }> {
  const own = await startReceiver();
  return { own, code: await connect(sandbox, own, key) };
}

describe('webhook delivery faults', () => {
  it('duplicates: a delivered event arrives twice with the same idempotency key; the history keeps one attempt', async () => {
    const key = 'sk_test_wf_duplicate';
    const { own, code } = await endpoint(key);
    await plan(key, { seed: 3, duplicate_share: 1 });
    const event = emit(key);
    await until(() => own.events.length === 2);
    expect(own.events.map((e) => e.id)).toEqual([event.id, event.id]);
    expect(own.events[0]!.idempotencyKey).toBe(own.events[1]!.idempotencyKey);
    expect(await history(key, code)).toMatchObject([{ event_id: event.id, status: 'delivered', attempt: 1 }]);
    await own.close();
  });

  it('out of order: a window of held first attempts is released in another order than created', async () => {
    const key = 'sk_test_wf_reorder';
    const { own } = await endpoint(key);
    await plan(key, { seed: 11, reorder_window: 4 });
    const created = [emit(key), emit(key), emit(key)].map((e) => e.id);
    await sandbox.advance(60, key);
    expect(own.events).toEqual([]);
    expect((await sandbox.simulate('GET', '/webhook-faults', undefined, key)).body.data.held).toBe(3);
    created.push(emit(key).id);
    await until(() => own.events.length === 4);
    const arrived = own.events.map((e) => e.id);
    expect([...arrived].sort()).toEqual([...created].sort());
    expect(arrived).not.toEqual(created);
    await own.close();
  });

  it("delayed: the first attempt waits delay_seconds of the account's clock", async () => {
    const key = 'sk_test_wf_delay';
    const { own } = await endpoint(key);
    await plan(key, { delay_seconds: 30 });
    const event = emit(key);
    await sandbox.advance(29, key);
    expect(own.events).toEqual([]);
    await sandbox.advance(1, key);
    expect(own.events.map((e) => e.id)).toEqual([event.id]);
    await own.close();
  });

  it('failing share: failed attempts are retried on the normal schedule and shown in the history', async () => {
    const key = 'sk_test_wf_fail';
    const { own, code } = await endpoint(key);
    await plan(key, { failure_share: 1 });
    const event = emit(key);
    await until(() => pendingOf(key).some((j) => j.run_at > clockOf(sandbox, key).now()));
    const [first] = await history(key, code);
    expect(first).toMatchObject({ event_id: event.id, status: 'pending', attempt: 1, response_code: null, failure_reason: FAULT_FAILURE });
    expect(first!.next_retry_at).not.toBeNull();
    await sandbox.advance(24 * 3600, key);
    expect(await history(key, code)).toMatchObject([{ status: 'failed', attempt: 8, failure_reason: FAULT_FAILURE }]);
    expect(own.events).toEqual([]);
    // Cleared, the next event is delivered at once.
    await sandbox.simulate('DELETE', '/webhook-faults', undefined, key);
    emit(key);
    await until(() => own.events.length === 1);
    await own.close();
  });

  it('a seed repeats exactly: the same plan and events give the same arrivals and history', async () => {
    const run = async (key: string, seed: number) => {
      const { own, code } = await endpoint(key);
      await plan(key, { seed, duplicate_share: 0.5, failure_share: 0.3, reorder_window: 4 });
      const created = Array.from({ length: 8 }, () => emit(key).id);
      await until(() => pendingOf(key).filter((j) => j.run_at <= clockOf(sandbox, key).now()).length === 0);
      await sandbox.core.scheduler.settle();
      const index = (id: string) => created.indexOf(id);
      const rows = (await history(key, code)).map((d) => [index(d.event_id), d.status, d.attempt, d.failure_reason]);
      await own.close();
      return { arrivals: own.events.map((e) => index(e.id)), rows: rows.sort((a, b) => Number(a[0]) - Number(b[0])) };
    };
    const first = await run('sk_test_wf_seed_a', 7);
    const again = await run('sk_test_wf_seed_b', 7);
    const other = await run('sk_test_wf_seed_c', 8);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // The plan did something: an event arrived twice, one failed, and the order is not the order of creation.
    expect(first.arrivals.length).toBeGreaterThan(new Set(first.arrivals).size);
    expect(first.rows.some((r) => r[3] === FAULT_FAILURE)).toBe(true);
    expect(first.arrivals).not.toEqual([...first.arrivals].sort((a, b) => a - b));
  });

  it("per account: another key's deliveries are perfect while a plan is set", async () => {
    const faulty = 'sk_test_wf_faulty';
    const clean = 'sk_test_wf_clean';
    const a = await endpoint(faulty);
    const b = await endpoint(clean);
    await plan(faulty, { duplicate_share: 1, delay_seconds: 10 });
    const faultyEvent = emit(faulty);
    // Emitted together, the three are attempted at once: their arrival order is not the point here.
    const created = [emit(clean), emit(clean), emit(clean)].map((e) => e.id);
    await until(() => b.own.events.length === 3);
    expect(a.own.events).toEqual([]);
    await sandbox.advance(60, clean);
    expect(b.own.events.map((e) => e.id).sort()).toEqual([...created].sort());
    expect(new Set(b.own.events.map((e) => e.idempotencyKey)).size).toBe(3);
    // The clean key's advance moves its own clock only: the faulty account's delayed attempt waits for its clock.
    expect(a.own.events).toEqual([]);
    await sandbox.advance(10, faulty);
    expect(a.own.events.map((e) => e.id)).toEqual([faultyEvent.id, faultyEvent.id]);
    expect((await sandbox.simulate('GET', '/webhook-faults', undefined, clean)).body.data).toMatchObject({
      duplicate_share: 0,
      delay_seconds: 0,
    });
    await a.own.close();
    await b.own.close();
  });

  it("the test kit's receiver reports every delivery in arrival order, repeats counted (the testing guide's example)", async () => {
    const key = 'sk_test_wf_kit';
    const client = sandbox.client(key);
    const sim = createSimulationClient({ apiKey: key, baseUrl: sandbox.simulationUrl });
    await sim.call.PUT('/webhook-faults', { body: { seed: 42, duplicate_share: 1, reorder_window: 3 } });
    const receiver = await startWebhookReceiver();
    await receiver.register(client);
    const created: string[] = [];
    for (const gross_amount of [100, 200, 300]) {
      await sim.call.POST('/balances/{type}/deposits', { params: { path: { type: 'cards_visa' } }, body: { gross_amount } });
      created.push(sandbox.core.db.get<{ id: string }>('SELECT id FROM events ORDER BY rowid DESC LIMIT 1')!.id);
    }
    const deliveries = await receiver.waitForDeliveries(6);
    expect(new Set(deliveries.map((d) => d.idempotencyKey)).size).toBe(3);
    expect(receiver.duplicates()).toBe(3);
    expect(deliveries.map((d) => d.copy)).toEqual([1, 2, 1, 2, 1, 2]);
    expect(receiver.events).toHaveLength(3);
    const order = deliveries.filter((d) => d.copy === 1).map((d) => d.eventId);
    expect([...order].sort()).toEqual([...created].sort());
    expect(order).not.toEqual(created);
    expect(receiver.events.map((e) => e.id)).toEqual(order);
    await sim.call.DELETE('/webhook-faults');
    await receiver.close();
  });

  it('bad input: 422 in the envelope naming the field, and nothing armed', async () => {
    const key = 'sk_test_wf_bad';
    for (const body of [{ duplicate_share: 1.5 }, { reorder_window: 1 }, { delay_seconds: -1 }, { seed: 'x' }, { failure_rate: 0.5 }]) {
      const answer = await sandbox.simulate('PUT', '/webhook-faults', body, key);
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(answer.body.error.details.fields.length).toBeGreaterThan(0);
    }
    expect((await sandbox.simulate('GET', '/webhook-faults', undefined, key)).body.data).toEqual({
      seed: 1,
      duplicate_share: 0,
      failure_share: 0,
      delay_seconds: 0,
      reorder_window: null,
      held: 0,
    });
  });
});
