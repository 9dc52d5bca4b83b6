// A clock per account (test clocks): each key's simulation API freezes, resumes and advances its own account's
// clock only, and what is time-based for an account (its timers, its idempotency keys' 24 hours, its webhook
// deliveries, its records' timestamps) follows that clock; `clock: 'shared'` keeps one clock for every key. A
// refused move changes nothing, and a database file made with one clock keeps it as the sandbox's own. Each test
// of the per-account clocks fails if the accounts shared one clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseSync } from '../../src/sandbox/core/sqlite.ts';
import { requestExamples } from '../../src/sandbox/seed.ts';
import { createSandboxClock } from '../../src/testing/index.ts';
import {
  clockOf,
  connect,
  newCustomer,
  startReceiver,
  startTestSandbox,
  stateDigest,
  until,
  type Receiver,
  type TestSandbox,
} from './support.ts';

const A = 'sk_test_clock_a';
const B = 'sk_test_clock_b';
const DAY_AND_HOUR = 25 * 3600;

/** A sandbox (frozen clocks unless `options` say otherwise) with a verifying receiver connected for A and for B. */
async function twoAccounts(options: Parameters<typeof startTestSandbox>[0] = {}) {
  const sandbox = await startTestSandbox(options);
  const receivers: Record<string, Receiver> = { [A]: await startReceiver(), [B]: await startReceiver() };
  for (const key of [A, B]) await connect(sandbox, receivers[key]!, key);
  return { sandbox, receivers };
}

const clockOfKey = async (sandbox: TestSandbox, key: string) => (await sandbox.simulate('GET', '/clock', undefined, key)).body.data;

/** POST /v1/customers with an Idempotency-Key (the contract's example body, one reference per call site). */
function createCustomer(sandbox: TestSandbox, key: string, idempotencyKey: string, reference: string) {
  return sandbox.request('POST', '/v1/customers', {
    key,
    body: JSON.stringify({ ...requestExamples('POST', '/customers')[0], external_reference: reference }),
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

const customerCount = async (sandbox: TestSandbox, key: string) =>
  (await sandbox.request('GET', '/v1/customers?limit=100', { key })).body.data.length as number;

/** A card just requested for a new customer of `key`'s automatic account: pending until its clock is 2 s later. */
async function pendingCard(sandbox: TestSandbox, key: string): Promise<string> {
  const customer = await newCustomer(sandbox, key);
  const created = await sandbox.request('POST', '/v1/cards', {
    key,
    body: JSON.stringify({ customer_code: customer, brand: 'VISA', category: 'virtual', amount: 100 }),
  });
  expect(created.body.data.status).toBe('pending');
  return created.body.data.code as string;
}

/** A confirmed ops balance deposit of `key`'s account: one `balance.deposit_confirmed` to its endpoint. */
async function deposit(sandbox: TestSandbox, key: string): Promise<void> {
  expect((await sandbox.simulate('POST', '/balances/gift_cards/deposits', { gross_amount: 100, fee: 1 }, key)).status).toBe(200);
}

const cardStatus = async (sandbox: TestSandbox, key: string, code: string) =>
  (await sandbox.request('GET', `/v1/cards/${code}`, { key })).body.data.status as string;

describe('a clock per account', () => {
  let sandbox: TestSandbox;
  let receivers: Record<string, Receiver>;
  beforeAll(async () => ({ sandbox, receivers } = await twoAccounts()));
  afterAll(async () => {
    await sandbox.close();
    for (const r of Object.values(receivers)) await r.close();
  });
  afterEach(() => {
    const problems = [...sandbox.problems, ...Object.values(receivers).flatMap((r) => r.problems)];
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });

  it("advancing A 25 hours expires A's idempotency key, not B's: B's retry replays its one customer", async () => {
    const first = {
      a: await createCustomer(sandbox, A, 'idem-clock-1', 'clock-a-1'),
      b: await createCustomer(sandbox, B, 'idem-clock-1', 'clock-b-1'),
    };
    const counts = { a: await customerCount(sandbox, A), b: await customerCount(sandbox, B) };
    await sandbox.advance(DAY_AND_HOUR, A);
    const retryB = await createCustomer(sandbox, B, 'idem-clock-1', 'clock-b-1');
    expect(retryB.status).toBe(200);
    expect(retryB.headers.get('idempotent-replayed')).toBe('true');
    expect(retryB.body.data.customer_code).toBe(first.b.body.data.customer_code);
    expect(await customerCount(sandbox, B)).toBe(counts.b);
    // A's 24 hours are over on A's clock: the same request is a new one.
    const retryA = await createCustomer(sandbox, A, 'idem-clock-1', 'clock-a-1');
    expect(retryA.status).toBe(200);
    expect(retryA.headers.get('idempotent-replayed')).toBeNull();
    expect(retryA.body.data.customer_code).not.toBe(first.a.body.data.customer_code);
    expect(await customerCount(sandbox, A)).toBe(counts.a + 1);
    // A's write purged A's expired answers only: B's, a day old on A's clock, is still kept.
    expect((await createCustomer(sandbox, B, 'idem-clock-1', 'clock-b-1')).headers.get('idempotent-replayed')).toBe('true');
    expect(await customerCount(sandbox, B)).toBe(counts.b);
  });

  it("A's advance runs A's timers only: B's card stays pending until B's clock moves", async () => {
    const cardA = await pendingCard(sandbox, A);
    const cardB = await pendingCard(sandbox, B);
    await sandbox.advance(2, A);
    expect(await cardStatus(sandbox, A, cardA)).toBe('active');
    expect(await cardStatus(sandbox, B, cardB)).toBe('pending');
    expect((await clockOfKey(sandbox, B)).pending_jobs.map((j: { kind: string }) => j.kind)).toContain('card.issue');
    expect((await clockOfKey(sandbox, A)).pending_jobs.map((j: { kind: string }) => j.kind)).not.toContain('card.issue');
    await sandbox.advance(2, B);
    expect(await cardStatus(sandbox, B, cardB)).toBe('active');
  });

  it("A's records and answers carry A's time; B's carry B's", async () => {
    const [a, b] = [await clockOfKey(sandbox, A), await clockOfKey(sandbox, B)];
    expect(Date.parse(a.now)).toBeGreaterThan(Date.parse(b.now));
    const madeA = await createCustomer(sandbox, A, 'idem-clock-2', 'clock-a-2');
    const madeB = await createCustomer(sandbox, B, 'idem-clock-2', 'clock-b-2');
    expect([madeA.body.data.created_at, madeA.body.meta.timestamp]).toEqual([a.now, a.now]);
    expect([madeB.body.data.created_at, madeB.body.meta.timestamp]).toEqual([b.now, b.now]);
    expect(clockOf(sandbox, A).iso()).toBe(a.now);
  });

  it("a delivery fault's delay waits for A's clock: B's advance does not release A's delivery", async () => {
    expect((await sandbox.simulate('PUT', '/webhook-faults', { delay_seconds: 30 }, A)).status).toBe(200);
    const before = receivers[A]!.events.length;
    await deposit(sandbox, A);
    await sandbox.advance(3600, B);
    await sandbox.core.scheduler.settle();
    expect(receivers[A]!.events.length).toBe(before);
    await sandbox.advance(30, A);
    await until(() => receivers[A]!.events.length > before);
    expect(receivers[A]!.events.at(-1)!.type).toBe('balance.deposit_confirmed');
    await sandbox.simulate('DELETE', '/webhook-faults', undefined, A);
  });

  it("a failed delivery's retry waits for A's clock: B's day passes without it", async () => {
    const receiver = receivers[A]!;
    receiver.status = 500;
    const before = receiver.events.length;
    await deposit(sandbox, A);
    await until(() => receiver.events.length === before + 1);
    await sandbox.core.scheduler.settle();
    await sandbox.advance(24 * 3600, B);
    await sandbox.core.scheduler.settle();
    expect(receiver.events.length).toBe(before + 1);
    receiver.status = 200;
    await sandbox.advance(3600, A);
    await until(() => receiver.events.length === before + 2);
    expect(receiver.events.at(-1)!.id).toBe(receiver.events.at(-2)!.id);
  });

  it('moving a clock back is a 422 in the envelope that changes no clock, timer or record', async () => {
    await pendingCard(sandbox, A);
    await sandbox.advance(60, A);
    await sandbox.advance(0, B); // what is due now (the card's webhook deliveries) is done: nothing moves meanwhile
    const digest = stateDigest(sandbox);
    const [a, b] = [await clockOfKey(sandbox, A), await clockOfKey(sandbox, B)];
    expect(Date.parse(a.now)).toBeGreaterThan(Date.parse(b.now));
    // Between the two clocks: ahead of B's, but back for A, whose key asks.
    const between = new Date(Date.parse(a.now) - 30_000).toISOString();
    const back = await sandbox.simulate('POST', '/clock/advance', { to: between }, A);
    expect(back.status).toBe(422);
    expect(back.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { fields: [{ field: 'to' }] } } });
    expect(back.body.error.message).toContain(a.now);
    const both = await sandbox.simulate('POST', '/clock/advance', { seconds: 1, to: a.now }, A);
    expect(both.status).toBe(422);
    expect(both.body.success).toBe(false);
    expect(await clockOfKey(sandbox, A)).toEqual(a);
    expect(await clockOfKey(sandbox, B)).toEqual(b);
    expect(stateDigest(sandbox)).toEqual(digest);
  });
});

describe('the clock of each key, running', () => {
  it("freezing A's clock leaves B's running; the test kit's clock reads and moves its own key's", async () => {
    const { sandbox, receivers } = await twoAccounts({ freezeClock: false });
    try {
      const clockA = createSandboxClock({ apiKey: A, baseUrl: sandbox.simulationUrl });
      const clockB = createSandboxClock({ apiKey: B, baseUrl: sandbox.simulationUrl });
      expect((await clockA.freeze()).frozen).toBe(true);
      expect((await clockB.read()).frozen).toBe(false);
      const frozenAt = (await clockA.read()).now;
      const movedA = await clockA.advance(3600);
      expect(Date.parse(movedA.now)).toBe(Date.parse(frozenAt) + 3_600_000);
      expect(Date.parse((await clockB.read()).now)).toBeLessThan(Date.parse(movedA.now));
      expect((await clockA.resume()).frozen).toBe(false);
      expect(sandbox.problems).toEqual([]);
    } finally {
      await sandbox.close();
      for (const r of Object.values(receivers)) await r.close();
    }
  });

  it("a snapshot's state of A's clock is put back by restore, B's untouched", async () => {
    const { sandbox, receivers } = await twoAccounts();
    try {
      const [a, b] = [sandbox.core.accounts.resolve(A).id, sandbox.core.accounts.resolve(B).id];
      const saved = sandbox.core.clock.state(a);
      await sandbox.advance(3600, A);
      const bBefore = sandbox.core.clock.state(b);
      sandbox.core.clock.restore(a, saved);
      expect(sandbox.core.clock.state(a)).toEqual(saved);
      expect(sandbox.core.clock.state(b)).toEqual(bBefore);
      expect((await clockOfKey(sandbox, A)).now).toBe(new Date(saved.now_ms).toISOString());
    } finally {
      await sandbox.close();
      for (const r of Object.values(receivers)) await r.close();
    }
  });
});

describe('a database file made with one clock', () => {
  it("keeps that clock as the sandbox's own, which each account's clock starts from", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-one-clock-'));
    const file = path.join(dir, 'one-clock.sqlite');
    const then = Date.UTC(2030, 0, 1);
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE clock (id INTEGER PRIMARY KEY CHECK (id = 1), now_ms INTEGER NOT NULL, offset_ms INTEGER NOT NULL,
      frozen INTEGER NOT NULL CHECK (frozen IN (0, 1))) STRICT;
      INSERT INTO clock (id, now_ms, offset_ms, frozen) VALUES (1, ${then}, 0, 1);
      CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, run_at INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL) STRICT;`);
    old.close();
    const sandbox = await startTestSandbox({ db: file, freezeClock: false });
    try {
      expect(await clockOfKey(sandbox, A)).toMatchObject({ now: new Date(then).toISOString(), frozen: true });
      await sandbox.advance(60, A);
      expect((await clockOfKey(sandbox, B)).now).toBe(new Date(then).toISOString());
      expect(sandbox.problems).toEqual([]);
    } finally {
      await sandbox.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a sandbox started with clock: 'shared'", () => {
  it("keeps one clock: B's advance moves A, runs A's timers and expires A's idempotency key; A's freeze shows for B", async () => {
    const { sandbox, receivers } = await twoAccounts({ clock: 'shared', freezeClock: false });
    try {
      expect((await sandbox.simulate('POST', '/clock/freeze', undefined, A)).status).toBe(200);
      expect((await clockOfKey(sandbox, B)).frozen).toBe(true);
      const first = await createCustomer(sandbox, A, 'idem-shared', 'shared-a');
      const card = await pendingCard(sandbox, A);
      await sandbox.advance(DAY_AND_HOUR, B);
      expect(await cardStatus(sandbox, A, card)).toBe('active');
      const retry = await createCustomer(sandbox, A, 'idem-shared', 'shared-a');
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
      expect(retry.body.data.customer_code).not.toBe(first.body.data.customer_code);
      expect((await clockOfKey(sandbox, A)).now).toBe((await clockOfKey(sandbox, B)).now);
      expect(sandbox.problems).toEqual([]);
    } finally {
      await sandbox.close();
      for (const r of Object.values(receivers)) await r.close();
    }
  });
});
